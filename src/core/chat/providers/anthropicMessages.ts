import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, ImageBlockParam, MessageParam, RawMessageStreamEvent, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import { incomplete, type StreamTranslator, type WireOptions } from './guardedStream.js';
import type { ChatMessage, ContentPart, ToolSpec } from './modelRequest.js';
import { finishReasonOf, type ResolvedRequest } from './requestParts.js';
import { toolCallEvent, type StreamEvent } from './streamEvent.js';

/**
 * Anthropic Messages (`POST {baseURL}/v1/messages`, streamed). Roles must
 * alternate, so neighbours of one role merge into one message, and tool
 * results travel in a user message as `tool_result` blocks (with images).
 */

/** Anthropic requires max_tokens; this is used when neither the entry nor the request sets one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

const block = (part: ContentPart): TextBlockParam | ImageBlockParam =>
  part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } };

/** The arguments as an object for `tool_use.input`; a call the model sent malformed is replayed as `{}`. */
function inputOf(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function anthropicMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (!blocks.length) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append('user', message.content.map(block));
        break;
      case 'assistant':
        append('assistant', [
          ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
          ...message.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: inputOf(c.argumentsText) })),
        ]);
        break;
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.callId, content: message.content.map(block), ...(message.isError ? { is_error: true } : {}) }]);
        break;
    }
  }
  return out;
}

export const anthropicTools = (tools: readonly ToolSpec[]): Tool[] =>
  tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool['input_schema'] }));

export function openStream(client: Anthropic, request: ResolvedRequest, options: WireOptions) {
  return client.messages.create(
    {
      model: request.model,
      messages: anthropicMessages(request.messages),
      max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      stream: true,
      ...(request.system ? { system: request.system } : {}),
      ...(request.tools.length ? { tools: anthropicTools(request.tools) } : {}),
      ...(request.temperature !== undefined ? { temperature: Math.min(1, request.temperature) } : {}),
    },
    options,
  );
}

/** A `tool_use` block's input arrives as `input_json_delta` pieces between its start and stop. */
export function anthropicTranslator(): StreamTranslator<RawMessageStreamEvent> {
  const tools = new Map<number, { id: string; name: string; json: string; initial: unknown }>();
  let inputTokens = 0;
  let outputTokens = 0;
  let stopReason: string | undefined;
  let stopped = false;
  let answerChars = 0;
  return {
    push(event) {
      switch (event.type) {
        case 'message_start':
          inputTokens = event.message.usage?.input_tokens ?? 0;
          outputTokens = event.message.usage?.output_tokens ?? 0;
          return [];
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '', initial: event.content_block.input });
            answerChars += event.content_block.name.length;
          }
          return [];
        case 'content_block_delta': {
          const delta = event.delta;
          if (delta.type === 'text_delta') {
            answerChars += delta.text.length;
            return delta.text ? [{ type: 'text-delta', text: delta.text }] : [];
          }
          // Thinking is not kept, but it is part of the answer's length: an endless one is stopped too.
          if (delta.type === 'thinking_delta') answerChars += delta.thinking.length;
          if (delta.type === 'input_json_delta') {
            const tool = tools.get(event.index);
            if (tool) {
              tool.json += delta.partial_json;
              answerChars += delta.partial_json.length;
            }
          }
          return [];
        }
        case 'content_block_stop': {
          const tool = tools.get(event.index);
          if (!tool) return [];
          const initial = tool.initial !== null && typeof tool.initial === 'object' && Object.keys(tool.initial).length ? JSON.stringify(tool.initial) : '';
          return [toolCallEvent(tool.id, tool.name, tool.json || initial)];
        }
        case 'message_delta':
          stopReason = event.delta.stop_reason ?? stopReason;
          if (event.usage?.output_tokens != null) outputTokens = event.usage.output_tokens;
          if (event.usage?.input_tokens != null) inputTokens = event.usage.input_tokens;
          return [];
        case 'message_stop':
          stopped = true;
          return [];
        default:
          return [];
      }
    },
    end() {
      if (!stopped) throw incomplete();
      const events: StreamEvent[] = [{ type: 'usage', inputTokens, outputTokens }];
      events.push({ type: 'done', finishReason: finishReasonOf(stopReason), ...(stopReason ? { providerReason: stopReason } : {}) });
      return events;
    },
    answerChars: () => answerChars,
  };
}
