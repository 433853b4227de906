/**
 * Work done a piece at a time while the page has nothing else to do, in
 * slices short enough that scrolling and typing never wait for it; in the
 * order it was added.
 */
export class IdleQueue<T> {
  private readonly items: T[] = [];
  private scheduled = false;

  constructor(
    private readonly work: (item: T) => void,
    /** Stop a slice after this long (ms): a task the page waits for stays well under a frame. */
    private readonly sliceMs = 8,
  ) {}

  add(batch: readonly T[]): void {
    this.items.push(...batch);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || !this.items.length) return;
    this.scheduled = true;
    const run = (deadline?: IdleDeadline) => {
      this.scheduled = false;
      const started = performance.now();
      while (this.items.length) {
        this.work(this.items.shift()!);
        if (performance.now() - started >= this.sliceMs || (deadline !== undefined && deadline.timeRemaining() < 1)) break;
      }
      this.schedule();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 16);
  }
}
