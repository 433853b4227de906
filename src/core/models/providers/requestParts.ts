import type { ModelEntry } from '../../../shared/models.js';
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
}

/** The request's own parameters win over the entry's. */
export function resolveRequest(entry: ModelEntry, request: ModelRequest): ResolvedRequest {
  const parsed = ModelRequestSchema.parse(request);
  const temperature = parsed.params.temperature ?? entry.temperature;
  const maxTokens = parsed.params.maxTokens ?? entry.maxTokens;
  return {
    model: entry.model,
    system: parsed.system,
    messages: parsed.messages,
    tools: parsed.tools,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
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
      return 'length';
    case 'content_filter':
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}
