import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, ImageBlockParam, MessageParam, RawMessageStreamEvent, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ReasoningEffort } from '../../../shared/models.js';
import { incomplete, type StreamTranslator, type WireOptions } from './guardedStream.js';
import type { ChatMessage, ContentPart, ToolSpec } from './modelRequest.js';
import { finishReasonOf, type ResolvedRequest } from './requestParts.js';
import { ContentRecord, contentReplayOf } from './anthropicContent.js';
import { jsonSize, MAX_REPLAY_CHARS, toolCallEvent, type StreamEvent } from './streamEvent.js';

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

/** An earlier answer's thinking and redacted-thinking blocks, as the model wrote them (only ever given for the same model entry). */
function thinkingBlocks(message: Extract<ChatMessage, { role: 'assistant' }>): ContentBlockParam[] {
  return (message.reasoning?.replay ?? []).flatMap((item): ContentBlockParam[] => {
    if (item.type === 'thinking' && typeof item.thinking === 'string' && typeof item.signature === 'string') return [{ type: 'thinking', thinking: item.thinking, signature: item.signature }];
    if (item.type === 'redacted_thinking' && typeof item.data === 'string') return [{ type: 'redacted_thinking', data: item.data }];
    return [];
  });
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
        // An answer kept whole (it used server tools; a paused turn) goes back exactly as it came.
        if (contentReplayOf(message)) {
          append('assistant', contentReplayOf(message)!);
          break;
        }
        append('assistant', [
          // Thinking blocks go back first and unchanged (their signatures are checked); a tool loop with thinking needs them.
          ...thinkingBlocks(message),
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

export const anthropicTools = (tools: readonly ToolSpec[]): Tool[] => tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool['input_schema'] }));

/** Extended thinking's budget per effort; the answer keeps at least ANSWER_TOKENS beside it. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = { minimal: 1024, low: 4096, medium: 10_000, high: 24_000 };
const ANSWER_TOKENS = 4096;

/** `max_tokens` and, for a reasoning entry, extended thinking with a budget below it (the API requires budget < max_tokens). */
function limits(request: ResolvedRequest): { max_tokens: number; thinking?: { type: 'enabled'; budget_tokens: number } } {
  if (!request.reasoning) return { max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
  const wanted = THINKING_BUDGET[request.reasoning.effort ?? 'medium'];
  const max = request.maxTokens ?? wanted + ANSWER_TOKENS;
  const budget = Math.max(1024, Math.min(wanted, max - 1024));
  return { max_tokens: Math.max(max, budget + 1024), thinking: { type: 'enabled', budget_tokens: budget } };
}

/**
 * Starts the stream. The SDK writes some warnings straight to the console
 * (a deprecated model, a deprecated thinking mode), which would land in the
 * user's terminal in no words of ours: they are taken while the call is
 * made (synchronously, so nothing else runs meanwhile) and given to
 * `notice`, which makes them a notice of the answer.
 */
export function openStream(client: Anthropic, request: ResolvedRequest, options: WireOptions) {
  const body = {
    model: request.model,
    messages: anthropicMessages(request.messages),
    stream: true as const,
    ...limits(request),
    ...(request.system ? { system: request.system } : {}),
    ...(request.tools.length ? { tools: anthropicTools(request.tools) } : {}),
    ...(request.temperature !== undefined ? { temperature: Math.min(1, request.temperature) } : {}),
  };
  const warn = console.warn;
  const said: string[] = [];
  console.warn = (...parts: unknown[]) => void said.push(parts.map(String).join(' '));
  try {
    return client.messages.create(body, { signal: options.signal, timeout: options.timeout });
  } finally {
    console.warn = warn;
    for (const text of said) options.notice?.(`Anthropic's SDK says: ${text.replace(/\s+/g, ' ').trim()}`);
  }
}

/** Anthropic's stop_details for a refusal names why: its explanation, where given, is the refusal's text. */
function refusalOf(delta: unknown): string | undefined {
  const details = (delta as { stop_details?: { explanation?: unknown } | null }).stop_details;
  return typeof details?.explanation === 'string' && details.explanation ? details.explanation : undefined;
}

/**
 * Blocks by their index: text, thinking (its text shown as it comes, the
 * whole block with its signature kept to send back), redacted thinking
 * (kept), tool_use (its input as `input_json_delta` pieces between start and
 * stop). A block of another type (a server tool's, a future one) is kept as
 * it started and noticed.
 */
export function anthropicTranslator(): StreamTranslator<RawMessageStreamEvent> {
  const tools = new Map<number, { id: string; name: string; json: string; initial: unknown }>();
  /** Thinking blocks held whole until they stop, to send back; past MAX_REPLAY_CHARS in all they are dropped (a provider may stream them without end). */
  const thinking = new Map<number, { thinking: string; signature: string; dropped?: boolean }>();
  let heldChars = 0;
  /** Adds a piece to a held thinking block, unless that would pass the bound: then the block is dropped, once noticed. */
  const hold = (block: { thinking: string; signature: string; dropped?: boolean } | undefined, field: 'thinking' | 'signature', text: string): StreamEvent[] => {
    if (!block || block.dropped) return [];
    heldChars += text.length;
    if (heldChars <= MAX_REPLAY_CHARS) {
      block[field] += text;
      return [];
    }
    Object.assign(block, { thinking: '', signature: '', dropped: true });
    return [{ type: 'notice', text: `the model's thinking blocks passed ${MAX_REPLAY_CHARS} characters; they are not sent back to it, which a provider that requires them may refuse` }];
  };
  const noticed = new Set<string>();
  const content = new ContentRecord();
  let inputTokens = 0;
  let outputTokens = 0;
  let reasoningTokens: number | undefined;
  let stopReason: string | undefined;
  let refusal: string | undefined;
  let stopped = false;
  let toolChars = 0;
  const usageOf = (usage: { input_tokens?: number | null; output_tokens?: number | null; output_tokens_details?: { thinking_tokens?: number } | null } | null | undefined) => {
    if (!usage) return;
    if (usage.input_tokens != null) inputTokens = usage.input_tokens;
    if (usage.output_tokens != null) outputTokens = usage.output_tokens;
    const thought = usage.output_tokens_details?.thinking_tokens;
    if (typeof thought === 'number' && thought > 0) reasoningTokens = thought;
  };
  return {
    push(event) {
      switch (event.type) {
        case 'message_start':
          usageOf(event.message.usage as Parameters<typeof usageOf>[0]);
          return [];
        case 'content_block_start': {
          const block = event.content_block as unknown as { type: string } & Record<string, unknown>;
          content.start(event.index, block);
          if (block.type === 'tool_use') {
            tools.set(event.index, { id: String(block.id), name: String(block.name), json: '', initial: block.input });
            // An input given whole at the start counts too: it is the call's arguments when no input_json_delta follows.
            toolChars += String(block.name).length + (block.input !== null && typeof block.input === 'object' ? jsonSize(block.input) : 0);
          } else if (block.type === 'thinking') {
            const held = { thinking: '', signature: '' };
            thinking.set(event.index, held);
            const dropped = [
              ...hold(held, 'thinking', typeof block.thinking === 'string' ? block.thinking : ''),
              ...hold(held, 'signature', typeof block.signature === 'string' ? block.signature : ''),
            ];
            return [
              typeof block.thinking === 'string' && block.thinking
                ? { type: 'reasoning-delta', text: block.thinking, source: 'anthropic' }
                : { type: 'reasoning-delta', text: '', source: 'anthropic' },
              ...dropped,
            ];
          } else if (block.type === 'redacted_thinking') return [{ type: 'reasoning-replay', item: { type: 'redacted_thinking', data: block.data }, source: 'anthropic' }];
          else if (block.type === 'text') return typeof block.text === 'string' && block.text ? [{ type: 'text-delta', text: block.text }] : [];
          else {
            const events: StreamEvent[] = [{ type: 'other-part', part: block }];
            if (!noticed.has(block.type)) {
              noticed.add(block.type);
              events.push({ type: 'notice', text: `the model sent a content block of type "${String(block.type).slice(0, 60)}", which ChatOS does not show; it is kept in the conversation file` });
            }
            return events;
          }
          return [];
        }
        case 'content_block_delta': {
          const delta = event.delta as unknown as { type: string } & Record<string, unknown>;
          content.delta(event.index, delta);
          if (delta.type === 'text_delta') return typeof delta.text === 'string' && delta.text ? [{ type: 'text-delta', text: delta.text }] : [];
          if (delta.type === 'thinking_delta') {
            if (typeof delta.thinking !== 'string' || !delta.thinking) return [];
            return [{ type: 'reasoning-delta', text: delta.thinking, source: 'anthropic' }, ...hold(thinking.get(event.index), 'thinking', delta.thinking)];
          }
          if (delta.type === 'signature_delta') {
            return typeof delta.signature === 'string' ? hold(thinking.get(event.index), 'signature', delta.signature) : [];
          }
          if (delta.type === 'input_json_delta') {
            const tool = tools.get(event.index);
            if (tool && typeof delta.partial_json === 'string') {
              tool.json += delta.partial_json;
              toolChars += delta.partial_json.length;
            }
            return [{ type: 'tool-input-delta' }];
          }
          return [];
        }
        case 'content_block_stop': {
          content.stop(event.index);
          const block = thinking.get(event.index);
          if (block) return block.dropped ? [] : [{ type: 'reasoning-replay', item: { type: 'thinking', thinking: block.thinking, signature: block.signature }, source: 'anthropic' }];
          const tool = tools.get(event.index);
          if (!tool) return [];
          const initial = tool.initial !== null && typeof tool.initial === 'object' && Object.keys(tool.initial).length ? JSON.stringify(tool.initial) : '';
          return [toolCallEvent(tool.id, tool.name, tool.json || initial)];
        }
        case 'message_delta': {
          const first = stopReason === undefined && event.delta.stop_reason;
          stopReason = event.delta.stop_reason ?? stopReason;
          refusal = refusalOf(event.delta) ?? refusal;
          usageOf(event.usage as Parameters<typeof usageOf>[0]);
          return first ? [{ type: 'finish-seen', finishReason: finishReasonOf(stopReason) }] : [];
        }
        case 'message_stop':
          stopped = true;
          return [];
        default:
          return [];
      }
    },
    end() {
      if (!stopped) throw incomplete();
      const events: StreamEvent[] = [];
      if (stopReason === 'refusal') events.push({ type: 'refusal-delta', text: refusal ?? 'the model declined to answer this request (stop_reason: refusal)' });
      events.push(...content.replay());
      events.push({ type: 'usage', inputTokens, outputTokens, ...(reasoningTokens !== undefined ? { reasoningTokens } : {}) });
      events.push({ type: 'done', finishReason: finishReasonOf(stopReason), ...(stopReason ? { providerReason: stopReason } : {}) });
      return events;
    },
    toolInputChars: () => toolChars,
  };
}
