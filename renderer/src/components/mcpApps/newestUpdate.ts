/** How often a view's updates reach the core, at most. */
const INTERVAL_MS = 1000;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A view's `ui/update-model-context` requests on their way to the core
 * (docs/rules/mcp-apps.md#what-the-view-may-ask): each overwrites the one
 * before, so only the newest is sent, at once when the view has been quiet,
 * else when the interval has passed. A view that sends a thousand a second
 * costs one call a second; each request is answered when the call that
 * carries it, or a newer one, is done.
 */
export class NewestUpdate<T> {
  private waiting: { value: T; waiters: Waiter[] } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | undefined;
  private lastSent = -Infinity;
  private closed = false;

  constructor(private readonly send: (value: T) => Promise<void>) {}

  push(value: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the view was closed'));
    return new Promise<void>((resolve, reject) => {
      if (this.waiting) {
        this.waiting.value = value;
        this.waiting.waiters.push({ resolve, reject });
      } else this.waiting = { value, waiters: [{ resolve, reject }] };
      this.schedule();
    });
  }

  /** Sends what waits now (a message from the view goes after the context it set); resolves when nothing of it is on the way. */
  async flush(): Promise<void> {
    if (this.sending) await this.sending;
    if (!this.waiting) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sendWaiting().catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const waiter of this.waiting?.waiters ?? []) waiter.reject(new Error('the view was closed'));
    this.waiting = undefined;
  }

  private schedule(): void {
    if (this.sending || this.timer !== undefined || !this.waiting) return;
    const wait = Math.max(0, this.lastSent + INTERVAL_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sendWaiting().catch(() => undefined);
    }, wait);
  }

  private sendWaiting(): Promise<void> {
    const batch = this.waiting;
    if (!batch) return Promise.resolve();
    this.waiting = undefined;
    this.lastSent = performance.now();
    const sending = this.send(batch.value).then(
      () => batch.waiters.forEach((w) => w.resolve()),
      (error: unknown) => {
        batch.waiters.forEach((w) => w.reject(error));
        throw error;
      },
    );
    // Its refusal goes to the requests it carried; what waits on `sending` only needs to know it is over.
    this.sending = sending
      .catch(() => undefined)
      .finally(() => {
        this.sending = undefined;
        if (!this.closed) this.schedule();
      });
    return sending;
  }
}
