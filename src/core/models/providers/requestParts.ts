import type { ModelEntry, ReasoningEffort } from '../../../shared/models.js';
import { ModelRequestSchema, type ChatMessage, type ModelRequest, type ToolSpec } from './modelRequest.js';
import type { FinishReason } from './streamEvent.js';

/** A request with the entry's model and parameters filled in: what a client sends. */
export interface ResolvedRequest {
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  /** A reasoning model: its token limit goes as `max_completion_tokens` (or the API's own), and no temperature is sent. */
  reasoning?: { effort?: ReasoningEffort };
  /** The model rejected `max_tokens` by name (rejectedParams): the limit goes as `max_completion_tokens` in chat completions. */
  completionTokens?: true;
}

/**
 * The request's own parameters win over the entry's. A reasoning model is
 * sent no temperature (OpenAI's o-series and GPT-5 answer 400 "Unsupported
 * parameter: 'temperature'"; DeepSeek's thinking mode ignores it), nor is
 * a model whose provider rejected it by name; a model without tool calling
 * is offered no tools.
 */
export function resolveRequest(entry: ModelEntry, request: ModelRequest): ResolvedRequest {
  const parsed = ModelRequestSchema.parse(request);
  const rejected = new Set(entry.rejectedParams ?? []);
  const temperature = entry.reasoning || rejected.has('temperature') ? undefined : (parsed.params.temperature ?? entry.temperature);
  const maxTokens = parsed.params.maxTokens ?? entry.maxTokens;
  return {
    model: entry.model,
    system: parsed.system,
    messages: parsed.messages,
    tools: entry.tools === false ? [] : parsed.tools,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(entry.reasoning ? { reasoning: entry.reasoningEffort ? { effort: entry.reasoningEffort } : {} } : {}),
    ...(rejected.has('max_tokens') ? { completionTokens: true as const } : {}),
  };
}

/** Each API's word for why the model stopped. */
export function finishReasonOf(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
    case 'end_turn':
    case 'stop_sequence':
    case 'completed':
      return 'stop';
    case 'tool_calls':
    case 'tool_use':
    case 'function_call':
      return 'tool-calls';
    case 'length':
    case 'max_tokens':
    case 'max_output_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      return 'pause';
    default:
      return 'other';
  }
}
