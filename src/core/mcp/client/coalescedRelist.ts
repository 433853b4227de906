/**
 * The least time between two re-lists a server's list-changed notifications
 * start: a server that says its list changed 100 times a second is listed a
 * few times a second, never 100 (docs/rules/mcp-yaml.md#tool-list-changes).
 */
export const RELIST_GAP_MS = 200;

/**
 * A server's list-changed notifications turned into re-lists, coalesced: one
 * re-list in flight, the changes announced meanwhile in one more (after a
 * short gap), so the last change is always seen and a flood costs a few.
 * Shared by the tools and the prompts of a connection.
 */
export class CoalescedRelist<T> {
  private readonly listeners = new Set<(list: T) => void>();
  /** The re-list under way, if any: one at a time. */
  private relisting: Promise<void> | undefined;
  /** A change was announced after the re-list under way asked: one more re-list follows it. */
  private again = false;
  /** How many changes the server has announced: a caller compares two counts to know whether one came between. */
  private announced = 0;

  constructor(
    /** Asks the server for its list now and keeps it; returns what listeners are told. */
    private readonly refresh: () => Promise<T>,
    private readonly gapMs = RELIST_GAP_MS,
  ) {}

  /** Hears each list a list-changed re-list brought; returns the unsubscribe function. */
  onListChanged(listener: (list: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The re-list under way (and those it ends up needing): resolves once they are done, never rejects; undefined when none is. */
  underWay(): Promise<void> | undefined {
    return this.relisting;
  }

  /** How many changes the server has announced so far. */
  get announcements(): number {
    return this.announced;
  }

  /** The server said its list changed. */
  changed(): void {
    this.announced++;
    if (this.relisting) {
      this.again = true;
      return;
    }
    this.relisting = this.relist().finally(() => (this.relisting = undefined));
  }

  private async relist(): Promise<void> {
    do {
      this.again = false;
      let list: T;
      try {
        list = await this.refresh();
      } catch {
        // The connection closed (or the server failed to list): the last list stays, and the next notification tries again.
        return;
      }
      for (const listener of [...this.listeners]) listener(list);
      // More changes came while listing: wait a little so a flood of them costs a few re-lists, then take the newest list.
      if (this.again) await new Promise((resolve) => setTimeout(resolve, this.gapMs).unref());
    } while (this.again);
  }
}
