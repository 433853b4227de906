import type { UserSettings } from '../../shared/settings.js';

/** The user's settings (docs/using/settings.md): read, and changed as a patch the core checks (an unknown field, a value out of range or a missing agent or model is refused: SettingsError). */
export interface SettingsFacade {
  get(): UserSettings;
  update(patch: unknown): UserSettings;
}
