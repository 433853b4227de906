import { argumentPieces, callId, textPieces, usageOf, type ScriptedReply, type SseFrame } from './types.js';

/** OpenAI chat completions: `data: {choices:[{delta}]}` chunks, a usage chunk, then `data: [DONE]`. */
export function chatFrames(reply: ScriptedReply, model: string): SseFrame[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const chunk = (delta: object, finish: string | null = null) => ({ data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] } });
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
