import * as fs from 'node:fs';

/** The machine's CPU time so far, from /proc/stat's first line (Linux; undefined elsewhere): in clock ticks, all cores. */
export interface CpuTicks {
  busy: number;
  total: number;
}

export function cpuTicks(): CpuTicks | undefined {
  let line: string | undefined;
  try {
    line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return undefined;
  }
  const ticks = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
  if (ticks.length < 5 || ticks.some((n) => !Number.isFinite(n))) return undefined;
  // user nice system idle iowait irq softirq steal: idle and iowait are the cores waiting.
  const total = ticks.slice(0, 8).reduce((sum, n) => sum + n, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

/**
 * How busy the machine's cores were between two readings, as a sentence for
 * the run's summary: a suite whose cores were often idle is waiting on
 * something and could overlap with other work; one at 100 % is bound by CPU
 * (its own, or another job's: the load average says which).
 */
export function busySince(start: CpuTicks | undefined): string {
  const end = cpuTicks();
  if (start === undefined || end === undefined || end.total <= start.total) return '';
  const percent = Math.round((100 * (end.busy - start.busy)) / (end.total - start.total));
  return `; the machine's cores were ${percent} % busy meanwhile (load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ', 1)[0]})`;
}
