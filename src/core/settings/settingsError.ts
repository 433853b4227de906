/** A settings change refused: a value out of range, an unknown field, an agent or model that does not exist. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';

  constructor(
    readonly code: 'SETTINGS_INVALID',
    message: string,
    /** Which setting and what is wrong, so the page can show it beside the field. */
    readonly fields: { path: string; message: string }[],
    readonly hint?: string,
  ) {
    super(message);
  }
}
