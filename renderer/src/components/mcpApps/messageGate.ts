/** Requests of one view handled at once; more are refused at once rather than queued. */
const AT_ONCE = 4;
/** Requests of one view handled per second; past it, refused until the second moves on. */
const PER_SECOND = 20;

/**
 * What a view may ask of the host, throttled (docs/rules/mcp-apps.md#what-the-view-may-ask):
 * a view that sends thousands of requests a second gets refusals straight
 * away, none of them reaches the core, and the page stays responsive.
 */
export class MessageGate {
  private running = 0;
  private readonly recent: number[] = [];
  private closed = false;

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the view was closed'));
    const now = performance.now();
    while (this.recent.length && now - this.recent[0]! >= 1000) this.recent.shift();
    if (this.running >= AT_ONCE || this.recent.length >= PER_SECOND) return Promise.reject(new Error('too many requests from this view: slow down'));
    this.recent.push(now);
    this.running++;
    return work().finally(() => this.running--);
  }

  close(): void {
    this.closed = true;
  }
}
