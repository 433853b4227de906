import { UserSettingsPatchSchema, UserSettingsSchema, type UserSettings } from '../../shared/settings.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { SettingsError } from './settingsError.js';

/** The user's settings: one row of the admin DB (beside `hostSettings`, the data home's own switches). */
export const UserSettingsTable = defineTable('userSettings', UserSettingsSchema);
const ROW = 'user';

export interface UserSettingsDeps {
  store: RecordsStore;
  /** Whether an agent of this id exists now. */
  agentExists(id: string): boolean;
  /** The model entry of this id, if any: what it can do decides whether it may embed. */
  model(id: string): { api: string } | undefined;
  /** Whether a model entry's API offers embeddings (knowledge/embedder.ts). */
  offersEmbeddings(model: { api: string }): boolean;
}

/**
 * The user's settings as every face reads and changes them
 * (docs/using/settings.md). The core checks each change, not the page:
 * every field against its schema (an unknown one is refused, not kept),
 * and each reference against what exists now, so a default agent or model
 * is one the user has and the memory model is one that can embed. A
 * reference that goes away later (the agent deleted) reads as unset.
 */
export class UserSettingsService {
  constructor(private readonly deps: UserSettingsDeps) {}

  /** The settings now; another process may have changed them, so the store is re-read first. */
  get(): UserSettings {
    this.deps.store.refresh();
    const stored = this.deps.store.get(UserSettingsTable, ROW)?.payload ?? {};
    const settings: UserSettings = { ...stored };
    if (settings.defaultAgentId !== undefined && !this.deps.agentExists(settings.defaultAgentId)) delete settings.defaultAgentId;
    if (settings.defaultModelId !== undefined && !this.deps.model(settings.defaultModelId)) delete settings.defaultModelId;
    if (settings.memoryEmbeddingModel !== undefined && !this.embeds(settings.memoryEmbeddingModel)) delete settings.memoryEmbeddingModel;
    return settings;
  }

  /** Applies a change (UserSettingsPatchSchema) and gives back the settings as stored; nothing is stored when any part is refused. */
  update(raw: unknown): UserSettings {
    const parsed = UserSettingsPatchSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(root)'),
        message: issue.message,
      }));
      throw new SettingsError('SETTINGS_INVALID', `settings not changed: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields);
    }
    const patch = parsed.data;
    const fields: { path: string; message: string }[] = [];
    if (patch.defaultAgentId && !this.deps.agentExists(patch.defaultAgentId)) fields.push({ path: 'defaultAgentId', message: `no agent "${patch.defaultAgentId}"` });
    if (patch.defaultModelId && !this.deps.model(patch.defaultModelId)) fields.push({ path: 'defaultModelId', message: `no model "${patch.defaultModelId}"` });
    if (patch.memoryEmbeddingModel) {
      const model = this.deps.model(patch.memoryEmbeddingModel);
      if (!model) fields.push({ path: 'memoryEmbeddingModel', message: `no model "${patch.memoryEmbeddingModel}"` });
      else if (!this.deps.offersEmbeddings(model))
        fields.push({ path: 'memoryEmbeddingModel', message: `model "${patch.memoryEmbeddingModel}" speaks the ${model.api} API, which offers no embeddings` });
    }
    if (fields.length) throw new SettingsError('SETTINGS_INVALID', `settings not changed: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, fields, 'choose one from the list');

    const next: Record<string, unknown> = { ...(this.deps.store.get(UserSettingsTable, ROW)?.payload ?? {}) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    }
    const settings = UserSettingsSchema.parse(next);
    this.deps.store.put(UserSettingsTable, ROW, settings);
    return this.get();
  }

  private embeds(id: string): boolean {
    const model = this.deps.model(id);
    return model !== undefined && this.deps.offersEmbeddings(model);
  }
}
