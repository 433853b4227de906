/** Requests of one view handled at once; more are refused at once rather than queued. */
const AT_ONCE = 4;
/** Requests of one view taken per second; past it, refused until the second moves on. */
const PER_SECOND = 20;

/** A JSON-RPC request's id: 1 and "1" are two ids. */
export type RequestId = string | number;

/**
 * What a view may ask of the host, throttled (docs/rules/mcp-apps.md#what-the-view-may-ask):
 * a request is taken in while fewer than AT_ONCE of the view's are unanswered
 * and fewer than PER_SECOND were taken in the last second; any other is
 * refused straight away, so a view that sends thousands a second gets its
 * refusals at once, none of them reaches the core, and the page stays
 * responsive. `now` is the clock in milliseconds (tests drive it).
 */
export class MessageGate {
  private readonly running = new Set<RequestId>();
  private readonly recent: number[] = [];
  private closed = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes request `id` in (it counts until `answered(id)`), or says why it is refused. */
  admit(id: RequestId): string | undefined {
    if (this.closed) return 'the view was closed';
    // An id the view is still waiting on is not taken again: its answer would be ambiguous.
    if (this.running.has(id)) return 'a request with this id is still being answered';
    const now = this.now();
    while (this.recent.length && now - this.recent[0]! >= 1000) this.recent.shift();
    if (this.running.size >= AT_ONCE || this.recent.length >= PER_SECOND) return 'too many requests from this view: slow down';
    this.recent.push(now);
    this.running.add(id);
    return undefined;
  }

  /** The host answered request `id` (or the view cancelled it): it no longer counts as running. */
  answered(id: RequestId): void {
    this.running.delete(id);
  }

  close(): void {
    this.closed = true;
  }
}
