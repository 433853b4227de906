import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * What the host can see and do to the process tree of something it started
 * (an MCP server, a plugin backend). On POSIX each is spawned as the leader
 * of its own session and process group (pgid = sid = its pid), so one signal
 * reaches launchers (npx, uvx, shells) and whatever they started. On Linux,
 * /proc shows the rest: descendants that left the group with setsid (found
 * by parent links), zombies to ignore (a killed grandchild stays a zombie
 * until its new parent reaps it, and in containers that parent may never do
 * so), and a process's start time, which tells it from a later one that
 * reused its pid.
 */

const isWindows = process.platform === 'win32';
const hasProc = process.platform === 'linux' && fs.existsSync('/proc/self/stat');

/** Whether this system shows processes' parents, groups and start times in /proc (Linux). */
export const hasProcFs = () => hasProc;

interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
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
  const [state, ppid, pgrp, session] = fields;
  const startTime = fields[19];
  if (!state || !ppid || !pgrp || !session || !startTime) return undefined;
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session), startTime };
}

const isDead = (state: string) => state === 'Z' || state === 'X';
const PROC_START = 'proc-start:';
const procIdentity = (stat: ProcStat) => `${PROC_START}${stat.startTime}`;
/** The start time (clock ticks after boot) an identity from /proc names; undefined for one from `ps`. */
const startTicksOf = (identity: string) => (identity.startsWith(PROC_START) ? Number(identity.slice(PROC_START.length)) : undefined);

/** Whether a process with this pid exists (ours to signal or not). */
export function signalExists(target: number): boolean {
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

/** processIdentity as one snapshot saw the process (no read of its own): undefined when it was gone or dead then. */
export function identityIn(snapshot: ProcSnapshot, pid: number): string | undefined {
  const stat = snapshot.get(pid);
  return stat && !isDead(stat.state) ? procIdentity(stat) : undefined;
}

/**
 * A token that names this very process, not one that later gets its pid:
 * the /proc start time, or `ps -o lstart=` where there is no /proc.
 * Undefined when the process is gone or the platform cannot say.
 */
export function processIdentity(pid: number): string | undefined {
  if (hasProc) {
    const stat = readProcStat(pid);
    return stat && !isDead(stat.state) ? procIdentity(stat) : undefined;
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
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg !== '');
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves true if `promise` settles within `ms`, false otherwise; the timer never outlives the race. */
export async function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One process of a tree, named so that a later process with its pid is not mistaken for it. */
export interface TrackedProcess {
  pid: number;
  /** `processIdentity(pid)` when it was seen. */
  identity: string;
}

/** A process of a tree as a walk found it, with its group, so a signal to the group is not sent to it twice. */
export interface TreeMember extends TrackedProcess {
  pgrp: number;
}

/** Every live process of the machine, read from /proc at one moment; undefined where there is no /proc. */
export type ProcSnapshot = ReadonlyMap<number, ProcStat>;

export function procSnapshot(): ProcSnapshot | undefined {
  if (!hasProc) return undefined;
  const snapshot = new Map<number, ProcStat>();
  for (const name of safeReaddir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readProcStat(pid);
    if (stat && !isDead(stat.state)) snapshot.set(pid, stat);
  }
  return snapshot;
}

/**
 * The live processes of a tree in `snapshot`: each seed that is still the
 * process it was (same start time), everything below them by parent links,
 * and every member of their process groups and sessions (a child orphaned
 * by its parent's death keeps its group and session, and nothing outside
 * a session can join it, so their members are ours). A descendant that
 * called setsid is reached by its parent link while that parent lives, and
 * by its own seed (recorded while it ran) after. The host itself and init
 * are never part of it.
 */
/** Who is under whom in one snapshot: children by parent, members by process group and by session. */
export interface ProcIndex {
  readonly children: ReadonlyMap<number, number[]>;
  readonly groups: ReadonlyMap<number, number[]>;
  readonly sessions: ReadonlyMap<number, number[]>;
}

export function indexSnapshot(snapshot: ProcSnapshot): ProcIndex {
  const children = new Map<number, number[]>();
  const groups = new Map<number, number[]>();
  const sessions = new Map<number, number[]>();
  const add = (index: Map<number, number[]>, key: number, pid: number) => {
    const list = index.get(key);
    if (list) list.push(pid);
    else index.set(key, [pid]);
  };
  for (const [pid, stat] of snapshot) {
    add(children, stat.ppid, pid);
    add(groups, stat.pgrp, pid);
    add(sessions, stat.session, pid);
  }
  return { children, groups, sessions };
}

/** `index`: pass one built once when walking many trees of the same snapshot (each build reads every process). */
export function treeIn(snapshot: ProcSnapshot, seeds: readonly TrackedProcess[], index: ProcIndex = indexSnapshot(snapshot)): TreeMember[] {
  const { children, groups, sessions } = index;
  const ours = new Set<number>();
  const queue = seeds.filter((seed) => snapshot.get(seed.pid) && procIdentity(snapshot.get(seed.pid)!) === seed.identity).map((seed) => seed.pid);
  const groupsSeen = new Set<number>();
  const sessionsSeen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (ours.has(pid) || pid === process.pid || pid <= 1) continue;
    ours.add(pid);
    const stat = snapshot.get(pid)!;
    queue.push(...(children.get(pid) ?? []));
    // A group or session is ours only once one of our processes is in it; never the host's own.
    if (!groupsSeen.has(stat.pgrp) && stat.pgrp !== hostGroup) (groupsSeen.add(stat.pgrp), queue.push(...(groups.get(stat.pgrp) ?? [])));
    if (!sessionsSeen.has(stat.session) && stat.session !== hostSession) (sessionsSeen.add(stat.session), queue.push(...(sessions.get(stat.session) ?? [])));
  }
  return [...ours].sort((a, b) => a - b).map((pid) => ({ pid, identity: procIdentity(snapshot.get(pid)!), pgrp: snapshot.get(pid)!.pgrp }));
}

/**
 * The environment variable every process the host starts is given, holding
 * a random id of its tree (see childTree.ts `markedEnvironment`): children
 * inherit it, so a process that left the tree's group and session and lost
 * its parent link (a double fork with setsid: its parent exits at once, and
 * it is adopted by init before any look at /proc sees it below the server)
 * is still found by it. Only processes of this user show their environment.
 */
export const TREE_MARKER_VAR = 'CHATOS_TREE';

/**
 * The processes of `snapshot` that carry `CHATOS_TREE=<marker>` in their
 * environment (as they were started), as seeds for `treeIn`; never the host
 * itself. Linux only: elsewhere there is no /proc to read it from, and this
 * finds nothing (macOS could read it with `ps -E`, Windows has job objects;
 * neither is used yet, so there a double-forked grandchild outlives its
 * server: ending a tree reaches its process group, and on Windows its
 * parent links). `leader`: the tree's leader, when its identity is known:
 * no process started before it can carry its marker.
 */
export function markedIn(snapshot: ProcSnapshot, marker: string, leader?: TrackedProcess): TrackedProcess[] {
  const entry = Buffer.from(`${TREE_MARKER_VAR}=${marker}`);
  const marked: TrackedProcess[] = [];
  const leaderStart = leader === undefined ? undefined : startTicksOf(leader.identity);
  for (const [pid, stat] of snapshot) {
    if (pid === process.pid || pid <= 1) continue;
    // Only the leader's descendants carry its marker, and none of them started before it: an older process's
    // environment is not read (each read is a read of that process's memory, and most of a machine is older).
    if (leaderStart !== undefined && Number(stat.startTime) < leaderStart) continue;
    const environ = readProcFile(`/proc/${pid}/environ`);
    if (environ === undefined) continue; // another user's process (EACCES), or gone meanwhile
    if (hasEntry(environ, entry)) marked.push({ pid, identity: procIdentity(stat) });
  }
  return marked;
}

/**
 * One buffer for every read of a /proc file's bytes, grown when a file does
 * not fit. A scan reads the environment of every process on the machine,
 * a few scans per server stopped, and fs.readFileSync allocates two or more
 * fresh 8 KiB ArrayBuffers for each (/proc says its files are empty, so it
 * reads in chunks), in malloc's heap and freed only at a later collection:
 * ~2 MiB per scan with 150 processes, and glibc's heap kept the high-water
 * mark (it grew from 16 to 49 MiB over 1,000 chat turns, issue 39).
 */
let procScratch = Buffer.allocUnsafeSlow(64 * 1024);

/** A /proc file's bytes, in `procScratch` (valid until the next call); undefined when it cannot be read. */
function readProcFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === procScratch.length) {
        const grown = Buffer.allocUnsafeSlow(procScratch.length * 2);
        procScratch.copy(grown);
        procScratch = grown;
      }
      const read = fs.readSync(fd, procScratch, length, procScratch.length - length, null);
      if (read === 0) return procScratch.subarray(0, length);
      length += read;
    }
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the NUL-separated environment holds exactly this `NAME=value` entry. */
function hasEntry(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at >= 0; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length;
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** The members of process group `pgid` in `snapshot`, as seeds for `treeIn`. */
export function groupIn(snapshot: ProcSnapshot, pgid: number): TrackedProcess[] {
  const members: TrackedProcess[] = [];
  for (const [pid, stat] of snapshot) if (stat.pgrp === pgid) members.push({ pid, identity: procIdentity(stat) });
  return members;
}

/** The host's own group and session: a tree that shares either (it was not started detached) is walked by parent links alone. */
const hostStat = hasProc ? readProcStat(process.pid) : undefined;
const hostGroup = hostStat?.pgrp ?? -1;
const hostSession = hostStat?.session ?? -1;

/** The tracked processes that still run as themselves: one stat each, no scan of the machine. */
export function stillRunning<T extends TrackedProcess>(processes: readonly T[]): T[] {
  return processes.filter((tracked) => {
    const stat = readProcStat(tracked.pid);
    return stat !== undefined && !isDead(stat.state) && procIdentity(stat) === tracked.identity;
  });
}

/** Sends `signal` to each process, after checking it still is the one tracked; never throws. */
export function signalProcesses(processes: readonly TrackedProcess[], signal: 'SIGTERM' | 'SIGKILL'): void {
  for (const tracked of stillRunning(processes)) {
    try {
      process.kill(tracked.pid, signal);
    } catch {
      // Gone meanwhile, or no longer ours to signal.
    }
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
