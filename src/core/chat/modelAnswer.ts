import { randomUUID } from 'node:crypto';
import type { StopInfo } from '../../shared/chat.js';
import type { ModelEntry, ProviderFailure } from '../../shared/models.js';
import type { Scheduler } from '../ports.js';
import type { ModelClient } from './providers/modelClient.js';
import type { ModelRequest } from './providers/modelRequest.js';
import { ProviderError } from './providers/providerError.js';
import { pause, retryDecision, type RetryDecision, type RetryPolicy } from './retryPolicy.js';
import { collect, newStreamed, type Streamed, type StreamHooks } from './streamedAnswer.js';

export interface AnswerHooks extends StreamHooks {
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
    const streamed = newStreamed(randomUUID(), performance.now());
    try {
      await collect(client, request, streamed, { signal, idleTimeoutMs: options.idleTimeoutMs, maxAnswerChars: options.maxAnswerChars }, hooks);
      return { ok: true, streamed, attempts: attempt };
    } catch (error) {
      streamed.endedMs = performance.now();
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === 'aborted' || signal.aborted) return { ok: false, stop: stopOf(signal), partial: streamed, attempts: attempt };
      const decision = retryDecision(error, attempt, retry);
      if (!decision.retry) return { ok: false, stop: providerStop(error, options.entry, decision, attempt), partial: streamed, attempts: attempt };
      hooks.onRetry?.({ attempt, maxAttempts: retry.maxAttempts, delayMs: decision.delayMs, error: error.toJSON(), discardedMessageId: streamed.messageId });
      if (!(await pause(options.scheduler, decision.delayMs, signal))) return { ok: false, stop: stopOf(signal), partial: newStreamed(streamed.messageId, streamed.startedMs), attempts: attempt };
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
      return {
        ...base,
        code: 'PROVIDER_AUTH',
        message: `${where} refused the key: ${error.message}`,
        hint: `give model "${entry.id}" a valid key (Models page, or chatos models add ${entry.id} … --api-key-stdin), then resume`,
      };
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
      return {
        ...base,
        code: 'PROVIDER_NOT_FOUND',
        message: `${where} does not know the model or the URL: ${error.message}`,
        hint: `check the model name and base URL (chatos models test ${entry.id}), then resume`,
      };
    case 'quota':
      return {
        ...base,
        code: 'PROVIDER_QUOTA',
        message: `${where} refused for billing: the account has no credit left or its quota is used up (${error.message})`,
        hint: "add credit or raise the limit in the provider's billing settings, or switch this conversation to another model; waiting does not help. Then resume",
      };
    case 'context-too-long':
      return {
        ...base,
        code: 'PROVIDER_CONTEXT_TOO_LONG',
        message: `the conversation is longer than model "${entry.id}" takes (${error.message})`,
        hint: `summarize the older turns and retry (Summarize and retry on the Chat page), switch to a model with a larger context window, or set model "${entry.id}"'s context window so older turns are summarized before it is reached`,
      };
    case 'content-filter':
      return {
        ...base,
        code: 'PROVIDER_CONTENT_FILTERED',
        message: `${where}'s content filter refused the request: ${error.message}`,
        hint: 'rephrase the last message (edit it), or use another model; sending it again unchanged is refused again',
      };
    default: {
      if (decision.why === 'wait-too-long') {
        const seconds = Math.ceil((error.retryAfterMs ?? 0) / 1000);
        return { ...base, code: 'PROVIDER_RATE_LIMITED', message: `${where} asks to wait ${seconds} s before the next request: ${error.message}`, hint: `resume the conversation in ${seconds} s` };
      }
      const tries = attempts === 1 ? 'once' : `${attempts} times`;
      if (error.kind === 'rate-limited') {
        return {
          ...base,
          code: 'PROVIDER_RATE_LIMITED',
          message: `${where} kept answering "too many requests" (${tries}): ${error.message}`,
          hint: "resume in a minute, or check the rate limits of your plan in the provider's settings",
        };
      }
      return {
        ...base,
        code: 'PROVIDER_UNAVAILABLE',
        message: `${where} failed ${tries} (${error.kind}${error.status ? ` ${error.status}` : error.network ? `: ${error.network}` : ''}): ${error.message}`,
        hint: 'resume the conversation when the provider answers again (chatos models test shows whether it does)',
      };
    }
  }
}
