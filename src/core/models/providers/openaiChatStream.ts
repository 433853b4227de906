import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { incomplete, type StreamTranslator } from './guardedStream.js';
import { finishReasonOf } from './requestParts.js';
import { jsonSize, MAX_REPLAY_CHARS, type ReasoningSource, type StreamEvent } from './streamEvent.js';
import { ThinkTagSplitter } from './thinkTags.js';
import { ToolCallAssembler, type ToolCallPiece } from './toolCallAssembler.js';

/**
 * A chat-completions stream as events, read the way the servers people
 * run actually stream (see test/fixtures/providerStreams): besides `content`
 * and `tool_calls`,
 *
 * - reasoning in `reasoning_content` (DeepSeek, DashScope, vLLM, SGLang),
 *   `reasoning` (Ollama, OpenRouter, newer vLLM) or OpenRouter's
 *   `reasoning_details` (kept to send back), or as `<think>` at the start
 *   of `content` (distilled models without a reasoning parser);
 * - `content` as an array of typed parts (Mistral's Magistral: `thinking`
 *   and `text` parts); a part of another type is kept and noticed;
 * - `refusal` (OpenAI), usage on any chunk (vLLM) or after the last choice,
 *   reasoning tokens in `completion_tokens_details`;
 * - tool calls in any of the shapes ToolCallAssembler takes, with Gemini's
 *   `extra_content` (its thought signature) kept for the way back.
 */

/** The fields of a delta that are not in OpenAI's own types. */
interface DeltaExtras {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  reasoning_details?: unknown;
  refusal?: unknown;
}

interface ToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
  extra_content?: unknown;
}

const record = (value: unknown): Record<string, unknown> | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** One OpenRouter reasoning detail's readable text (`reasoning.text` or `reasoning.summary`; an encrypted one has none). */
function detailText(detail: Record<string, unknown>): string {
  if (typeof detail.text === 'string') return detail.text;
  if (typeof detail.summary === 'string') return detail.summary;
  return '';
}

export function openaiChatTranslator(): StreamTranslator<ChatCompletionChunk> {
  const calls = new ToolCallAssembler();
  const think = new ThinkTagSplitter();
  /** OpenRouter streams each reasoning detail in pieces under its `index`: joined here, sent back whole. */
  const details = new Map<number, Record<string, unknown>>();
  /** Characters of `details` held; past MAX_REPLAY_CHARS they are dropped, not held until the end (a provider may stream them without end). */
  let detailChars = 0;
  let detailsDropped = false;
  const noticedTypes = new Set<string>();
  const sources = new Set<ReasoningSource>();
  let finish: string | undefined;
  let refused = false;
  let toolChars = 0;
  let usage: Extract<StreamEvent, { type: 'usage' }> | undefined;

  const reasoning = (text: string, source: ReasoningSource): StreamEvent[] => {
    // The first piece says where reasoning comes from, even empty (DeepSeek opens with `reasoning_content: ""`): it goes back the same way.
    if (!text && sources.has(source)) return [];
    sources.add(source);
    return [{ type: 'reasoning-delta', text, source }];
  };

  const contentParts = (parts: unknown[]): StreamEvent[] =>
    parts.flatMap((part): StreamEvent[] => {
      if (typeof part === 'string') return part ? [{ type: 'text-delta', text: part }] : [];
      const typed = record(part);
      if (!typed) return [];
      if (typed.type === 'text') return typeof typed.text === 'string' && typed.text ? [{ type: 'text-delta', text: typed.text }] : [];
      if (typed.type === 'thinking') {
        const thinking = Array.isArray(typed.thinking)
          ? typed.thinking.map((t) => (typeof t === 'string' ? t : typeof record(t)?.text === 'string' ? (record(t)!.text as string) : '')).join('')
          : typeof typed.thinking === 'string'
            ? typed.thinking
            : '';
        return reasoning(thinking, 'thinking-part');
      }
      const type = typeof typed.type === 'string' ? typed.type : 'untyped';
      const events: StreamEvent[] = [{ type: 'other-part', part: typed }];
      if (!noticedTypes.has(type)) {
        noticedTypes.add(type);
        events.push({ type: 'notice', text: `the model sent a content part of type "${type.slice(0, 60)}", which ChatOS does not show; it is kept in the conversation file` });
      }
      return events;
    });

  const text = (content: string): StreamEvent[] =>
    think.push(content).flatMap((piece): StreamEvent[] => {
      if (piece.kind === 'was-reasoning') {
        sources.add('think-tags');
        return [{ type: 'text-is-reasoning', source: 'think-tags' }];
      }
      return piece.kind === 'text' ? [{ type: 'text-delta', text: piece.text }] : reasoning(piece.text, 'think-tags');
    });

  function reasoningDetails(value: unknown, shown: boolean): StreamEvent[] {
    if (!Array.isArray(value)) return [];
    const events: StreamEvent[] = [];
    for (const [position, raw] of value.entries()) {
      const detail = record(raw);
      if (!detail) continue;
      const index = typeof detail.index === 'number' ? detail.index : details.size + position;
      const kept = details.get(index);
      if (!detailsDropped) detailChars += jsonSize(detail);
      if (!detailsDropped && detailChars > MAX_REPLAY_CHARS) {
        detailsDropped = true;
        details.clear();
        events.push({ type: 'notice', text: `the provider's reasoning details passed ${MAX_REPLAY_CHARS} characters; they are not kept, nor sent back to it` });
      }
      if (detailsDropped) {
        // Dropped: only shown, as below.
      } else if (!kept) details.set(index, { ...detail });
      else
        for (const field of ['text', 'summary', 'data', 'signature'] as const)
          if (typeof detail[field] === 'string') kept[field] = `${typeof kept[field] === 'string' ? kept[field] : ''}${detail[field]}`;
      // The same thought comes as `reasoning` too: shown once.
      if (!shown) events.push(...reasoning(detailText(detail), 'reasoning_details'));
    }
    return events;
  }

  return {
    push(chunk) {
      const events: StreamEvent[] = [];
      const raw = chunk.usage as (typeof chunk.usage & { completion_tokens_details?: { reasoning_tokens?: number } | null }) | null | undefined;
      if (raw) {
        const reasoningTokens = raw.completion_tokens_details?.reasoning_tokens;
        usage = {
          type: 'usage',
          inputTokens: raw.prompt_tokens ?? 0,
          outputTokens: raw.completion_tokens ?? 0,
          ...(typeof reasoningTokens === 'number' && reasoningTokens > 0 ? { reasoningTokens } : {}),
        };
      }
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue;
        const delta = (choice.delta ?? {}) as DeltaExtras & { tool_calls?: ToolCallDelta[] | null };
        const said =
          typeof delta.reasoning_content === 'string'
            ? { text: delta.reasoning_content, source: 'reasoning_content' as const }
            : typeof delta.reasoning === 'string'
              ? { text: delta.reasoning, source: 'reasoning' as const }
              : undefined;
        if (said) events.push(...reasoning(said.text, said.source));
        events.push(...reasoningDetails(delta.reasoning_details, said !== undefined && said.text !== ''));
        if (typeof delta.content === 'string' && delta.content) events.push(...text(delta.content));
        else if (Array.isArray(delta.content)) events.push(...contentParts(delta.content));
        if (typeof delta.refusal === 'string' && delta.refusal) {
          refused = true;
          events.push({ type: 'refusal-delta', text: delta.refusal });
        }
        for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          const piece: ToolCallPiece = { id: part.id ?? null, name: part.function?.name ?? null, arguments: part.function?.arguments };
          if (part.index !== undefined) piece.index = part.index;
          const extra = record(part.extra_content);
          if (extra) piece.extraContent = extra;
          calls.push(piece);
          // Everything a piece makes the assembler hold counts, its extra_content too, and a piece at least one: a flood of empty pieces makes calls too.
          const chars = (piece.name?.length ?? 0) + (typeof piece.arguments === 'string' ? piece.arguments.length : piece.arguments === undefined ? 0 : jsonSize(piece.arguments));
          toolChars += Math.max(1, chars + (extra ? jsonSize(extra) : 0));
          events.push({ type: 'tool-input-delta' });
        }
        if (choice.finish_reason) {
          if (finish === undefined) events.push({ type: 'finish-seen', finishReason: finishReasonOf(choice.finish_reason) });
          finish = choice.finish_reason;
        }
      }
      return events;
    },
    end() {
      if (finish === undefined) throw incomplete();
      const events: StreamEvent[] = [];
      const held = think.end();
      for (const piece of held.pieces)
        if (piece.kind !== 'was-reasoning') events.push(piece.kind === 'text' ? { type: 'text-delta', text: piece.text } : { type: 'reasoning-delta', text: piece.text, source: 'think-tags' });
      if (held.unclosed) events.push({ type: 'notice', text: 'the model opened <think> and never closed it: everything it wrote is kept as its thinking, and there is no answer text' });
      for (const detail of [...details.entries()].sort(([a], [b]) => a - b).map(([, d]) => d)) events.push({ type: 'reasoning-replay', item: detail, source: 'reasoning_details' });
      events.push(...calls.finish());
      if (usage) events.push(usage);
      const reason = finishReasonOf(finish);
      // Gemini's endpoint ends a streamed tool call with `stop`; a cut or filtered answer stays what it is.
      const finishReason = reason === 'length' || reason === 'content-filter' ? reason : refused ? 'refusal' : calls.size ? 'tool-calls' : reason;
      events.push({ type: 'done', finishReason, providerReason: finish });
      return events;
    },
    toolInputChars: () => toolChars,
  };
}
