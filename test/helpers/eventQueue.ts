/**
 * What an event delivers, in order, for a test that answers each as it
 * comes: `push` is the listener, `next()` the next item (at once when it
 * came already, else when it comes). A wait for the event, never a poll.
 */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];

  readonly push = (item: T): void => {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  };

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift()!);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Items that came and were not taken yet. */
  get length(): number {
    return this.items.length;
  }
}
