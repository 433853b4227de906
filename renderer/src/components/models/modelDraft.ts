import type { ModelPreset } from '../../../../src/shared/modelPresets';
import type { ApiKind, ModelKind, ModelView, ReasoningEffort } from '../../../../src/shared/models';

/** The editor's values: an entry's fields flattened for the form, and the key typed (never one read back). */
export interface ModelDraft {
  preset?: string;
  id?: string;
  name: string;
  api: ApiKind;
  baseUrl: string;
  model: string;
  vision: boolean;
  kind: ModelKind;
  reasoning: boolean;
  /** Empty: the provider's default. */
  reasoningEffort?: ReasoningEffort | '';
  tools: boolean;
  temperature?: number | null;
  maxTokens?: number | null;
  contextWindow?: number | null;
  maxTools?: number | null;
  priceInput?: number | null;
  priceOutput?: number | null;
  keyKind: 'none' | 'env' | 'stored';
  keyEnv?: string;
  apiKey?: string;
}

export const EMPTY_DRAFT: ModelDraft = { name: '', api: 'openai', baseUrl: '', model: '', vision: false, kind: 'chat', reasoning: false, reasoningEffort: '', tools: true, keyKind: 'none' };

export function draftFromPreset(preset: ModelPreset, current: ModelDraft): ModelDraft {
  return {
    ...current,
    preset: preset.id,
    name: preset.model ? `${preset.name} ${preset.model}` : current.name,
    api: preset.api,
    baseUrl: preset.baseUrl,
    model: preset.model,
    vision: preset.vision,
    kind: preset.kind,
    reasoning: preset.reasoning,
    contextWindow: preset.contextWindow ?? null,
    // A key pasted here is the usual way in the app; the preset's variable is kept for "environment variable".
    keyKind: preset.needsKey ? 'stored' : 'none',
    ...(preset.keyEnv ? { keyEnv: preset.keyEnv } : {}),
  };
}

export function draftFromModel(model: ModelView): ModelDraft {
  return {
    id: model.id,
    name: model.name,
    api: model.api,
    baseUrl: model.baseUrl,
    model: model.model,
    vision: model.vision,
    kind: model.kind ?? 'chat',
    reasoning: model.reasoning === true,
    reasoningEffort: model.reasoningEffort ?? '',
    tools: model.tools !== false,
    temperature: model.temperature ?? null,
    maxTokens: model.maxTokens ?? null,
    contextWindow: model.contextWindow ?? null,
    maxTools: model.maxTools ?? null,
    priceInput: model.prices?.input ?? null,
    priceOutput: model.prices?.output ?? null,
    keyKind: model.key.kind,
    ...(model.key.kind === 'env' ? { keyEnv: model.key.name } : {}),
  };
}

const present = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** What `models.save` gets: the entry as JSON, and the key only when one was typed. */
export function saveParams(draft: ModelDraft, creating: boolean): { model: Record<string, unknown>; apiKey?: string } {
  const model: Record<string, unknown> = {
    name: draft.name?.trim() ?? '',
    api: draft.api,
    baseUrl: draft.baseUrl?.trim() ?? '',
    model: draft.model?.trim() ?? '',
    vision: !!draft.vision,
    kind: draft.kind ?? 'chat',
  };
  if (draft.reasoning) model.reasoning = true;
  if (draft.reasoning && draft.reasoningEffort) model.reasoningEffort = draft.reasoningEffort;
  if (draft.tools === false) model.tools = false;
  if (creating && draft.id?.trim()) model.id = draft.id.trim();
  for (const field of ['temperature', 'maxTokens', 'contextWindow', 'maxTools'] as const) if (present(draft[field])) model[field] = draft[field];
  if (present(draft.priceInput) || present(draft.priceOutput)) model.prices = { input: draft.priceInput ?? 0, output: draft.priceOutput ?? 0 };
  model.key = draft.keyKind === 'env' ? { kind: 'env', name: draft.keyEnv?.trim() ?? '' } : { kind: draft.keyKind };
  const apiKey = draft.keyKind === 'stored' ? draft.apiKey?.trim() : undefined;
  return apiKey ? { model, apiKey } : { model };
}

/** The form field a host error's path belongs to (`key.name` → keyEnv, `prices.input` → priceInput). */
export function formFieldOfModelPath(path: string): keyof ModelDraft | undefined {
  const fields: Record<string, keyof ModelDraft> = { 'key.name': 'keyEnv', 'prices.input': 'priceInput', 'prices.output': 'priceOutput', apiKey: 'apiKey' };
  if (Object.hasOwn(fields, path)) return fields[path];
  const known: (keyof ModelDraft)[] = ['id', 'name', 'api', 'baseUrl', 'model', 'kind', 'reasoningEffort', 'temperature', 'maxTokens', 'contextWindow', 'maxTools'];
  return known.find((field) => field === path);
}
