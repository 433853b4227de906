import {
  groupIn,
  groupMembers,
  hasProcFs,
  markedIn,
  procSnapshot,
  signalProcesses,
  signalTree,
  sleep,
  stillRunning,
  treeIn,
  withTimeout,
  type TrackedProcess,
  type TreeMember,
} from './processTree.js';

export interface EndTreeOptions {
  /** The process the host started: the leader of its own group and session on POSIX. `identity` is undefined where the platform cannot tell. */
  leader: { pid: number; identity: string | undefined };
  /** Resolves when the leader has exited (its 'exit' event). */
  leaderExited: Promise<void>;
  /** Processes found below the leader while it ran (ProcessTreeWatch): a walk now cannot reach one whose parent already died. */
  known?: readonly TrackedProcess[];
  /** The tree's `CHATOS_TREE` value: every process still carrying it is part of the tree, whatever its parent, group or session. */
  marker?: string;
  /** Asked first, while the leader runs: end stdin, or a dispose message. */
  gentle?: { ask(): void; waitMs: number; said: string };
  /** After SIGTERM, before SIGKILL. */
  termGraceMs: number;
  /** After SIGKILL: only a process stuck in uninterruptible I/O lingers; the host does not wait on it for ever. */
  killWaitMs: number;
  /**
   * Whether every member of the leader's process group is ours without
   * further proof: true for a leader this host spawned (until the group is
   * seen empty, after which its id may be reused), false when reaping after
   * a crash (then the group counts only through a member that is still a
   * recorded process).
   */
  ownsLeaderGroup: boolean;
  log(kind: 'lifecycle' | 'fault', message: string): void;
}

/** Between looks at whether the tree is gone. */
const POLL_MS = 25;

/**
 * Ends everything the host started under one leader: the one shutdown
 * sequence for MCP servers and plugin backends. The gentle step if there is
 * one, then SIGTERM, then SIGKILL, each only while something still runs and
 * each to the whole tree: the leader's process group (a launcher such as npx
 * leaves the real server as a grandchild) and, on Linux, every descendant,
 * including those that left the group with setsid, found by parent links
 * now, recorded while the tree ran, or carrying the tree's marker in their
 * environment (a double fork leaves no parent link to follow). A pid is
 * checked to still be the same process (start time) before it is
 * signalled. Resolves with the pids that survived SIGKILL: none when the
 * tree is gone.
 */
export async function endProcessTree(options: EndTreeOptions): Promise<{ survivors: number[] }> {
  const { log } = options;
  let exited = false;
  void options.leaderExited.then(() => (exited = true));
  // Walked now, before the leader can exit and orphan its children (their parent links go with it).
  const tree = new Tree(options.leader, options.known ?? [], options.ownsLeaderGroup, options.marker);
  const goneWithin = async (ms: number) => {
    const deadline = Date.now() + ms;
    if (!exited && !(await withTimeout(options.leaderExited, ms))) return false;
    // No event says a group or a grandchild is gone: poll.
    for (;;) {
      if (tree.gone()) return true;
      if (Date.now() >= deadline) return false;
      await sleep(POLL_MS);
    }
  };

  if (!(await goneWithin(0)) && options.gentle && !exited) {
    log('lifecycle', options.gentle.said);
    options.gentle.ask();
    await goneWithin(options.gentle.waitMs);
  }
  for (const [signal, waitMs] of [
    ['SIGTERM', options.termGraceMs],
    ['SIGKILL', options.killWaitMs],
  ] as const) {
    if (await goneWithin(0)) break;
    tree.signal(signal, log);
    if (await goneWithin(waitMs)) break;
  }
  if (tree.gone()) {
    log('lifecycle', 'process tree ended');
    return { survivors: [] };
  }
  const survivors = tree.running().map((member) => member.pid);
  log('fault', `process group ${options.leader.pid} survived SIGKILL (pids ${survivors.join(', ') || 'unknown'})`);
  return { survivors };
}

/** The processes of one tree, refreshed as it is ended: gone ones dropped, new ones found. */
class Tree {
  private members: TreeMember[];
  private readonly hasProc: boolean;

  constructor(
    private readonly leader: EndTreeOptions['leader'],
    known: readonly TrackedProcess[],
    private ownsGroup: boolean,
    private readonly marker: string | undefined,
  ) {
    // Whether /proc exists, not a scan of it: the walk below reads it once.
    this.hasProc = hasProcFs();
    this.members = this.walk(known);
  }

  /**
   * A fresh walk from the leader, every process known so far, every process
   * carrying the tree's marker (one that double-forked away from it) and,
   * while it is ours, the leader's group (it outlives the leader, and its id
   * is not reused while a member is left).
   */
  private walk(known: readonly TrackedProcess[]): TreeMember[] {
    const snapshot = procSnapshot();
    if (!snapshot) return [];
    const leader = this.leader.identity ? [{ pid: this.leader.pid, identity: this.leader.identity }] : [];
    const group = this.ownsGroup ? groupIn(snapshot, this.leader.pid) : [];
    if (group.length === 0) this.ownsGroup = false;
    const marked = this.marker === undefined ? [] : markedIn(snapshot, this.marker, leader[0]);
    return treeIn(snapshot, [...leader, ...group, ...known, ...marked]);
  }

  /** What still runs: the members found before, one stat each; once those are gone, one more walk for any the tree made since. */
  running(): TreeMember[] {
    const left = stillRunning(this.members);
    this.members = left.length > 0 ? left : this.walk(this.members);
    return this.members;
  }

  /** Without /proc only the leader's group can be seen. */
  gone(): boolean {
    return this.hasProc ? this.running().length === 0 : groupMembers(this.leader.pid).length === 0;
  }

  signal(signal: 'SIGTERM' | 'SIGKILL', log: EndTreeOptions['log']): void {
    const members = this.running();
    // The group as a whole (which also reaches a member forked a moment ago) only while it is provably ours.
    const groupIsOurs = this.ownsGroup || members.some((member) => member.pgrp === this.leader.pid);
    if (groupIsOurs) {
      log('lifecycle', `${signal} to process group ${this.leader.pid}`);
      signalTree(this.leader.pid, signal);
    }
    const outside = groupIsOurs ? members.filter((member) => member.pgrp !== this.leader.pid) : members;
    if (outside.length === 0) return;
    log('lifecycle', `${signal} to ${outside.length} descendant(s) outside that group (pids ${outside.map((member) => member.pid).join(', ')})`);
    signalProcesses(outside, signal);
  }
}
