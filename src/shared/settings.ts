import { z } from 'zod';

/**
 * The user's settings of the window (docs/using/settings.md): one row of the
 * host's admin DB, so every window, `chatos serve` and the CLI read the
 * same. Each is optional: unset is the default (the system's language and
 * theme, 14 px, no default agent or model, memories found by words).
 */

export const FONT_SIZE_MIN = 12;
export const FONT_SIZE_MAX = 20;

const RefSchema = z.string().min(1).max(256);

const FIELDS = {
  language: z.enum(['zh', 'en']),
  theme: z.enum(['light', 'dark']),
  /** The window's base font size, in CSS pixels. */
  fontSize: z.number().int().min(FONT_SIZE_MIN).max(FONT_SIZE_MAX),
  /** The agent a new chat starts with (an agent's id). */
  defaultAgentId: RefSchema,
  /** The model a new agent is given (a model entry's id). */
  defaultModelId: RefSchema,
  /** The model entry that embeds memories so they are found by meaning (one with an OpenAI-compatible /embeddings); unset: by words. */
  memoryEmbeddingModel: RefSchema,
  /** The MCP Registry the catalog reads (docs/rules/catalog.md); unset: the official one. */
  mcpRegistryUrl: z
    .string()
    .max(2048)
    .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), { error: 'must be an http(s) URL, e.g. https://registry.modelcontextprotocol.io' }),
};

export const UserSettingsSchema = z.object(FIELDS).partial().strict();
export type UserSettings = z.infer<typeof UserSettingsSchema>;

/** A change: the fields given are set, a `null` one is unset (back to its default), the others stay. An unknown field is refused. */
export const UserSettingsPatchSchema = z
  .object({
    language: FIELDS.language.nullable(),
    theme: FIELDS.theme.nullable(),
    fontSize: FIELDS.fontSize.nullable(),
    defaultAgentId: FIELDS.defaultAgentId.nullable(),
    defaultModelId: FIELDS.defaultModelId.nullable(),
    memoryEmbeddingModel: FIELDS.memoryEmbeddingModel.nullable(),
    mcpRegistryUrl: FIELDS.mcpRegistryUrl.nullable(),
  })
  .partial()
  .strict();

/** What the Settings page shows besides the settings: where the data is, the version, the host's limits. */
export const SettingsViewSchema = z.object({
  settings: UserSettingsSchema,
  home: z.string(),
  version: z.string(),
  /** The host's limits the page lists under Advanced (read-only: they are the core's, the same for every face). */
  limits: z.object({ memoryChars: z.number(), memoriesPerAgent: z.number(), memoryQueryChars: z.number() }),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;
