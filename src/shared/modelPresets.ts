import { z } from 'zod';
import { MODEL_PRESET_LIST } from './modelPresetList.js';
import { ApiKindSchema, ModelKindSchema } from './models.js';

/**
 * Starting points for a model entry, shared by `chatos models add --preset`
 * and the Models page (through `models.presets`). A preset fills the API
 * kind, the base URL, a suggested model name and the variable its key is
 * usually kept in; the user may change any of them.
 */
export const ModelPresetSchema = z.object({
  id: z.string(),
  name: z.string(),
  api: ApiKindSchema,
  /** Empty for "any OpenAI-compatible URL": the user gives it. */
  baseUrl: z.string(),
  /** A model name to start from; empty where it depends on what the user runs. */
  model: z.string(),
  /** The variable the provider's own tools read the key from; absent for local servers. */
  keyEnv: z.string().optional(),
  /** Local servers (Ollama, LM Studio) take no key. */
  needsKey: z.boolean(),
  vision: z.boolean().default(false),
  contextWindow: z.number().int().optional(),
  /** Chat, or embedding (for knowledge bases). */
  kind: ModelKindSchema.default('chat'),
  /** The suggested model thinks before it answers (sent max_completion_tokens, no temperature). */
  reasoning: z.boolean().default(false),
});
export type ModelPreset = z.infer<typeof ModelPresetSchema>;

export const MODEL_PRESETS: readonly ModelPreset[] = (MODEL_PRESET_LIST satisfies readonly z.input<typeof ModelPresetSchema>[]).map((preset) => ModelPresetSchema.parse(preset));

export function findPreset(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((preset) => preset.id === id);
}
