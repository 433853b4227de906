/**
 * One request's abort, handed to the SDK as its `signal`. Node 20 takes
 * about 5 µs to build an AbortSignal (Node 22 about 0.1 µs), which was
 * most of what the gateway added to a call (`npm run bench -- gateway`);
 * every request needs one, though few are ever aborted. This is the part
 * of AbortSignal that a request's signal is used for: by the SDK's
 * `Protocol.request` (`aborted`, `reason`, `throwIfAborted`,
 * `addEventListener('abort')`) and by the host's task polling (also
 * `removeEventListener`). It is never given to fetch or `AbortSignal.any`,
 * which need a real one. The SDK's use of it is held by real requests:
 * test/core/mcp/runtime/timeouts.test.ts (timeout, abort, the server told
 * to cancel) and toolTasks.test.ts (a task cancelled).
 */
export class CallAbort {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  /** What `RequestOptions.signal` is typed as; only the members above are ever read. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: one listener's failure is reported, and the others still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Every listener runs once, at the abort: `once` is how they all behave. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }
}
