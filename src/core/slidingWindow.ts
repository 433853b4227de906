/**
 * Uses per key in a sliding window (an app's messages, an app's calls): a
 * key that used its share is refused until the window moves on. The oldest
 * key is forgotten past `keysKept`, so a stream of made-up keys cannot grow it.
 */
export class SlidingWindow {
  private readonly recent = new Map<string, number[]>();

  constructor(private readonly options: { limit: number; windowMs: number; now: () => number; keysKept?: number }) {}

  /** Counts one use of `key`; when its share is used: refused, with how many uses and the wait until the next one. */
  take(key: string): { ok: true } | { ok: false; used: number; waitSeconds: number } {
    const { limit, windowMs } = this.options;
    const now = this.options.now();
    const times = (this.recent.get(key) ?? []).filter((t) => now - t < windowMs);
    if (times.length >= limit) return { ok: false, used: times.length, waitSeconds: Math.ceil((times[0]! + windowMs - now) / 1000) };
    times.push(now);
    this.recent.delete(key);
    this.recent.set(key, times);
    if (this.recent.size > (this.options.keysKept ?? 1_000)) this.recent.delete(this.recent.keys().next().value!);
    return { ok: true };
  }
}
