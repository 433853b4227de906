import type { UserWaits } from '../client/userWaits.js';

/**
 * One call's own timeout (the server's `timeout`), counted by the host
 * rather than the SDK so that it can stand still: each progress report
 * starts it again, and while the server waits for the user (an elicitation
 * of the same instance) it does not run at all; it starts afresh once the
 * user answered (docs/rules/mcp-yaml.md#timeouts). The maximum total time
 * bounds the call whatever happens: the SDK keeps that one.
 */
export class CallDeadline {
  /** The timeout ran out: the call was aborted for it. */
  expired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unwatch: () => void;

  constructor(
    private readonly timeoutMs: number,
    private readonly waits: UserWaits | undefined,
    private readonly onExpire: () => void,
  ) {
    this.unwatch = waits?.onChange(() => this.restart()) ?? (() => {});
    this.restart();
  }

  /** Counts the timeout from now (a progress report, a question answered); stands still while the user is asked. */
  restart(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.expired || this.waits?.waiting) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.onExpire();
    }, this.timeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.unwatch();
  }
}
