import type OpenAI from 'openai';
import type { ChatCompletionAssistantMessageParam, ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { WireOptions } from './guardedStream.js';
import type { ChatMessage, ContentPart, ToolSpec } from './modelRequest.js';
import type { ResolvedRequest } from './requestParts.js';

/**
 * OpenAI chat completions (`POST {baseURL}/chat/completions`, streamed), the
 * API most OpenAI-compatible servers speak (DeepSeek, OpenRouter, DashScope,
 * Ollama, LM Studio).
 */

const textOf = (parts: readonly ContentPart[]) => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imagesOf = (parts: readonly ContentPart[]) => parts.flatMap((p) => (p.type === 'image' ? [p] : []));
const imagePart = (image: Extract<ContentPart, { type: 'image' }>): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });

/**
 * The assistant messages of a user's turn that used tools. DeepSeek's
 * thinking mode requires the `reasoning_content` of every answer in such a
 * turn back, in every later request (400 "The reasoning_content in the
 * thinking mode must be passed back to the API" otherwise), and ignores it
 * elsewhere: https://api-docs.deepseek.com/guides/thinking_mode.
 */
function inToolTurns(messages: readonly ChatMessage[]): Set<ChatMessage> {
  const marked = new Set<ChatMessage>();
  let turn: ChatMessage[] = [];
  let tools = false;
  const close = () => {
    if (tools) for (const m of turn) marked.add(m);
    turn = [];
    tools = false;
  };
  for (const message of messages) {
    if (message.role === 'user') close();
    else if (message.role === 'assistant') {
      turn.push(message);
      tools ||= message.toolCalls.length > 0;
    }
  }
  close();
  return marked;
}

type AssistantParam = ChatCompletionAssistantMessageParam & { reasoning_content?: string; reasoning_details?: Record<string, unknown>[] };

/** An earlier answer as sent back: its calls with what the provider attached to them, and its reasoning where the provider requires it. */
function assistantParam(message: Extract<ChatMessage, { role: 'assistant' }>, toolTurn: boolean): AssistantParam {
  const param: AssistantParam = {
    role: 'assistant',
    content: message.text || null,
    ...(message.toolCalls.length
      ? {
          tool_calls: message.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.argumentsText },
            ...(c.extraContent ? { extra_content: c.extraContent } : {}),
          })),
        }
      : {}),
  };
  const { reasoning } = message;
  if (reasoning && toolTurn) {
    if (reasoning.source === 'reasoning_content') param.reasoning_content = reasoning.text;
    const details = reasoning.replay.filter((item) => typeof item.type === 'string' && item.type.startsWith('reasoning.'));
    if (details.length) param.reasoning_details = details;
  }
  return param;
}

/**
 * A `tool` message holds text only in this API, so a result's images follow
 * the run of tool messages as one user message (tool messages must come
 * right after the assistant message that made the calls).
 */
export function openaiChatMessages(system: string, messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  const toolTurns = inToolTurns(messages);
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
        out.push({
          role: 'user',
          content: imagesOf(message.content).length ? message.content.map((p) => (p.type === 'text' ? { type: 'text' as const, text: p.text } : imagePart(p))) : textOf(message.content),
        });
        break;
      case 'assistant':
        out.push(assistantParam(message, toolTurns.has(message)));
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
      // Reasoning models take their limit as max_completion_tokens (it counts the thinking) and reject max_tokens.
      ...(request.maxTokens !== undefined ? (request.reasoning || request.completionTokens ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }) : {}),
      ...(request.reasoning?.effort ? { reasoning_effort: request.reasoning.effort } : {}),
    },
    { signal: options.signal, timeout: options.timeout },
  );
}
