/**
 * What a model stream yields, in no vendor's terms. Failures are not events:
 * the stream throws a ProviderError (providerError.ts).
 *
 * - `text-delta`: the next piece of the answer.
 * - `tool-call`: one complete call, its arguments parsed to an object.
 * - `tool-call-malformed`: a call whose arguments are not a JSON object; the
 *   loop reports it to the model as the call's (error) result.
 * - `usage`: tokens of this request, once, before `done`.
 * - `done`: the model finished; nothing follows.
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

export type StreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; argumentsText: string; args: Record<string, unknown> }
  | { type: 'tool-call-malformed'; id: string; name: string; argumentsText: string; message: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'done'; finishReason: FinishReason; providerReason?: string };

/** A finished tool call as an event: `tool-call` when its arguments are a JSON object (empty text counts as `{}`), else `tool-call-malformed`. */
export function toolCallEvent(id: string, name: string, argumentsText: string): StreamEvent {
  if (argumentsText.trim() === '') return { type: 'tool-call', id, name, argumentsText, args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return { type: 'tool-call-malformed', id, name, argumentsText, message: `the arguments of ${name} are not valid JSON` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { type: 'tool-call-malformed', id, name, argumentsText, message: `the arguments of ${name} must be a JSON object` };
  }
  return { type: 'tool-call', id, name, argumentsText, args: parsed as Record<string, unknown> };
}
