import type { Scheduler } from '../../src/core/ports.js';

/** A Scheduler whose time moves only when the test says so: deadlines are tested without waiting. */
export class TestScheduler implements Scheduler {
  private time: number;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  /** How many timers of each length were ever set, and who waits for the next: a test moves time once the host armed what it tests. */
  private readonly armed = new Map<number, number>();
  private armWaiters: { ms: number; count: number; resolve: () => void }[] = [];

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    const count = (this.armed.get(ms) ?? 0) + 1;
    this.armed.set(ms, count);
    this.armWaiters = this.armWaiters.filter((w) => !(w.ms === ms && w.count <= count && (w.resolve(), true)));
    return id;
  }

  /**
   * Resolves once `count` timers of `ms` have been set since this scheduler was made (a deadline armed, or armed
   * again). Timers are told apart by their length alone: give the one tested a length no other timer has.
   */
  timerSet(ms: number, count = 1): Promise<void> {
    if (this.timersSet(ms) >= count) return Promise.resolve();
    return new Promise((resolve) => this.armWaiters.push({ ms, count, resolve }));
  }

  /** How many timers of `ms` have been set so far. */
  timersSet(ms: number): number {
    return this.armed.get(ms) ?? 0;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}
