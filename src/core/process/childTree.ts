import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { endProcessTree, type EndTreeOptions } from './endProcessTree.js';
import { processIdentity, TREE_MARKER_VAR, withTimeout, type TrackedProcess } from './processTree.js';

/**
 * A process the host starts for plugin code (an MCP server over stdio, a
 * plugin backend) and everything it starts in turn: how it is spawned, kept
 * track of, described when it exits, and ended. Both kinds go through here,
 * so they end the same way.
 */

/** Spawn options that make the child the leader of its own session and process group on POSIX (pgid = sid = its pid): one signal reaches a launcher (npx, uvx, a shell) and whatever it started. */
export const OWN_PROCESS_GROUP = { detached: process.platform !== 'win32', windowsHide: true } as const;

/**
 * The environment a tree is started with: `env` plus `CHATOS_TREE=<a new
 * random id>`, and that id. Every process of the tree inherits it, so
 * ending the tree (or reaping it after a crash of the host) finds one that
 * double-forked away with setsid (see processTree.ts `markedIn`). Set last,
 * so no configured value replaces it; it names the tree and holds nothing
 * secret. Why not a cgroup: Node cannot spawn into one (clone3's
 * CLONE_INTO_CGROUP), moving the child in after the spawn races its first
 * forks, and a user may create one only where systemd delegated it.
 */
export function markedEnvironment(env: Readonly<Record<string, string>>): { env: Record<string, string>; marker: string } {
  const marker = randomUUID();
  const marked: Record<string, string> = {};
  // Copied as data (keys such as "__proto__" stay plain keys, as serverEnvironment writes them).
  for (const key of Object.keys(env)) Object.defineProperty(marked, key, { value: env[key], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(marked, TREE_MARKER_VAR, { value: marker, enumerable: true, writable: true, configurable: true });
  return { env: marked, marker };
}

/** A longer stderr line is logged in pieces; it is text for people, not framing. */
export const STDERR_MAX_LINE_BYTES = 16 * 1024;
/** How many of the last stderr lines, and how much of each, an exit message quotes. */
export const LAST_STDERR_LINES = 20;
export const LAST_STDERR_LINE_CHARS = 1000;
/** Between SIGTERM and SIGKILL. */
export const TERM_GRACE_MS = 1_500;
/** After SIGKILL a process can only linger in uninterruptible I/O; do not hang the host on it. */
const AFTER_KILL_MS = 5_000;
/** After exit, how long to wait for the pipes to deliver what the child wrote last (a leftover grandchild may hold them open). */
const EXIT_DRAIN_MS = 500;

/**
 * Where a started tree is kept track of outside it: a record the next start
 * of a host reaps after a crash of this one (the pid registry), and the
 * processes found below it while it ran, so ending it reaches one whose
 * parent died.
 */
export interface TreeRecord {
  /** `marker`: the tree's `CHATOS_TREE` value, kept so the next start finds what carries it. */
  started(pid: number, identity: string | undefined, marker: string | undefined): void;
  descendantsOf(pid: number): readonly TrackedProcess[];
  /** `survivors`: what SIGKILL did not end; their record is left for the next start to reap. */
  ended(pid: number, survivors: readonly number[]): void;
}

/** How an end begins: the gentle step (end stdin, a dispose message), if any, and the grace after SIGTERM. */
export interface TreeEnd {
  gentle?: EndTreeOptions['gentle'];
  termGraceMs?: number;
}

/**
 * One started child as the leader of its tree. Created as soon as the spawn
 * gave a pid, so no exit is missed; `end()` runs the shutdown sequence
 * (gentle step, SIGTERM, SIGKILL to the whole tree) once, whoever asks first.
 */
export class ChildTree {
  readonly pid: number;
  /** The child's start time, read at spawn: tells it from a later process with its pid once it has exited. */
  readonly identity: string | undefined;
  private readonly exited: Promise<void>;
  private ending: Promise<void> | undefined;

  constructor(
    child: ChildProcess,
    /** `marker`: the `CHATOS_TREE` value the child was started with (markedEnvironment), if any. */
    private readonly options: { record?: TreeRecord; log: EndTreeOptions['log']; marker?: string },
  ) {
    if (child.pid === undefined) throw new Error('ChildTree needs a spawned child (it has no pid)');
    this.pid = child.pid;
    // A listener, not events.once: an 'error' after the spawn (a failed kill or send) must not reject it.
    this.exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
    this.identity = processIdentity(this.pid);
    options.record?.started(this.pid, this.identity, options.marker);
  }

  /** Ends the tree; resolves when none of it is left (or what survived SIGKILL was left for the next start to reap). */
  end(how: TreeEnd = {}): Promise<void> {
    return (this.ending ??= this.run(how));
  }

  private async run(how: TreeEnd): Promise<void> {
    const { record, log } = this.options;
    const { survivors } = await endProcessTree({
      leader: { pid: this.pid, identity: this.identity },
      leaderExited: this.exited,
      known: record?.descendantsOf(this.pid),
      ...(this.options.marker === undefined ? {} : { marker: this.options.marker }),
      gentle: how.gentle,
      termGraceMs: how.termGraceMs ?? TERM_GRACE_MS,
      killWaitMs: AFTER_KILL_MS,
      ownsLeaderGroup: true,
      log,
    });
    record?.ended(this.pid, survivors);
  }
}

/** Resolves once the pipes have closed, or after a short wait: the last lines a child wrote before it exited. */
export async function pipesDrained(streams: readonly Readable[]): Promise<void> {
  await withTimeout(Promise.all(streams.map((stream) => (stream.closed ? Promise.resolve() : once(stream, 'close').catch(() => {})))), EXIT_DRAIN_MS);
}

/** How a child ended, for the calls it leaves unanswered: `<subject> exited with code 1; last stderr: …`. */
export function exitText(subject: string, exit: { code: number | null; signal: NodeJS.Signals | null }, lastStderr: readonly string[]): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const said = lastStderr.length > 0 ? `; last stderr:\n${lastStderr.map((line) => `  ${line}`).join('\n')}` : ' (it wrote nothing to stderr)';
  return `${subject} ${how}${said}`;
}
