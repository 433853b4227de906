import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * What the host can see and do to a server's process tree. On POSIX every
 * server is spawned as the leader of its own process group (pgid = its pid),
 * so one signal reaches launchers (npx, uvx, shells) and whatever they
 * started. On Linux, /proc lets us ignore zombies (a killed grandchild stays
 * a zombie until its new parent reaps it, and in containers that parent may
 * never do so) and tell a process from a later one that reused its pid.
 */

const isWindows = process.platform === 'win32';
const hasProc = process.platform === 'linux' && fs.existsSync('/proc/self/stat');

interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks after boot: with the pid, names one process for the machine's uptime. */
  startTime: string;
}

function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgrp] = fields;
  const startTime = fields[19];
  if (!state || !ppid || !pgrp || !startTime) return undefined;
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), startTime };
}

const isDead = (state: string) => state === 'Z' || state === 'X';

function signalExists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process runs (a zombie does not count). */
export function isAlive(pid: number): boolean {
  if (!signalExists(pid)) return false;
  if (!hasProc) return true;
  const stat = readProcStat(pid);
  return stat !== undefined && !isDead(stat.state);
}

/** Live (non-zombie) members of process group `pgid`; POSIX only, empty on Windows. */
export function groupMembers(pgid: number): number[] {
  if (isWindows || !signalExists(-pgid)) return [];
  if (!hasProc) return [pgid]; // something is in the group; which pid does not matter to callers
  const members: number[] = [];
  for (const name of safeReaddir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readProcStat(pid);
    if (stat && stat.pgrp === pgid && !isDead(stat.state)) members.push(pid);
  }
  return members;
}

/**
 * Signals the whole tree rooted at the group leader `pgid`. Never throws:
 * a group that is already gone is the outcome we wanted.
 * Windows has no process groups or SIGTERM; taskkill /T /F ends the tree at either stage.
 */
export function signalTree(pgid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  if (isWindows) {
    try {
      const killer = spawn('taskkill', ['/PID', String(pgid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      killer.on('error', () => {});
    } catch {
      // taskkill missing: nothing better to do.
    }
    return;
  }
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is gone. EPERM: a member changed user; nothing we may do.
  }
}

/**
 * A token that names this very process, not one that later gets its pid:
 * the /proc start time, or `ps -o lstart=` where there is no /proc.
 * Undefined when the process is gone or the platform cannot say.
 */
export function processIdentity(pid: number): string | undefined {
  if (hasProc) {
    const stat = readProcStat(pid);
    return stat && !isDead(stat.state) ? `proc-start:${stat.startTime}` : undefined;
  }
  if (isWindows) return undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out ? `ps-lstart:${out}` : undefined;
  } catch {
    return undefined;
  }
}

/** The argv of a process from /proc/<pid>/cmdline; undefined where there is no /proc. */
export function processArgv(pid: number): string[] | undefined {
  if (!hasProc) return undefined;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until no live member of the group is left; false if `ms` passed first. */
export async function waitGroupGone(pgid: number, ms: number, pollMs = 25): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupMembers(pgid).length > 0) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
