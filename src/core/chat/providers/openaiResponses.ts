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
 * A reasoning model's reasoning items can then only go back with their
 * `encrypted_content` (asked for with `include`): an item sent by id alone
 * is "not found" when nothing is stored, so those are not sent back.
 */

const dataUrl = (image: Extract<ContentPart, { type: 'image' }>) => `data:${image.mimeType};base64,${image.data}`;

function outputItems(parts: readonly ContentPart[]): ResponseFunctionCallOutputItem[] {
  return parts.map((p) => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: dataUrl(p), detail: 'auto' }));
}

/** An earlier answer's reasoning items that can go back without server state (only ever given for the same model entry). */
function reasoningItems(message: Extract<ChatMessage, { role: 'assistant' }>): ResponseInputItem[] {
  return (message.reasoning?.replay ?? []).flatMap((item): ResponseInputItem[] =>
    item.type === 'reasoning' && typeof item.encrypted_content === 'string' && item.encrypted_content
      ? [{ type: 'reasoning', id: String(item.id), summary: Array.isArray(item.summary) ? (item.summary as { type: 'summary_text'; text: string }[]) : [], encrypted_content: item.encrypted_content }]
      : [],
  );
}

export function responsesInput(messages: readonly ChatMessage[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    switch (message.role) {
      case 'user':
        return [
          {
            role: 'user',
            content: message.content.map((p) => (p.type === 'text' ? { type: 'input_text' as const, text: p.text } : { type: 'input_image' as const, image_url: dataUrl(p), detail: 'auto' as const })),
          },
        ];
      case 'assistant':
        return [
          ...reasoningItems(message),
          ...(message.text ? [{ role: 'assistant' as const, content: message.text }] : []),
          ...message.toolCalls.map((c) => ({ type: 'function_call' as const, call_id: c.id, name: c.name, arguments: c.argumentsText })),
        ];
      case 'tool':
        return [
          {
            type: 'function_call_output',
            call_id: message.callId,
            output: message.content.every((p) => p.type === 'text') ? message.content.map((p) => (p as { text: string }).text).join('\n') : outputItems(message.content),
          },
        ];
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
      // A reasoning model streams summaries of its thinking, and returns it encrypted for the next request.
      ...(request.reasoning
        ? { reasoning: { summary: 'auto' as const, ...(request.reasoning.effort ? { effort: request.reasoning.effort } : {}) }, include: ['reasoning.encrypted_content' as const] }
        : {}),
    },
    { signal: options.signal, timeout: options.timeout },
  );
}

/** A `response.failed` or `error` event's error, in either shape the API sends (`{ error: { code, message } }` or `{ code, message }`). */
function streamError(event: { error?: unknown; code?: unknown; message?: unknown }): { code: string; message: string } {
  const inner = event.error !== null && typeof event.error === 'object' ? (event.error as { code?: unknown; type?: unknown; message?: unknown }) : event;
  const code = typeof inner.code === 'string' ? inner.code : typeof (inner as { type?: unknown }).type === 'string' ? String((inner as { type?: unknown }).type) : 'server_error';
  return { code, message: typeof inner.message === 'string' ? inner.message : 'the response failed' };
}

/**
 * Text arrives as `response.output_text.delta`, reasoning as summary (or,
 * from open models' servers, reasoning text) deltas; a function call and a
 * reasoning item are taken whole from their `response.output_item.done`.
 * Items are followed by `output_index`, never by their ids, which some
 * servers change from one event to the next (Copilot's Responses endpoint).
 */
export function responsesTranslator(context: ErrorContext): StreamTranslator<ResponseStreamEvent> {
  let toolCalls = 0;
  let toolChars = 0;
  let refused = false;
  let finished: StreamEvent[] | undefined;
  /** Where the last reasoning piece was, so a new summary part starts on a new paragraph. */
  let lastSummary: string | undefined;
  const noticed = new Set<string>();
  return {
    push(event) {
      const raw = event as unknown as { type: string } & Record<string, unknown>;
      switch (raw.type) {
        case 'response.output_text.delta':
          return typeof raw.delta === 'string' && raw.delta ? [{ type: 'text-delta', text: raw.delta }] : [];
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          if (typeof raw.delta !== 'string' || !raw.delta) return [];
          const where = `${String(raw.output_index)}:${String(raw.summary_index ?? raw.content_index ?? 0)}`;
          const gap = lastSummary !== undefined && lastSummary !== where ? '\n\n' : '';
          lastSummary = where;
          return [{ type: 'reasoning-delta', text: gap + raw.delta, source: 'responses' }];
        }
        case 'response.refusal.delta':
          refused = true;
          return typeof raw.delta === 'string' && raw.delta ? [{ type: 'refusal-delta', text: raw.delta }] : [];
        case 'response.function_call_arguments.delta':
          if (typeof raw.delta === 'string') toolChars += raw.delta.length;
          return [{ type: 'tool-input-delta' }];
        case 'response.output_item.done': {
          const item = raw.item as { type?: string } & Record<string, unknown>;
          if (item.type === 'function_call') {
            toolCalls++;
            return [toolCallEvent(String(item.call_id), String(item.name), typeof item.arguments === 'string' ? item.arguments : '')];
          }
          if (item.type === 'reasoning') {
            const { id, summary, encrypted_content: encrypted } = item;
            return [
              {
                type: 'reasoning-replay',
                item: { type: 'reasoning', id, summary: Array.isArray(summary) ? summary : [], ...(typeof encrypted === 'string' && encrypted ? { encrypted_content: encrypted } : {}) },
                source: 'responses',
              },
            ];
          }
          if (item.type === 'message' || item.type === undefined) return [];
          const events: StreamEvent[] = [{ type: 'other-part', part: item }];
          if (!noticed.has(item.type)) {
            noticed.add(item.type);
            events.push({ type: 'notice', text: `the model sent an output item of type "${item.type.slice(0, 60)}", which ChatOS does not show; it is kept in the conversation file` });
          }
          return events;
        }
        case 'response.completed':
        case 'response.incomplete': {
          const response = raw.response as {
            usage?: { input_tokens: number; output_tokens: number; output_tokens_details?: { reasoning_tokens?: number } | null } | null;
            incomplete_details?: { reason?: string | null } | null;
          };
          const { usage, incomplete_details: details } = response;
          const why = raw.type === 'response.incomplete' ? (details?.reason ?? 'incomplete') : 'completed';
          const reasoningTokens = usage?.output_tokens_details?.reasoning_tokens;
          const reason = finishReasonOf(why);
          finished = [
            ...(usage
              ? [
                  {
                    type: 'usage' as const,
                    inputTokens: usage.input_tokens,
                    outputTokens: usage.output_tokens,
                    ...(typeof reasoningTokens === 'number' && reasoningTokens > 0 ? { reasoningTokens } : {}),
                  },
                ]
              : []),
            { type: 'done', finishReason: reason !== 'stop' ? reason : refused ? 'refusal' : toolCalls ? 'tool-calls' : 'stop', providerReason: why },
          ];
          return [];
        }
        case 'response.failed':
          throw errorFromEvent(streamError((raw.response ?? {}) as { error?: unknown }), context);
        case 'error':
          throw errorFromEvent(streamError(raw as { error?: unknown; code?: unknown; message?: unknown }), context);
        default:
          return [];
      }
    },
    end() {
      if (!finished) throw incomplete();
      return finished;
    },
    toolInputChars: () => toolChars,
  };
}
