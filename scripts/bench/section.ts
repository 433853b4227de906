import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/**
 * The shape every benchmark section returns, so `scripts/bench.ts` can print
 * and judge sections it knows nothing about. A later issue adds a section by
 * writing one `run…Bench(): Promise<BenchSection>` and listing it in the runner.
 */

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "< 1000 ms"; absent for figures shown for information only. */
  target?: string;
  /** Set together with `target`; a false here makes the whole run exit non-zero. */
  pass?: boolean;
  /** Rows sharing a group are printed under that sub-heading (e.g. ratios against a baseline). */
  group?: string;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  /** Caveats the reader needs to interpret the figures (warm caches, machine, sample counts). */
  notes?: string[];
}

/** An information-only row. */
export function info(name: string, value: number, unit: string): BenchRow {
  return { name, value, unit };
}

/** A row that passes when `value` is strictly below `limit`. */
export function below(name: string, value: number, unit: string, limit: number): BenchRow {
  return { name, value, unit, target: `< ${limit} ${unit}`, pass: value < limit };
}

/** A row that passes when `value` is at most `limit`. */
export function atMost(name: string, value: number, unit: string, limit: number): BenchRow {
  return { name, value, unit, target: `<= ${limit} ${unit}`, pass: value <= limit };
}

/** A row that passes when `value` is at least `limit`. */
export function atLeast(name: string, value: number, unit: string, limit: number): BenchRow {
  return { name, value, unit, target: `>= ${limit} ${unit}`, pass: value >= limit };
}

/** The same rows, printed under a sub-heading. */
export function grouped(group: string, rows: BenchRow[]): BenchRow[] {
  return rows.map((row) => ({ ...row, group }));
}

/** Wall-clock milliseconds of a synchronous call, plus its result. */
export function timed<T>(fn: () => T): { ms: number; result: T } {
  const started = performance.now();
  const result = fn();
  return { ms: performance.now() - started, result };
}

/**
 * Calls per second of `count` calls, at most `inFlight` of them outstanding
 * (1: each waits for the one before); `call` gets each call's index.
 */
export async function callsPerSecond(count: number, inFlight: number, call: (index: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await call(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Nearest-rank percentile: with 20 samples p95 is the 19th smallest, an actually observed value. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The garbage collector, to call before a measurement so that no earlier figure's garbage is collected inside it. */
export function gcNow(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Throws with `message` unless `condition` holds: a benchmark of a broken scan is meaningless, so it must fail loudly. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}
