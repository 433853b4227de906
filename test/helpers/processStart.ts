import { execFileSync } from 'node:child_process';

/**
 * Start time of a live process as `ps` tells it (deliberately not the /proc
 * reader under test): with the pid it names one process. Undefined when no
 * live process has the pid (a zombie is dead, merely not yet reaped).
 */
export function startTimeOf(pid: number): string | undefined {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'stat=,lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return undefined; // ps exits 1 when there is no such process
  }
  const [stat, ...start] = out.split(/\s+/);
  return !stat || stat.startsWith('Z') ? undefined : start.join(' ');
}
