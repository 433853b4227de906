/**
 * The questions one connection's server put to the user (an elicitation)
 * that are waiting for an answer. While any waits, the connection's calls
 * stand still: their own timeout does not run (docs/rules/mcp-yaml.md#timeouts),
 * since the server is waiting for the user, not failing to answer.
 */
export class UserWaits {
  private count = 0;
  private readonly listeners = new Set<(waiting: boolean) => void>();

  get waiting(): boolean {
    return this.count > 0;
  }

  /** Runs `ask` (a question put to the user) with the connection's calls paused until it is answered or fails. */
  async during<T>(ask: () => Promise<T>): Promise<T> {
    this.change(+1);
    try {
      return await ask();
    } finally {
      this.change(-1);
    }
  }

  /** Hears when the first question starts waiting (true) and the last one ends (false); returns the unsubscribe function. */
  onChange(listener: (waiting: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private change(by: 1 | -1): void {
    const was = this.waiting;
    this.count += by;
    if (was === this.waiting) return;
    for (const listener of [...this.listeners]) listener(this.waiting);
  }
}
