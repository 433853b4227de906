import { findPreset, MODEL_PRESETS } from '../shared/modelPresets.js';
import type { ModelEntryInput } from '../shared/models.js';
import { UsageError } from './output.js';

/** `chatos models add` options as commander gives them. */
export interface AddOptions {
  api?: string;
  baseUrl?: string;
  model?: string;
  name?: string;
  apiKeyEnv?: string;
  apiKeyStdin?: boolean;
  vision?: boolean;
  temperature?: string;
  maxTokens?: string;
  contextWindow?: string;
  maxTools?: string;
  preset?: string;
  kind?: string;
  /** --reasoning true, --no-reasoning false, neither: guessed from the model name. */
  reasoning?: boolean;
  reasoningEffort?: string;
  /** commander's --no-tools: false when given. */
  tools?: boolean;
}

/** Which option a field of the entry comes from, so a schema error names what the user typed. */
export const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  id: 'ID',
  name: '--name',
  api: '--api',
  baseUrl: '--base-url',
  model: '--model',
  temperature: '--temperature',
  maxTokens: '--max-tokens',
  contextWindow: '--context-window',
  maxTools: '--max-tools',
  kind: '--kind',
  reasoningEffort: '--reasoning-effort',
  'key.name': '--api-key-env',
  apiKey: '--api-key-stdin',
};

function number(option: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!text.trim() || !Number.isFinite(value) || (integer && !Number.isInteger(value))) throw new UsageError(`${option} must be ${integer ? 'a whole number' : 'a number'}, not "${text}"`);
  return value;
}

/**
 * The entry `add` would create: the preset's values (if any), then the
 * options given. Without a preset, --api, --base-url and --model are needed.
 * The key: --api-key-stdin stores one; --api-key-env names a variable;
 * neither takes the preset's usual variable, or no key.
 */
export function entryFromOptions(id: string, options: AddOptions): ModelEntryInput {
  if (options.apiKeyEnv !== undefined && options.apiKeyStdin) throw new UsageError('give either --api-key-env VAR or --api-key-stdin, not both');
  const preset = options.preset === undefined ? undefined : findPreset(options.preset);
  if (options.preset !== undefined && !preset) throw new UsageError(`no preset "${options.preset}"; one of: ${MODEL_PRESETS.map((p) => p.id).join(', ')}`);
  const api = options.api ?? preset?.api;
  const baseUrl = options.baseUrl ?? (preset?.baseUrl || undefined);
  const model = options.model ?? (preset?.model || undefined);
  const missing = [api === undefined ? '--api openai|openai-responses|anthropic' : '', baseUrl === undefined ? '--base-url URL' : '', model === undefined ? '--model NAME' : ''].filter(Boolean);
  if (missing.length)
    throw new UsageError(
      `missing ${missing.join(', ')}${preset ? ` (preset ${preset.id} does not fill ${missing.length === 1 ? 'it' : 'them'})` : ' (or start from a preset: --preset ' + MODEL_PRESETS.map((p) => p.id).join('|') + ')'}`,
    );
  const envName = options.apiKeyEnv ?? (options.apiKeyStdin ? undefined : preset?.keyEnv);
  const optional = {
    temperature: number('--temperature', options.temperature, false),
    maxTokens: number('--max-tokens', options.maxTokens, true),
    contextWindow: number('--context-window', options.contextWindow, true) ?? preset?.contextWindow,
    maxTools: number('--max-tools', options.maxTools, true),
  };
  return {
    id,
    name: options.name ?? (preset && preset.id !== 'openai-compatible' ? `${preset.name} ${model}` : id),
    api: api as ModelEntryInput['api'],
    baseUrl: baseUrl!,
    model: model!,
    vision: options.vision ?? preset?.vision ?? false,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    ...((options.kind ?? preset?.kind) !== undefined ? { kind: (options.kind ?? preset?.kind) as ModelEntryInput['kind'] } : {}),
    ...(options.reasoning === false ? { reasoning: false } : options.reasoning || preset?.reasoning ? { reasoning: true } : {}),
    ...(options.reasoningEffort !== undefined ? { reasoningEffort: options.reasoningEffort as ModelEntryInput['reasoningEffort'] } : {}),
    ...(options.tools === false ? { tools: false } : {}),
    key: options.apiKeyStdin ? { kind: 'stored' } : envName ? { kind: 'env', name: envName } : { kind: 'none' },
  };
}
