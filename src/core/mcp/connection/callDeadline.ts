import type { Scheduler } from '../../ports.js';

/**
 * One call's two limits (docs/rules/mcp-yaml.md#timeouts), counted by the
 * host rather than the SDK.
 *
 * Its own timeout (the server's `timeout`) can stand still: each progress
 * report starts it again, and while the server waits for the user (an
 * elicitation of the same instance) it does not run at all; it starts
 * afresh once the user answered. The connection restarts its calls'
 * deadlines when the user's questions start or end (one listener for all
 * of them, not one per call).
 *
 * Its maximum total time (`maxTotalTimeout`) bounds the call whatever
 * happens, from its start. The SDK bounds each request by it too, but a
 * call can be many requests: a task is created, polled and its result
 * fetched, each poll a fresh request that counts as progress, so only a
 * limit on the whole call ends a task that never does.
 *
 * Both run on the host's scheduler: a test moves its time instead of
 * waiting out a timeout.
 */
export class CallDeadline {
  /** Which limit ran out, once one did: the call was aborted for it. */
  expired: 'timeout' | 'total' | undefined;
  /** One timer for both limits (a call in flight holds one, as before the total was the host's). */
  private timer: unknown;
  private readonly endsAt: number;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly limits: { timeoutMs: number; totalMs: number },
    /** True while the server waits for the user: the timeout stands still (the total does not). */
    private readonly paused: () => boolean,
    private readonly onExpire: (limit: 'timeout' | 'total') => void,
    /** When the call started (the connection reads it before sending, and arms the deadline once the request is on its way). */
    startedAt = scheduler.now(),
  ) {
    this.endsAt = startedAt + limits.totalMs;
    this.restart(startedAt);
  }

  /** Counts the timeout from now (a progress report, a question answered); it stands still while the user is asked, the total runs on. */
  restart(now = this.scheduler.now()): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.expired) return;
    const left = this.endsAt - now;
    const timeoutFirst = !this.paused() && this.limits.timeoutMs <= left;
    this.timer = this.scheduler.setTimeout(() => this.expire(timeoutFirst ? 'timeout' : 'total'), timeoutFirst ? this.limits.timeoutMs : Math.max(0, left));
  }

  dispose(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
  }

  private expire(limit: 'timeout' | 'total'): void {
    this.expired = limit;
    this.onExpire(limit);
  }
}
