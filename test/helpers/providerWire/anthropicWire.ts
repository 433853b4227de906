import { argumentPieces, callId, textPieces, usageOf, type ScriptedReply, type SseFrame } from './types.js';

/**
 * Anthropic Messages: `message_start`, per block `content_block_start` /
 * `content_block_delta` (text_delta, input_json_delta) / `content_block_stop`,
 * `message_delta` with the stop reason and usage, `message_stop`.
 */
export function anthropicFrames(reply: ScriptedReply, model: string): SseFrame[] {
  const frames: SseFrame[] = [];
  const emit = (type: string, data: object) => frames.push({ event: type, data: { type, ...data } });
  const usage = usageOf(reply);
  emit('message_start', {
    message: { id: 'msg_test', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: 1 } },
  });
  let index = 0;
  const pieces = textPieces(reply.text);
  if (pieces.length) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    emit('ping', {});
    for (const text of pieces) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    emit('content_block_start', { index, content_block: { type: 'tool_use', id: callId(call, i), name: call.name, input: {} } });
    for (const partial_json of argumentPieces(call)) emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    emit('content_block_stop', { index });
    index++;
  });
  const stopReason = reply.finish === 'length' ? 'max_tokens' : reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  emit('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } });
  emit('message_stop', {});
  return frames;
}

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const anthropicErrorBody = (status: number, message: string, type?: string) => ({
  type: 'error',
  error: { type: type ?? TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
});
