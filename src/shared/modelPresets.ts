import { z } from 'zod';
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

export const MODEL_PRESETS: readonly ModelPreset[] = (
  [
    {
      id: 'openai',
      name: 'OpenAI',
      api: 'openai-responses',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      keyEnv: 'OPENAI_API_KEY',
      needsKey: true,
      vision: true,
      contextWindow: 1_047_576,
    },
    {
      id: 'anthropic',
      name: 'Anthropic',
      api: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-6',
      keyEnv: 'ANTHROPIC_API_KEY',
      needsKey: true,
      vision: true,
      contextWindow: 200_000,
    },
    {
      id: 'deepseek',
      name: 'DeepSeek',
      api: 'openai',
      baseUrl: 'https://api.deepseek.com/v1',
      model: 'deepseek-chat',
      keyEnv: 'DEEPSEEK_API_KEY',
      needsKey: true,
      vision: false,
      contextWindow: 128_000,
    },
    { id: 'openrouter', name: 'OpenRouter', api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4.1-mini', keyEnv: 'OPENROUTER_API_KEY', needsKey: true, vision: true },
    {
      id: 'qwen',
      name: 'Qwen (DashScope)',
      api: 'openai',
      baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-plus',
      keyEnv: 'DASHSCOPE_API_KEY',
      needsKey: true,
      vision: false,
      contextWindow: 131_072,
    },
    { id: 'ollama', name: 'Ollama', api: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.2', needsKey: false, vision: false },
    { id: 'lmstudio', name: 'LM Studio', api: 'openai', baseUrl: 'http://localhost:1234/v1', model: '', needsKey: false, vision: false },
    { id: 'openai-compatible', name: 'Any OpenAI-compatible URL', api: 'openai', baseUrl: '', model: '', needsKey: false, vision: false },
    {
      id: 'deepseek-reasoner',
      name: 'DeepSeek (thinking)',
      api: 'openai',
      baseUrl: 'https://api.deepseek.com/v1',
      model: 'deepseek-reasoner',
      keyEnv: 'DEEPSEEK_API_KEY',
      needsKey: true,
      vision: false,
      contextWindow: 128_000,
      reasoning: true,
    },
    {
      id: 'openai-embedding',
      name: 'OpenAI embeddings',
      api: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      keyEnv: 'OPENAI_API_KEY',
      needsKey: true,
      vision: false,
      kind: 'embedding',
    },
    { id: 'ollama-embedding', name: 'Ollama embeddings', api: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', needsKey: false, vision: false, kind: 'embedding' },
  ] satisfies z.input<typeof ModelPresetSchema>[]
).map((preset) => ModelPresetSchema.parse(preset));

export function findPreset(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((preset) => preset.id === id);
}
