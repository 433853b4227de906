import { argumentPieces, argumentsText, callId, textPieces, usageOf, type ScriptedReply, type SseFrame } from './types.js';

/**
 * OpenAI Responses: named events (`response.created`, `response.output_text.delta`,
 * `response.function_call_arguments.delta`, `response.output_item.done`, …,
 * `response.completed` with usage), each with a `sequence_number`.
 */
export function responsesFrames(reply: ScriptedReply, model: string): SseFrame[] {
  const frames: SseFrame[] = [];
  const emit = (type: string, data: object) => frames.push({ event: type, data: { type, sequence_number: frames.length, ...data } });
  const response = { id: 'resp_test', object: 'response', created_at: 1_700_000_000, model, output: [] as object[], status: 'in_progress' };
  emit('response.created', { response });
  const output: object[] = [];
  const pieces = textPieces(reply.text);
  if (pieces.length) {
    const item = { id: 'msg_test', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
    emit('response.output_item.added', { output_index: output.length, item });
    emit('response.content_part.added', { item_id: item.id, output_index: output.length, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of pieces) emit('response.output_text.delta', { item_id: item.id, output_index: output.length, content_index: 0, delta, logprobs: [] });
    const text = pieces.join('');
    emit('response.output_text.done', { item_id: item.id, output_index: output.length, content_index: 0, text, logprobs: [] });
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    emit('response.output_item.done', { output_index: output.length, item: done });
    output.push(done);
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    const item = {
      id: `fc_${index + 1}`,
      type: 'function_call',
      call_id: callId(call, index),
      ...(call.namespace ? { namespace: call.namespace } : {}),
      name: call.name,
      arguments: '',
      status: 'in_progress',
    };
    const outputIndex = output.length;
    emit('response.output_item.added', { output_index: outputIndex, item });
    for (const delta of argumentPieces(call)) emit('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
    emit('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: argumentsText(call) });
    const done = { ...item, arguments: argumentsText(call), status: 'completed' };
    emit('response.output_item.done', { output_index: outputIndex, item: done });
    output.push(done);
  });
  const { input, output: outputTokens } = usageOf(reply);
  const usage = { input_tokens: input, output_tokens: outputTokens, total_tokens: input + outputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  if (reply.finish === 'length') emit('response.incomplete', { response: { ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output, usage } });
  else emit('response.completed', { response: { ...response, status: 'completed', output, usage } });
  return frames;
}
