import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { isAlive, processArgv, processIdentity, signalTree, waitGroupGone } from './processTree.js';

export const PidRecordSchema = z.object({
  serverId: z.string(),
  /** The server's direct child; on POSIX also its process group id. */
  pid: z.number().int().positive(),
  /** `processIdentity(pid)` at spawn: tells the server from a later process that reused the pid. */
  identity: z.string().optional(),
  command: z.string(),
  recordedAt: z.string(),
});
export type PidRecord = z.infer<typeof PidRecordSchema>;

/** `<runDir>/mcp-<hostPid>.json`: the servers one host process has running. */
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
 * Remembers on disk which server trees this host process started, so that
 * after a crash (or SIGKILL) of the host the next start can end them. One
 * file per host process means no two writers ever share a file, so no lock
 * is needed; each write replaces the file atomically (temp + rename).
 */
export class PidRegistry {
  private readonly servers = new Map<number, PidRecord>();
  private readonly hostIdentity: string | undefined;
  readonly file: string;

  constructor(
    readonly runDir: string,
    private readonly hostPid: number = process.pid,
  ) {
    this.file = path.join(runDir, `mcp-${hostPid}.json`);
    this.hostIdentity = processIdentity(hostPid);
  }

  /** Throws if the file cannot be written; the caller decides whether that stops the server. */
  record(serverId: string, pid: number, command: string): void {
    const identity = processIdentity(pid);
    this.servers.set(pid, { serverId, pid, command, recordedAt: new Date().toISOString(), ...(identity ? { identity } : {}) });
    this.save();
  }

  forget(pid: number): void {
    if (this.servers.delete(pid)) this.save();
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
   * files. A tree is ended only if its leader still is the very process that
   * was recorded (same start time, or where that is unknown, same command
   * line): a pid reused by an unrelated process is left alone.
   */
  static async reapOrphans(runDir: string, options: ReapOptions = {}): Promise<{ reaped: { serverId: string; pid: number }[] }> {
    const reaped: { serverId: string; pid: number }[] = [];
    for (const name of safeReaddir(runDir)) {
      const hostPid = Number(PID_FILE.exec(name)?.[1]);
      if (!hostPid || hostPid === process.pid) continue;
      const file = path.join(runDir, name);
      const content = readPidFile(file);
      if (content && hostStillRuns(content)) continue;
      if (!content && isAlive(hostPid)) continue; // unreadable, but maybe its host is mid-write: leave it
      const orphans = (content?.servers ?? []).filter(isSameProcess);
      await Promise.all(orphans.map((record) => endTree(record.pid, options.termGraceMs ?? 1500)));
      reaped.push(...orphans.map(({ serverId, pid }) => ({ serverId, pid })));
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

function isSameProcess(record: PidRecord): boolean {
  if (!isAlive(record.pid)) return false;
  const identity = processIdentity(record.pid);
  if (record.identity && identity) return identity === record.identity;
  // No start time to compare: fall back to the command line. A launcher may
  // rewrite its title (npm does), so this only ever errs towards not killing.
  const argv = processArgv(record.pid);
  if (!argv) return false;
  const base = path.basename(record.command);
  return argv.slice(0, 2).some((arg) => arg === record.command || path.basename(arg) === base);
}

async function endTree(pgid: number, termGraceMs: number): Promise<void> {
  signalTree(pgid, 'SIGTERM');
  if (await waitGroupGone(pgid, termGraceMs)) return;
  signalTree(pgid, 'SIGKILL');
  await waitGroupGone(pgid, 5000);
}

function readPidFile(file: string): PidFile | undefined {
  try {
    const parsed = PidFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
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
