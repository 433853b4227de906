import type OpenAI from 'openai';
import type { FunctionTool, ResponseFunctionCallOutputItem, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { incomplete, type StreamTranslator, type WireOptions } from './guardedStream.js';
import type { ChatMessage, ContentPart, ToolSpec } from './modelRequest.js';
import { finishReasonOf, type ResolvedRequest } from './requestParts.js';
import { errorFromEvent, type ErrorContext } from './providerError.js';
import { toolCallEvent, type StreamEvent } from './streamEvent.js';

/**
 * OpenAI's Responses API (`POST {baseURL}/responses`, streamed). Stateless
 * here (`store: false`): every request carries the whole history, as with
 * the other APIs, so nothing of a conversation is kept at the provider.
 */

const dataUrl = (image: Extract<ContentPart, { type: 'image' }>) => `data:${image.mimeType};base64,${image.data}`;

function outputItems(parts: readonly ContentPart[]): ResponseFunctionCallOutputItem[] {
  return parts.map((p) => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: dataUrl(p), detail: 'auto' }));
}

export function responsesInput(messages: readonly ChatMessage[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    switch (message.role) {
      case 'user':
        return [{ role: 'user', content: message.content.map((p) => (p.type === 'text' ? { type: 'input_text' as const, text: p.text } : { type: 'input_image' as const, image_url: dataUrl(p), detail: 'auto' as const })) }];
      case 'assistant':
        return [
          ...(message.text ? [{ role: 'assistant' as const, content: message.text }] : []),
          ...message.toolCalls.map((c) => ({ type: 'function_call' as const, call_id: c.id, name: c.name, arguments: c.argumentsText })),
        ];
      case 'tool':
        return [{ type: 'function_call_output', call_id: message.callId, output: message.content.every((p) => p.type === 'text') ? message.content.map((p) => (p as { text: string }).text).join('\n') : outputItems(message.content) }];
    }
  });
}

/** `strict: false`: schemas pass through as the server gave them (docs/rules/chat.md#tools-sent-to-a-model); strict mode would demand a narrower schema dialect. */
export const responsesTools = (tools: readonly ToolSpec[]): FunctionTool[] =>
  tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.inputSchema, strict: false }));

export function openStream(client: OpenAI, request: ResolvedRequest, options: WireOptions) {
  return client.responses.create(
    {
      model: request.model,
      input: responsesInput(request.messages),
      stream: true,
      store: false,
      ...(request.system ? { instructions: request.system } : {}),
      ...(request.tools.length ? { tools: responsesTools(request.tools) } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { max_output_tokens: request.maxTokens } : {}),
    },
    options,
  );
}

/** Text arrives as `response.output_text.delta`; a function call is taken whole from its `response.output_item.done`. */
export function responsesTranslator(context: ErrorContext): StreamTranslator<ResponseStreamEvent> {
  let toolCalls = 0;
  let finished: StreamEvent[] | undefined;
  let answerChars = 0;
  return {
    push(event) {
      switch (event.type) {
        case 'response.output_text.delta':
          answerChars += event.delta?.length ?? 0;
          return event.delta ? [{ type: 'text-delta', text: event.delta }] : [];
        // Reasoning is not kept, but it is part of the answer's length: an endless one is stopped too.
        case 'response.reasoning_text.delta':
        case 'response.reasoning_summary_text.delta':
          answerChars += event.delta.length;
          return [];
        case 'response.output_item.done': {
          const item = event.item;
          if (item.type !== 'function_call') return [];
          toolCalls++;
          answerChars += item.name.length + item.arguments.length;
          return [toolCallEvent(item.call_id, item.name, item.arguments)];
        }
        case 'response.completed':
        case 'response.incomplete': {
          const { usage, incomplete_details: details } = event.response;
          const raw = event.type === 'response.incomplete' ? (details?.reason ?? 'incomplete') : 'completed';
          finished = [
            ...(usage ? [{ type: 'usage' as const, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens }] : []),
            { type: 'done', finishReason: toolCalls && raw === 'completed' ? 'tool-calls' : finishReasonOf(raw), providerReason: raw },
          ];
          return [];
        }
        case 'response.failed':
          throw errorFromEvent(event.response.error ?? { code: 'server_error', message: 'the response failed' }, context);
        case 'error':
          throw errorFromEvent({ code: event.code ?? 'server_error', message: event.message }, context);
        default:
          return [];
      }
    },
    end() {
      if (!finished) throw incomplete();
      return finished;
    },
    answerChars: () => answerChars,
  };
}
