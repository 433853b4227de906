import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { incomplete, type StreamTranslator, type WireOptions } from './guardedStream.js';
import type { ChatMessage, ContentPart, ToolSpec } from './modelRequest.js';
import { finishReasonOf, type ResolvedRequest } from './requestParts.js';
import { toolCallEvent, type StreamEvent } from './streamEvent.js';

/**
 * OpenAI chat completions (`POST {baseURL}/chat/completions`, streamed), the
 * API most OpenAI-compatible servers speak (DeepSeek, OpenRouter, DashScope,
 * Ollama, LM Studio).
 */

const textOf = (parts: readonly ContentPart[]) => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imagesOf = (parts: readonly ContentPart[]) => parts.flatMap((p) => (p.type === 'image' ? [p] : []));
const imagePart = (image: Extract<ContentPart, { type: 'image' }>): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });

/**
 * A `tool` message holds text only in this API, so a result's images follow
 * the run of tool messages as one user message (tool messages must come
 * right after the assistant message that made the calls).
 */
export function openaiChatMessages(system: string, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length) out.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages] });
    pendingImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushImages();
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: imagesOf(message.content).length ? message.content.map((p) => (p.type === 'text' ? { type: 'text' as const, text: p.text } : imagePart(p))) : textOf(message.content) });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: message.text || null,
          ...(message.toolCalls.length ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.argumentsText } })) } : {}),
        });
        break;
      case 'tool': {
        const images = imagesOf(message.content);
        const note = images.length ? `\n[${images.length} image(s) attached in the next message]` : '';
        out.push({ role: 'tool', tool_call_id: message.callId, content: `${textOf(message.content)}${note}` });
        pendingImages.push(...images.map(imagePart));
        break;
      }
    }
  }
  flushImages();
  return out;
}

export const openaiChatTools = (tools: readonly ToolSpec[]): ChatCompletionTool[] =>
  tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));

export function openStream(client: OpenAI, request: ResolvedRequest, options: WireOptions) {
  return client.chat.completions.create(
    {
      model: request.model,
      messages: openaiChatMessages(request.system, request.messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools.length ? { tools: openaiChatTools(request.tools) } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    },
    options,
  );
}

/** Reasoning some compatible servers stream beside the text (DeepSeek's `reasoning_content`, OpenRouter's `reasoning`): not kept, but counted toward the answer's length. */
function reasoningLength(delta: object | undefined): number {
  const { reasoning_content: content, reasoning } = (delta ?? {}) as { reasoning_content?: unknown; reasoning?: unknown };
  return (typeof content === 'string' ? content.length : 0) + (typeof reasoning === 'string' ? reasoning.length : 0);
}

/** Tool calls arrive in pieces keyed by `index`: the id and name first, the arguments split over many deltas. */
export function openaiChatTranslator(): StreamTranslator<ChatCompletionChunk> {
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let finish: string | undefined;
  let usage: StreamEvent | undefined;
  let answerChars = 0;
  return {
    push(chunk) {
      const events: StreamEvent[] = [];
      if (chunk.usage) usage = { type: 'usage', inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
      for (const choice of chunk.choices ?? []) {
        if (choice.index !== 0) continue;
        const delta = choice.delta;
        if (delta?.content) {
          events.push({ type: 'text-delta', text: delta.content });
          answerChars += delta.content.length;
        }
        answerChars += reasoningLength(delta);
        for (const part of delta?.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: '', name: '', args: '' };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.args += part.function.arguments;
          answerChars += (part.function?.name?.length ?? 0) + (part.function?.arguments?.length ?? 0);
          calls.set(part.index, call);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      return events;
    },
    end() {
      if (finish === undefined) throw incomplete();
      const events: StreamEvent[] = [...calls.entries()].sort(([a], [b]) => a - b).map(([index, c]) => toolCallEvent(c.id || `call_${index}`, c.name, c.args));
      if (usage) events.push(usage);
      events.push({ type: 'done', finishReason: calls.size ? 'tool-calls' : finishReasonOf(finish), providerReason: finish });
      return events;
    },
    answerChars: () => answerChars,
  };
}
