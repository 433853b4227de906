/** Requests of one view handled at once; more are refused at once rather than queued. */
const AT_ONCE = 4;
/** Requests of one view taken per second; past it, refused until the second moves on. */
const PER_SECOND = 20;

const SLOW_DOWN = 'too many requests from this view: slow down';

/** A JSON-RPC request's id: 1 and "1" are two ids. */
export type RequestId = string | number;

/**
 * What a view may ask of the host, throttled (docs/rules/mcp-apps.md#what-the-view-may-ask),
 * in two places. At the wire (`admit`, before a message is parsed): a
 * request is taken in while fewer than AT_ONCE of the view's are unanswered
 * and fewer than PER_SECOND were taken in the last second, and never while
 * another of its id is unanswered; any other is refused straight away, so a
 * view that sends thousands a second gets its refusals at once and none of
 * them reaches the core. At the work (`run`, around each handler): at most
 * AT_ONCE run, counted until they end, so a view that cancels its requests
 * (which frees their ids) still cannot start more. `now` is the clock in
 * milliseconds (tests drive it).
 */
export class MessageGate {
  /** Unanswered requests by id; true for those counted against the limits. */
  private readonly unanswered = new Map<RequestId, boolean>();
  private counted = 0;
  private working = 0;
  private readonly recent: number[] = [];
  private closed = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Takes request `id` in (it is unanswered until `answered(id)`), or says
   * why it is refused. `limited` false: a request that is not counted
   * against the limits (an update that only overwrites the one before), but
   * that may not reuse an unanswered id either.
   */
  admit(id: RequestId, limited = true): string | undefined {
    if (this.closed) return 'the view was closed';
    // An id the view is still waiting on is not taken again: its answer would be ambiguous.
    if (this.unanswered.has(id)) return 'a request with this id is still being answered';
    if (limited) {
      const now = this.now();
      while (this.recent.length && now - this.recent[0]! >= 1000) this.recent.shift();
      if (this.counted >= AT_ONCE || this.recent.length >= PER_SECOND) return SLOW_DOWN;
      this.recent.push(now);
      this.counted++;
    }
    this.unanswered.set(id, limited);
    return undefined;
  }

  /** The host answered request `id` (or the view cancelled it): its id is free again. */
  answered(id: RequestId): void {
    const limited = this.unanswered.get(id);
    if (limited === undefined) return;
    this.unanswered.delete(id);
    if (limited) this.counted--;
  }

  /** Runs a handler's work, at most AT_ONCE at a time, counted until it ends (a cancel does not end it). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the view was closed');
    if (this.working >= AT_ONCE) throw new Error(SLOW_DOWN);
    this.working++;
    try {
      return await work();
    } finally {
      this.working--;
    }
  }

  close(): void {
    this.closed = true;
  }
}
