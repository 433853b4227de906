import type { Scheduler } from '../../ports.js';

/**
 * One call's own timeout (the server's `timeout`), counted by the host
 * rather than the SDK so that it can stand still: each progress report
 * starts it again, and while the server waits for the user (an elicitation
 * of the same instance) it does not run at all; it starts afresh once the
 * user answered (docs/rules/mcp-yaml.md#timeouts). The maximum total time
 * bounds the call whatever happens: the SDK keeps that one. The connection
 * restarts its calls' deadlines when the user's questions start or end
 * (one listener for all of them, not one per call).
 */
export class CallDeadline {
  /** The timeout ran out: the call was aborted for it. */
  expired = false;
  private timer: unknown;

  constructor(
    /** The host's: a test moves its time instead of waiting out a timeout. */
    private readonly scheduler: Scheduler,
    private readonly timeoutMs: number,
    /** True while the server waits for the user: the deadline stands still. */
    private readonly paused: () => boolean,
    private readonly onExpire: () => void,
  ) {
    this.restart();
  }

  /** Counts the timeout from now (a progress report, a question answered); stands still while the user is asked. */
  restart(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.expired || this.paused()) return;
    this.timer = this.scheduler.setTimeout(() => {
      this.expired = true;
      this.onExpire();
    }, this.timeoutMs);
  }

  dispose(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
  }
}
