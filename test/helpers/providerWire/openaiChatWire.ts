import { argumentPieces, callId, textPieces, usageOf, type ScriptedReply, type SseFrame } from './types.js';

const chunkBase = (model: string) => ({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model });

/** One chat completions chunk carrying `delta` (e.g. `{ content }`, `{ tool_calls }`), for tests that write their own frames. */
export const chatChunk = (delta: object, finish: string | null = null, model = 'test-model'): SseFrame => ({ data: { ...chunkBase(model), choices: [{ index: 0, delta, finish_reason: finish }] } });

/** OpenAI chat completions: `data: {choices:[{delta}]}` chunks, a usage chunk, then `data: [DONE]`. */
export function chatFrames(reply: ScriptedReply, model: string): SseFrame[] {
  const base = chunkBase(model);
  const chunk = (delta: object, finish: string | null = null) => chatChunk(delta, finish, model);
  const frames: SseFrame[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of textPieces(reply.text)) frames.push(chunk({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: callId(call, index), type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of argumentPieces(call)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const finish = reply.finish ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  frames.push(chunk({}, finish));
  const usage = usageOf(reply);
  frames.push({ data: { ...base, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } } });
  frames.push({ data: '[DONE]' });
  return frames;
}

export const openaiErrorBody = (message: string, type: string, param?: string) => ({ error: { message, type, param: param ?? null, code: type } });

/**
 * A chat completions answer of `total` characters of text, or (`into:
 * 'arguments'`) of one `mcp_chat_echo` call's arguments after the text
 * "Writing.", sent in pieces of `piece` and made only as the client reads
 * on (a provider that streams more than memory holds); `made.chars` counts
 * what was made.
 */
export function* endlessChatAnswer(total: number, options: { piece: string; into?: 'text' | 'arguments'; made?: { chars: number } }): Generator<SseFrame> {
  const { piece, into = 'text', made = { chars: 0 } } = options;
  yield chatChunk({ role: 'assistant', content: '' });
  if (into === 'arguments') {
    yield chatChunk({ content: 'Writing.' });
    yield chatChunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'mcp_chat_echo', arguments: '{"text":"' } }] });
  }
  while (made.chars < total) {
    made.chars += piece.length;
    yield chatChunk(into === 'text' ? { content: piece } : { tool_calls: [{ index: 0, function: { arguments: piece } }] });
  }
  yield chatChunk({}, into === 'text' ? 'stop' : 'tool_calls');
  yield { data: '[DONE]' };
}
