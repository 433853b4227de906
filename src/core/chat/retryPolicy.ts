import type { ProviderErrorKind } from '../../shared/models.js';
import type { Scheduler } from '../ports.js';

/**
 * docs/rules/chat.md#stop-and-retry: a rejected request (400/422, invalid) is never
 * retried, it stops the conversation; only transient failures (network,
 * timeouts, 429, 5xx) are, with bounded exponential backoff and a maximum
 * number of tries. A wait the provider names (Retry-After) is honoured as
 * it is, unless it is longer than anyone would wait in a chat.
 */
export interface RetryPolicy {
  /** Requests in all, the first included. */
  maxAttempts: number;
  /** The wait after the first failure; doubled after each next one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this stops the conversation instead (saying when to resume). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; why: 'not-retryable' | 'tries-exhausted' | 'wait-too-long' };

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['network', 'server', 'rate-limited']);

/** After `attempts` failed requests, the last failing with `error`: wait and try again, or stop. Pure. */
export function retryDecision(error: { kind: ProviderErrorKind; retryAfterMs?: number }, attempts: number, policy: RetryPolicy): RetryDecision {
  if (!RETRYABLE.has(error.kind)) return { retry: false, why: 'not-retryable' };
  if (attempts >= policy.maxAttempts) return { retry: false, why: 'tries-exhausted' };
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs > policy.maxRetryAfterMs ? { retry: false, why: 'wait-too-long' } : { retry: true, delayMs: error.retryAfterMs };
  }
  return { retry: true, delayMs: Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1)) };
}

/** Waits `ms` on the scheduler (tests move its time); resolves false at once when `signal` aborts. */
export function pause(scheduler: Scheduler, ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      scheduler.clearTimeout(handle);
      resolve(false);
    };
    const handle = scheduler.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
