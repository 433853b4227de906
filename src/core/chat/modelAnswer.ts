import { randomUUID } from 'node:crypto';
import type { StopInfo } from '../../shared/chat.js';
import type { ModelEntry, ProviderFailure } from '../../shared/models.js';
import type { Scheduler } from '../ports.js';
import type { ModelClient } from './providers/modelClient.js';
import type { ModelRequest } from './providers/modelRequest.js';
import { ProviderError } from './providers/providerError.js';
import type { FinishReason, StreamEvent } from './providers/streamEvent.js';
import { pause, retryDecision, type RetryDecision, type RetryPolicy } from './retryPolicy.js';

/** A tool call as the stream gave it: complete, or with arguments that are not a JSON object. */
export type StreamedCall = Extract<StreamEvent, { type: 'tool-call' | 'tool-call-malformed' }>;

/** What one request streamed, so far or in full. Times are performance.now(). */
export interface Streamed {
  messageId: string;
  text: string;
  calls: StreamedCall[];
  usage?: { inputTokens: number; outputTokens: number };
  finish?: FinishReason;
  startedMs: number;
  firstTokenMs?: number;
  endedMs: number;
}

export interface AnswerHooks {
  onDelta?(messageId: string, text: string): void;
  /** A failed request will be sent again after `delayMs`. */
  onRetry?(info: { attempt: number; maxAttempts: number; delayMs: number; error: ProviderFailure; discardedMessageId: string }): void;
}

export type AnswerResult =
  | { ok: true; streamed: Streamed; attempts: number }
  /** `partial`: what the last request streamed before it failed or was stopped. */
  | { ok: false; stop: StopInfo; partial: Streamed; attempts: number };

/** Why a run's signal aborted: the StopInfo given to abort(), else the user's Stop. */
export function stopOf(signal: AbortSignal): StopInfo {
  const reason: unknown = signal.reason;
  if (reason && typeof reason === 'object' && 'kind' in reason && 'message' in reason) return reason as StopInfo;
  return { kind: 'user', message: 'stopped by the user' };
}

/** One streamed request, its events gathered into `into` as they come (so a failure leaves the partial there). */
async function collect(client: ModelClient, request: ModelRequest, into: Streamed, limits: { signal: AbortSignal; idleTimeoutMs: number; maxAnswerChars: number }, onDelta?: AnswerHooks['onDelta']): Promise<void> {
  for await (const event of client.stream(request, limits)) {
    switch (event.type) {
      case 'text-delta':
        into.firstTokenMs ??= performance.now();
        into.text += event.text;
        onDelta?.(into.messageId, event.text);
        break;
      case 'tool-call':
      case 'tool-call-malformed':
        into.firstTokenMs ??= performance.now();
        into.calls.push(event);
        break;
      case 'usage':
        into.usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
        break;
      case 'done':
        into.finish = event.finishReason;
        break;
    }
  }
  into.endedMs = performance.now();
}

/**
 * A model request under the retry policy (docs/rules/chat.md#stop-and-retry): transient failures are
 * sent again after a wait on the scheduler, a rejection never is, and the
 * user's Stop ends it at once (during a request or a wait).
 */
export async function requestAnswer(
  client: ModelClient,
  request: ModelRequest,
  options: { entry: ModelEntry; signal: AbortSignal; retry: RetryPolicy; scheduler: Scheduler; idleTimeoutMs: number; maxAnswerChars: number },
  hooks: AnswerHooks = {},
): Promise<AnswerResult> {
  const { signal, retry } = options;
  for (let attempt = 1; ; attempt++) {
    const startedMs = performance.now();
    const streamed: Streamed = { messageId: randomUUID(), text: '', calls: [], startedMs, endedMs: startedMs };
    try {
      await collect(client, request, streamed, { signal, idleTimeoutMs: options.idleTimeoutMs, maxAnswerChars: options.maxAnswerChars }, hooks.onDelta);
      return { ok: true, streamed, attempts: attempt };
    } catch (error) {
      streamed.endedMs = performance.now();
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === 'aborted' || signal.aborted) return { ok: false, stop: stopOf(signal), partial: streamed, attempts: attempt };
      const decision = retryDecision(error, attempt, retry);
      if (!decision.retry) return { ok: false, stop: providerStop(error, options.entry, decision, attempt), partial: streamed, attempts: attempt };
      hooks.onRetry?.({ attempt, maxAttempts: retry.maxAttempts, delayMs: decision.delayMs, error: error.toJSON(), discardedMessageId: streamed.messageId });
      if (!(await pause(options.scheduler, decision.delayMs, signal))) return { ok: false, stop: stopOf(signal), partial: { ...streamed, text: '', calls: [] }, attempts: attempt };
    }
  }
}

/** A failed request as the conversation's stop: what failed, at which provider, and what to do before resuming. */
export function providerStop(error: ProviderError, entry: ModelEntry, decision: Extract<RetryDecision, { retry: false }>, attempts: number): StopInfo {
  const where = `model "${entry.id}" (${entry.api} at ${entry.baseUrl})`;
  const tool = error.toolName ? ` (about the tool "${error.toolName}")` : '';
  const base = { kind: 'error' as const, provider: error.toJSON(), modelId: entry.id };
  switch (error.kind) {
    case 'rejected':
      return {
        ...base,
        code: 'PROVIDER_REJECTED',
        message: `${where} rejected the request${tool}: ${error.message}`,
        hint: error.toolName
          ? `fix or switch off the tool "${error.toolName}" (MCP servers page, or its server), or change the model entry; then resume the conversation`
          : 'change what it names (the model entry, the agent, its tools), then resume the conversation',
      };
    case 'auth':
      return { ...base, code: 'PROVIDER_AUTH', message: `${where} refused the key: ${error.message}`, hint: `give model "${entry.id}" a valid key (Models page, or chatos models add ${entry.id} … --api-key-stdin), then resume` };
    case 'too-long':
      return {
        kind: 'answer-limit',
        code: 'ANSWER_TOO_LONG',
        message: `${where}: ${error.message}`,
        hint: 'ask for a shorter answer (or in parts), or raise the limit chat.maxAnswerChars (chatos chat --max-answer-chars N, chatos serve --max-answer-chars N)',
        provider: error.toJSON(),
        modelId: entry.id,
      };
    case 'not-found':
      return { ...base, code: 'PROVIDER_NOT_FOUND', message: `${where} does not know the model or the URL: ${error.message}`, hint: `check the model name and base URL (chatos models test ${entry.id}), then resume` };
    default: {
      if (decision.why === 'wait-too-long') {
        const seconds = Math.ceil((error.retryAfterMs ?? 0) / 1000);
        return { ...base, code: 'PROVIDER_RATE_LIMITED', message: `${where} asks to wait ${seconds} s before the next request: ${error.message}`, hint: `resume the conversation in ${seconds} s` };
      }
      const tries = attempts === 1 ? 'once' : `${attempts} times`;
      return { ...base, code: 'PROVIDER_UNAVAILABLE', message: `${where} failed ${tries} (${error.kind}${error.status ? ` ${error.status}` : error.network ? `: ${error.network}` : ''}): ${error.message}`, hint: 'resume the conversation when the provider answers again (chatos models test shows whether it does)' };
    }
  }
}
