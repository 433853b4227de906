import type { Scheduler } from '../ports.js';

/** How often the lists are looked at for changes another process (or a core path without a face) made: a stat or two, unless one changed. */
export const LIST_POLL_MS = 1_000;

/** The lists every face shows and keeps live. */
export type ListName = 'models' | 'agents' | 'knowledge';

/** A list as it is now: each row's id with a fingerprint that changes whenever the row does. */
export type ListSnapshot = ReadonlyMap<string, string>;

export interface ListChange {
  list: ListName;
  /** The rows added, changed or removed. */
  ids: string[];
}

/**
 * Keeps the faces' lists live whoever changes them: a model added with
 * `chatos models add` beside a running window, an agent the settings server
 * edited for an assistant, a knowledge base another process made. Mcp.yaml
 * has its file watcher; these live in the admin DB and the knowledge folder,
 * so each poll reads a fingerprint of each list (`read`: cheap, a stat when
 * nothing changed) and tells the listener which rows of which lists differ.
 * A face that changed a list itself hears of it at once from its own call;
 * this is for everything else, within a second.
 */
export class ListWatch {
  private timer: unknown;
  private running = false;
  private last = new Map<ListName, ListSnapshot>();

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      read: Readonly<Record<ListName, () => ListSnapshot>>;
      onChange(changes: ListChange[]): void;
      onError?(error: unknown): void;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.last = this.readAll();
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.deps.scheduler.setTimeout(() => this.tick(), LIST_POLL_MS);
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    try {
      this.check();
    } catch (error) {
      this.deps.onError?.(error);
    }
    if (this.running) this.schedule();
  }

  /** One look at every list: what changed since the last look is told. */
  check(): void {
    const now = this.readAll();
    const changes: ListChange[] = [];
    for (const [list, rows] of now) {
      const before = this.last.get(list) ?? new Map<string, string>();
      const ids = [...new Set([...rows.keys(), ...before.keys()])].filter((id) => rows.get(id) !== before.get(id)).sort();
      if (ids.length) changes.push({ list, ids });
    }
    this.last = now;
    if (changes.length) this.deps.onChange(changes);
  }

  private readAll(): Map<ListName, ListSnapshot> {
    const { read } = this.deps;
    return new Map<ListName, ListSnapshot>([
      ['models', read.models()],
      ['agents', read.agents()],
      ['knowledge', read.knowledge()],
    ]);
  }

  dispose(): void {
    this.running = false;
    if (this.timer !== undefined) this.deps.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
