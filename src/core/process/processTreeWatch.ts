import { procSnapshot, treeIn, type TrackedProcess } from './processTree.js';

export interface ProcessTreeWatchOptions {
  /** Between looks; default 2 s. */
  intervalMs?: number;
  /** A tree's members changed (the leader left out): record them where a later start can find them. */
  onChange?(leaderPid: number, descendants: readonly TrackedProcess[]): void;
}

interface Watched {
  leader: TrackedProcess;
  /** Every process seen below the leader while it ran, still running at the last look. */
  descendants: TrackedProcess[];
}

/**
 * Keeps, for each running tree, the processes found below its leader, so
 * that one whose parent died (and with it the parent link), or that left the
 * group with setsid, is still known when the tree is ended or reaped. One
 * look at /proc per interval serves every tree; nothing runs while no tree
 * is watched, and the timer never keeps the host alive. Linux only: where
 * there is no /proc, it knows nothing and ending a tree falls back to its
 * process group.
 */
export class ProcessTreeWatch {
  private readonly watched = new Map<number, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(private readonly options: ProcessTreeWatchOptions = {}) {
    this.intervalMs = options.intervalMs ?? 2_000;
  }

  add(leader: TrackedProcess): void {
    this.watched.set(leader.pid, { leader, descendants: [] });
    this.timer ??= setInterval(() => this.look(), this.intervalMs).unref();
  }

  remove(leaderPid: number): void {
    this.watched.delete(leaderPid);
    if (this.watched.size === 0) this.stop();
  }

  /** What the last look found below the leader (a fresh walk belongs to whoever ends the tree). */
  descendantsOf(leaderPid: number): readonly TrackedProcess[] {
    return this.watched.get(leaderPid)?.descendants ?? [];
  }

  /** Looks now: every tree's members, one read of /proc for all. */
  look(): void {
    const snapshot = procSnapshot();
    if (!snapshot) return;
    for (const entry of this.watched.values()) {
      const members = treeIn(snapshot, [entry.leader, ...entry.descendants]).filter((member) => member.pid !== entry.leader.pid);
      if (sameMembers(members, entry.descendants)) continue;
      entry.descendants = members;
      this.options.onChange?.(entry.leader.pid, members);
    }
  }

  dispose(): void {
    this.watched.clear();
    this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

const sameMembers = (a: readonly TrackedProcess[], b: readonly TrackedProcess[]) => a.length === b.length && a.every((member, i) => member.pid === b[i]!.pid && member.identity === b[i]!.identity);
