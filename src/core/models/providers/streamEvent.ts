/**
 * What a model stream yields, in no vendor's terms. Failures are not events:
 * the stream throws a ProviderError (providerError.ts).
 *
 * - `text-delta`: the next piece of the answer.
 * - `reasoning-delta`: the next piece of what the model thinks before it
 *   answers (`source` says how it came, for sending it back the same way).
 * - `reasoning-replay`: one provider item to send back unchanged with this
 *   answer (an Anthropic thinking block and its signature, a Responses
 *   reasoning item with `encrypted_content`, an OpenRouter reasoning detail).
 * - `refusal-delta`: the model's words declining to answer.
 * - `tool-input-delta`: a piece of a tool call arrived (its arguments are
 *   gathered by the client; the event is for the timing of the answer).
 * - `tool-call`: one complete call, its arguments parsed to an object.
 * - `tool-call-malformed`: a call whose arguments are not a JSON object; the
 *   loop reports it to the model as the call's (error) result.
 * - `other-part`: a content part of a type the host does not show, as sent.
 * - `notice`: something the user should know about this answer (a part
 *   kept but not shown, ids the provider changed, what an SDK warned).
 * - `usage`: tokens of this request, once, before `done`.
 * - `finish-seen`: the provider said why the model stopped, as soon as it
 *   said it; a failure after it (an error event after the last token) still
 *   leaves the answer knowing it was cut at the token limit.
 * - `text-is-reasoning`: everything streamed as `text-delta` so far was the
 *   model's thinking (its chat template opened `<think>` itself, and the
 *   stream only closed it): it moves over to the reasoning.
 * - `done`: the model finished; nothing follows.
 */
/**
 * The provider's own reasoning items (signatures, encrypted reasoning) kept
 * per answer, as JSON characters: a client holds no more of them while they
 * stream, and the answer keeps no more (streamedAnswer.ts).
 */
export const MAX_REPLAY_CHARS = 2_000_000;

/** Characters of a provider's value as JSON, for the bounds; Infinity for one nested too deep to write (a depth bomb overflows JSON.stringify). */
export function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}

/** `pause`: the provider paused a long turn of its own server tools (Anthropic `pause_turn`); the turn goes on by sending the answer back. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'refusal' | 'pause' | 'other';

export type ReasoningSource = 'reasoning_content' | 'reasoning' | 'reasoning_details' | 'think-tags' | 'thinking-part' | 'anthropic' | 'responses';

/** What a provider attached to a call and wants back with it (Gemini's thought signature). */
type CallExtra = { extraContent?: Record<string, unknown> };

export type StreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string; source: ReasoningSource }
  | { type: 'reasoning-replay'; item: Record<string, unknown>; source: ReasoningSource }
  | { type: 'refusal-delta'; text: string }
  | { type: 'tool-input-delta' }
  | ({ type: 'tool-call'; id: string; name: string; argumentsText: string; args: Record<string, unknown> } & CallExtra)
  | ({ type: 'tool-call-malformed'; id: string; name: string; argumentsText: string; message: string } & CallExtra)
  | { type: 'other-part'; part: Record<string, unknown> }
  | { type: 'notice'; text: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number; reasoningTokens?: number }
  | { type: 'finish-seen'; finishReason: FinishReason }
  | { type: 'text-is-reasoning'; source: ReasoningSource }
  | { type: 'done'; finishReason: FinishReason; providerReason?: string };

/** A finished tool call as an event: `tool-call` when its arguments are a JSON object (empty text counts as `{}`), else `tool-call-malformed`. */
export function toolCallEvent(id: string, name: string, argumentsText: string, extra: CallExtra = {}): StreamEvent {
  const more = extra.extraContent ? { extraContent: extra.extraContent } : {};
  if (argumentsText.trim() === '') return { type: 'tool-call', id, name, argumentsText, args: {}, ...more };
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return { type: 'tool-call-malformed', id, name, argumentsText, message: `the arguments of ${name} are not valid JSON`, ...more };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { type: 'tool-call-malformed', id, name, argumentsText, message: `the arguments of ${name} must be a JSON object`, ...more };
  }
  return { type: 'tool-call', id, name, argumentsText, args: parsed as Record<string, unknown>, ...more };
}
