import type { ModelClient } from '../models/providers/modelClient.js';
import type { ModelRequest } from '../models/providers/modelRequest.js';
import { jsonSize, MAX_REPLAY_CHARS, type FinishReason, type ReasoningSource, type StreamEvent } from '../models/providers/streamEvent.js';

/**
 * One answer as it streams in: its text, its reasoning apart, its tool
 * calls, what the host noticed, and when its pieces arrived. Everything a
 * provider sends is bounded here before it is kept: a model that thinks
 * for ten megabytes, or sends parts without end, costs the conversation
 * file at most these sizes, and the user is told what was cut.
 */

/** Reasoning kept per answer (about 250,000 tokens; no real thinking budget comes near). */
export const MAX_REASONING_CHARS = 1_000_000;
const MAX_OTHER_PARTS = 20;
const MAX_OTHER_PART_CHARS = 64 * 1024;
const MAX_NOTICES = 20;

/** A tool call as the stream gave it: complete, or with arguments that are not a JSON object. */
export type StreamedCall = Extract<StreamEvent, { type: 'tool-call' | 'tool-call-malformed' }>;

export interface StreamedReasoning {
  text: string;
  source?: ReasoningSource;
  replay: Record<string, unknown>[];
  /** Characters of `replay` as JSON, against its bound. */
  replayChars: number;
  truncated: boolean;
  /** performance.now() of its first piece, and of the end of thinking (the answer's first piece, or its own last). */
  startedMs?: number;
  endedMs?: number;
}

/** What one request streamed, so far or in full. Times are performance.now(). */
export interface Streamed {
  messageId: string;
  text: string;
  calls: StreamedCall[];
  reasoning: StreamedReasoning;
  refusal: string;
  notices: string[];
  otherParts: Record<string, unknown>[];
  usage?: { inputTokens: number; outputTokens: number; reasoningTokens?: number };
  finish?: FinishReason;
  /** Why the model stopped, as the provider said it before the stream ended (kept when a failure follows it). */
  finishSeen?: FinishReason;
  startedMs: number;
  /** When its first reasoning, text or tool-call piece arrived, and its last. */
  firstTokenMs?: number;
  lastTokenMs?: number;
  /** When its first piece that is not thinking arrived (text, a refusal, a tool call). */
  answerStartedMs?: number;
  endedMs: number;
}

export function newStreamed(messageId: string, startedMs: number): Streamed {
  return { messageId, text: '', calls: [], reasoning: { text: '', replay: [], replayChars: 0, truncated: false }, refusal: '', notices: [], otherParts: [], startedMs, endedMs: startedMs };
}

export interface StreamHooks {
  onDelta?(messageId: string, text: string): void;
  /** `fromAnswer`: the text was streamed as the answer's so far, and is thinking (it moves, as a whole). */
  onReasoning?(messageId: string, text: string, fromAnswer?: boolean): void;
}

function notice(into: Streamed, text: string): void {
  if (into.notices.length < MAX_NOTICES && !into.notices.includes(text)) into.notices.push(text);
}

/** Reasoning appended up to the bound; what was appended (for the live view). */
function addReasoning(into: Streamed, text: string): string {
  const { reasoning } = into;
  const room = MAX_REASONING_CHARS - reasoning.text.length;
  if (text.length <= room) {
    reasoning.text += text;
    return text;
  }
  const kept = room > 0 ? text.slice(0, room) : '';
  reasoning.text += kept;
  if (!reasoning.truncated) {
    reasoning.truncated = true;
    notice(into, `the model's thinking was longer than ${MAX_REASONING_CHARS.toLocaleString('en')} characters; only its first ${MAX_REASONING_CHARS.toLocaleString('en')} are kept`);
  }
  return kept;
}

function addReplay(into: Streamed, item: Record<string, unknown>): void {
  const size = jsonSize(item);
  if (into.reasoning.replayChars + size > MAX_REPLAY_CHARS) {
    notice(into, "the provider's reasoning items were too big to keep; they are not sent back to it, which a provider that requires them may refuse");
    return;
  }
  into.reasoning.replayChars += size;
  into.reasoning.replay.push(item);
}

function addOtherPart(into: Streamed, part: Record<string, unknown>): void {
  if (into.otherParts.length >= MAX_OTHER_PARTS) return;
  // A part nested too deep to write (a depth bomb) is kept as its type only.
  const deep = jsonSize(part) === Infinity;
  const json = deep ? '(nested too deep to write)' : JSON.stringify(part);
  into.otherParts.push(!deep && json.length <= MAX_OTHER_PART_CHARS ? part : { type: typeof part.type === 'string' ? part.type : 'unknown', truncated: true, start: json.slice(0, 1024) });
}

/** The answer's output began or went on at `now`: for time to first token, tokens per second, and how long it thought. */
function output(into: Streamed, thinking: boolean, now: number): void {
  into.firstTokenMs ??= now;
  into.lastTokenMs = now;
  const { reasoning } = into;
  if (thinking) {
    reasoning.startedMs ??= now;
    if (into.answerStartedMs === undefined) reasoning.endedMs = now;
  } else if (into.answerStartedMs === undefined) {
    into.answerStartedMs = now;
    if (reasoning.startedMs !== undefined) reasoning.endedMs = now;
  }
}

/** The text so far was thinking (a template that opened `<think>` itself): it moves to the reasoning, which began when the text did. */
function textWasReasoning(into: Streamed, source: ReasoningSource, hooks: StreamHooks): void {
  const moved = into.text;
  into.text = '';
  into.reasoning.source ??= source;
  if (!moved) return;
  const { reasoning } = into;
  reasoning.startedMs = Math.min(reasoning.startedMs ?? Infinity, into.answerStartedMs ?? Infinity);
  reasoning.endedMs = into.lastTokenMs;
  delete into.answerStartedMs;
  const kept = addReasoning(into, moved);
  hooks.onReasoning?.(into.messageId, kept, true);
}

/**
 * One streamed request, its events gathered into `into` as they come (so a
 * failure leaves the partial there). `now`: the clock pieces are timed by
 * (performance.now(), unless a test gives its own).
 */
export async function collect(
  client: ModelClient,
  request: ModelRequest,
  into: Streamed,
  options: { signal: AbortSignal; idleTimeoutMs: number; maxAnswerChars?: number; now?: () => number },
  hooks: StreamHooks = {},
): Promise<void> {
  const now = options.now ?? (() => performance.now());
  const limits = { signal: options.signal, idleTimeoutMs: options.idleTimeoutMs, ...(options.maxAnswerChars !== undefined ? { maxAnswerChars: options.maxAnswerChars } : {}) };
  for await (const event of client.stream(request, limits)) {
    switch (event.type) {
      case 'text-delta':
        output(into, false, now());
        into.text += event.text;
        hooks.onDelta?.(into.messageId, event.text);
        break;
      case 'reasoning-delta': {
        into.reasoning.source ??= event.source;
        if (!event.text) break;
        output(into, true, now());
        const kept = addReasoning(into, event.text);
        if (kept) hooks.onReasoning?.(into.messageId, kept);
        break;
      }
      case 'reasoning-replay':
        into.reasoning.source ??= event.source;
        addReplay(into, event.item);
        break;
      case 'refusal-delta':
        output(into, false, now());
        into.refusal = (into.refusal + event.text).slice(0, 20_000);
        break;
      case 'tool-input-delta':
        output(into, false, now());
        break;
      case 'tool-call':
      case 'tool-call-malformed':
        output(into, false, now());
        into.calls.push(event);
        break;
      case 'other-part':
        addOtherPart(into, event.part);
        break;
      case 'notice':
        notice(into, event.text);
        break;
      case 'usage':
        into.usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens, ...(event.reasoningTokens !== undefined ? { reasoningTokens: event.reasoningTokens } : {}) };
        break;
      case 'finish-seen':
        into.finishSeen = event.finishReason;
        break;
      case 'text-is-reasoning':
        textWasReasoning(into, event.source, hooks);
        break;
      case 'done':
        into.finish = event.finishReason;
        break;
    }
  }
  into.endedMs = now();
}
