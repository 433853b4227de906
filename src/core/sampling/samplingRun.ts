import type { SamplingCompletion, SamplingMessage, SamplingPart } from '../../shared/sampling.js';
import type { ModelClient } from '../models/providers/modelClient.js';
import type { ChatMessage, ContentPart, ModelRequest } from '../models/providers/modelRequest.js';
import type { FinishReason } from '../models/providers/streamEvent.js';
import type { CheckedSampling } from './samplingParams.js';

/** How long the model may go without a token before the request fails (the chat's own default is longer: a person waits here). */
const SAMPLING_IDLE_TIMEOUT_MS = 2 * 60_000;

/** The spec's stop reasons for the provider's finish. */
const STOP_REASONS: Record<FinishReason, string> = {
  stop: 'endTurn',
  'tool-calls': 'toolUse',
  length: 'maxTokens',
  'content-filter': 'contentFilter',
  refusal: 'refusal',
  // A sampling request sends no server tools, so no turn of them to pause; said as what it is if a provider does.
  pause: 'pause_turn',
  other: 'other',
};

/**
 * The sampling messages in the chat's vendor-neutral terms: a user's text and
 * images as a user message, each tool result as a tool message (named after
 * the tool_use it answers), an assistant's text and tool uses as one answer.
 */
export function modelMessages(messages: readonly SamplingMessage[]): ChatMessage[] {
  const toolNames = new Map<string, string>();
  const out: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      const toolCalls = message.content.flatMap((part) => (part.type === 'tool_use' ? [{ id: part.id, name: part.name, argumentsText: JSON.stringify(part.input) }] : []));
      for (const call of toolCalls) toolNames.set(call.id, call.name);
      out.push({ role: 'assistant', text, toolCalls });
      continue;
    }
    let user: ContentPart[] = [];
    const flush = () => {
      if (user.length) out.push({ role: 'user', content: user });
      user = [];
    };
    for (const part of message.content) {
      if (part.type === 'text') user.push({ type: 'text', text: part.text });
      else if (part.type === 'image') user.push({ type: 'image', mimeType: part.mimeType, data: part.data });
      else if (part.type === 'tool_result') {
        flush();
        out.push({ role: 'tool', callId: part.toolUseId, name: toolNames.get(part.toolUseId) ?? 'tool', content: [{ type: 'text', text: part.text }], isError: part.isError });
      }
    }
    flush();
  }
  return out;
}

/** The request the provider gets: the (edited) system prompt and messages, the server's tools, the clamped token count. */
export function modelRequestOf(request: CheckedSampling): ModelRequest {
  return {
    system: request.systemPrompt,
    messages: modelMessages(request.messages),
    tools: request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
    params: { maxTokens: request.maxTokens, ...(request.temperature === undefined ? {} : { temperature: request.temperature }) },
  };
}

/**
 * One request to the model through the chat's provider code (the same
 * client, real HTTP): its text and tool uses gathered into the completion
 * the user reviews. A provider failure is thrown (a ProviderError).
 */
export async function runSampling(client: ModelClient, request: CheckedSampling, signal: AbortSignal): Promise<SamplingCompletion> {
  let text = '';
  const toolUses: SamplingPart[] = [];
  let usage: SamplingCompletion['usage'];
  let finish: FinishReason = 'other';
  for await (const event of client.stream(modelRequestOf(request), { signal, idleTimeoutMs: SAMPLING_IDLE_TIMEOUT_MS })) {
    if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'tool-call') toolUses.push({ type: 'tool_use', id: event.id, name: event.name, input: event.args });
    else if (event.type === 'tool-call-malformed') text += `\n[${event.message}]`;
    else if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    else if (event.type === 'done') finish = event.finishReason;
  }
  const content: SamplingPart[] = [...(text || toolUses.length === 0 ? [{ type: 'text' as const, text }] : []), ...toolUses];
  return { model: client.model, stopReason: toolUses.length ? 'toolUse' : STOP_REASONS[finish], content, ...(usage ? { usage } : {}) };
}

/**
 * The spec's CreateMessageResult: one content block when the request had no
 * tools (the older result shape every server reads), else the list of blocks
 * with the tool uses (`stopReason: "toolUse"`).
 */
export function createMessageResult(completion: SamplingCompletion, withTools: boolean): Record<string, unknown> {
  const blocks = completion.content.map((part) => (part.type === 'tool_result' ? { type: 'tool_result', toolUseId: part.toolUseId, content: [{ type: 'text', text: part.text }] } : part));
  return { role: 'assistant', model: completion.model, stopReason: completion.stopReason, content: withTools ? blocks : (blocks[0] ?? { type: 'text', text: '' }) };
}
