import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { endProcessTree } from './endProcessTree.js';
import { hasProcFs, isAlive, markedIn, processArgv, processIdentity, procSnapshot, type TrackedProcess } from './processTree.js';
import { ProcessTreeWatch } from './processTreeWatch.js';
import type { TreeRecord } from './childTree.js';
import { readRegularText } from '../files/readRegularFile.js';

const TrackedProcessSchema = z.object({ pid: z.number().int().positive(), identity: z.string() });

export const PidRecordSchema = z.object({
  /** An MCP server, or a plugin's backend process (files written before backends were recorded have no kind). */
  kind: z.enum(['server', 'backend']).default('server'),
  /** The server's registry id; for a backend, its plugin's id. */
  serverId: z.string(),
  /** The server's direct child; on POSIX also its process group and session id. */
  pid: z.number().int().positive(),
  /** `processIdentity(pid)` at spawn: tells the server from a later process that reused the pid. */
  identity: z.string().optional(),
  command: z.string(),
  recordedAt: z.string(),
  /** Linux: the processes found below the server while it ran (every ~2 s), each with its start time, so a crash of the host leaves nothing the next start cannot find. */
  descendants: z.array(TrackedProcessSchema).default([]),
  /** The tree's `CHATOS_TREE` value: on Linux every process still carrying it is reaped, one that double-forked away included (files from before it have none). */
  marker: z.string().uuid().optional(),
});
export type PidRecord = z.infer<typeof PidRecordSchema>;

/** `<runDir>/mcp-<hostPid>.json`: the servers and plugin backends one host process has running. */
export const PidFileSchema = z.object({
  version: z.literal(1),
  hostPid: z.number().int().positive(),
  hostIdentity: z.string().optional(),
  servers: z.array(PidRecordSchema),
});
export type PidFile = z.infer<typeof PidFileSchema>;

const PID_FILE = /^mcp-(\d+)\.json$/;

export interface ReapOptions {
  /** Between SIGTERM and SIGKILL of an orphaned tree; default 1500 ms. */
  termGraceMs?: number;
}

/**
 * Remembers on disk which server and backend trees this host process started, so that
 * after a crash (or SIGKILL) of the host the next start can end them. One
 * file per host process means no two writers ever share a file, so no lock
 * is needed; each write replaces the file atomically (temp + rename).
 */
export class PidRegistry {
  private readonly servers = new Map<number, PidRecord>();
  private readonly hostIdentity: string | undefined;
  /** Each running server's descendants, looked for every 2 s; a change is written to the file at once. */
  private readonly trees = new ProcessTreeWatch({ onChange: (pid, descendants) => this.updateDescendants(pid, descendants) });
  readonly file: string;

  constructor(
    readonly runDir: string,
    private readonly hostPid: number = process.pid,
  ) {
    this.file = path.join(runDir, `mcp-${hostPid}.json`);
    this.hostIdentity = processIdentity(hostPid);
  }

  /** Throws if the file cannot be written; the caller decides whether that stops the process. `serverId`: for a backend, its plugin's id. */
  record(serverId: string, pid: number, command: string, kind: PidRecord['kind'] = 'server', marker?: string): void {
    const identity = processIdentity(pid);
    this.servers.set(pid, { kind, serverId, pid, command, recordedAt: new Date().toISOString(), ...(identity ? { identity } : {}), descendants: [], ...(marker ? { marker } : {}) });
    this.save();
    if (identity) this.trees.add({ pid, identity });
  }

  forget(pid: number): void {
    this.trees.remove(pid);
    if (this.servers.delete(pid)) this.save();
  }

  /**
   * One tree's record here, as a started child keeps it: written when it
   * starts, its descendants watched, dropped when it has ended; what survived
   * SIGKILL stays recorded for the next start to reap. A failed write is told
   * to `warn`: a tree that cannot be recorded still runs.
   */
  treeRecord(serverId: string, command: string, kind: PidRecord['kind'], warn: (message: string) => void): TreeRecord {
    return {
      started: (pid, _identity, marker) => {
        try {
          this.record(serverId, pid, command, kind, marker);
        } catch (error) {
          warn(`could not record pid ${pid} of ${serverId} for orphan cleanup: ${(error as Error).message}`);
        }
      },
      descendantsOf: (pid) => this.descendantsOf(pid),
      ended: (pid, survivors) => {
        if (survivors.length > 0) return warn(`pids ${survivors.join(', ')} are left in the pid registry for the next start to reap`);
        try {
          this.forget(pid);
        } catch (error) {
          warn(`could not update the pid registry: ${(error as Error).message}`);
        }
      },
    };
  }

  /** What was found below the server while it ran: the processes ending it must reach even when their parent is gone (a walk at stop time finds the rest). */
  descendantsOf(pid: number): readonly TrackedProcess[] {
    return this.trees.descendantsOf(pid);
  }

  private updateDescendants(pid: number, descendants: readonly TrackedProcess[]): void {
    const record = this.servers.get(pid);
    if (!record) return;
    this.servers.set(pid, { ...record, descendants: descendants.map(({ pid: child, identity }) => ({ pid: child, identity })) });
    try {
      this.save();
    } catch {
      // The next change, or forget(), writes the file again; a failed write must not stop the watch.
    }
  }

  /** What this host has recorded and not forgotten. */
  list(): PidRecord[] {
    return [...this.servers.values()];
  }

  private save(): void {
    if (this.servers.size === 0) {
      fs.rmSync(this.file, { force: true });
      return;
    }
    const content: PidFile = { version: 1, hostPid: this.hostPid, ...(this.hostIdentity ? { hostIdentity: this.hostIdentity } : {}), servers: this.list() };
    fs.mkdirSync(this.runDir, { recursive: true });
    const temp = `${this.file}.tmp-${randomBytes(6).toString('hex')}`;
    try {
      fs.writeFileSync(temp, JSON.stringify(content, null, 2) + '\n');
      fs.renameSync(temp, this.file);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
  }

  /**
   * Ends the server trees of host processes that are gone, then deletes their
   * files. Only processes that still are the very ones recorded are ended
   * (same start time; where that is unknown, the leader's command line), with
   * what now runs below them: a pid reused by an unrelated process is left
   * alone, and a tree whose leader died is still ended through its recorded
   * descendants.
   */
  static async reapOrphans(runDir: string, options: ReapOptions = {}): Promise<{ reaped: { kind: PidRecord['kind']; serverId: string; pid: number }[] }> {
    const reaped: { kind: PidRecord['kind']; serverId: string; pid: number }[] = [];
    for (const name of safeReaddir(runDir)) {
      const hostPid = Number(PID_FILE.exec(name)?.[1]);
      if (!hostPid || hostPid === process.pid) continue;
      const file = path.join(runDir, name);
      const content = readPidFile(file);
      if (content && hostStillRuns(content)) continue;
      if (!content && isAlive(hostPid)) continue; // unreadable, but maybe its host is mid-write: leave it
      for (const record of content?.servers ?? []) {
        if (await endOrphanTree(record, options.termGraceMs ?? 1500)) reaped.push({ kind: record.kind, serverId: record.serverId, pid: record.pid });
      }
      for (const stale of safeReaddir(runDir)) {
        if (stale === name || stale.startsWith(`${name}.tmp-`)) fs.rmSync(path.join(runDir, stale), { force: true });
      }
    }
    return { reaped };
  }
}

function hostStillRuns(content: PidFile): boolean {
  if (!isAlive(content.hostPid)) return false;
  const now = processIdentity(content.hostPid);
  return !content.hostIdentity || !now || now === content.hostIdentity;
}

/** Without /proc only the leader can be checked, by its command line: this errs towards not killing (a launcher may rewrite its title, as npm does). */
function isSameLeader(record: PidRecord): boolean {
  if (!isAlive(record.pid)) return false;
  const identity = processIdentity(record.pid);
  if (record.identity && identity) return identity === record.identity;
  const argv = processArgv(record.pid);
  if (!argv) return false;
  const base = path.basename(record.command);
  return argv.slice(0, 2).some((arg) => arg === record.command || path.basename(arg) === base);
}

/**
 * Ends what is left of a dead host's server: on Linux, every recorded process
 * (the leader and its descendants) that is still the same process by start
 * time and every process carrying the tree's marker, with whatever is now
 * below them and their groups; the leader need not be alive. Elsewhere, the
 * leader's group, if the leader still is the server.
 */
async function endOrphanTree(record: PidRecord, termGraceMs: number): Promise<boolean> {
  const known = record.descendants;
  const linux = hasProcFs();
  const recordedThere = () => [{ pid: record.pid, identity: record.identity }, ...known].some((p) => p.identity !== undefined && processIdentity(p.pid) === p.identity);
  // A process carrying the tree's marker is the tree's whatever its pid: one that double-forked away was never recorded.
  const markedThere = () =>
    record.marker !== undefined && markedIn(procSnapshot() ?? new Map(), record.marker, record.identity === undefined ? undefined : { pid: record.pid, identity: record.identity }).length > 0;
  const stillThere = linux ? recordedThere() || markedThere() : isSameLeader(record);
  if (!stillThere) return false;
  await endProcessTree({
    leader: { pid: record.pid, identity: record.identity },
    // Not our child: there is no exit event to wait for, only the tree to watch.
    leaderExited: Promise.resolve(),
    known,
    ...(record.marker === undefined ? {} : { marker: record.marker }),
    termGraceMs,
    killWaitMs: 5000,
    // A crash may be long past: the group counts only through a member that is still a recorded process.
    ownsLeaderGroup: !linux,
    log: () => {},
  });
  return true;
}

/** A pid file lists a host's servers and backends: far less than this. */
const MAX_PID_FILE_BYTES = 4 * 1024 * 1024;

/** Read at every host start: a FIFO or a link in the run folder is no pid file (and must not hang the start). */
function readPidFile(file: string): PidFile | undefined {
  const read = readRegularText(file, { maxBytes: MAX_PID_FILE_BYTES, noFollow: true });
  if (!read.ok) return undefined;
  try {
    const parsed = PidFileSchema.safeParse(JSON.parse(read.text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
