import * as fs from 'node:fs';
import * as path from 'node:path';
import { sameStamp, stampFile } from '../files/fileStamps.js';
import { systemScheduler, type Scheduler } from '../ports.js';

export interface WatchTarget {
  /** A file or folder. A file is watched through its folder, since editors replace files by rename. */
  path: string;
  recursive?: boolean;
}

export interface ChangeWatcherOptions {
  /** Editors write through temp files and several writes: wait this long after the last event. */
  debounceMs?: number;
  /** Polling fallback for file systems whose events are unreliable (network shares, some containers). */
  pollMs?: number;
  /** Cheap check run on every poll: true when something changed since the last one. */
  poll?: () => boolean;
  /** Where the debounce and the poll wait: the system's by default; a test's moves only when the test says. */
  scheduler?: Scheduler;
}

/**
 * `fs.watch` plus a polling fallback, debounced (docs/rules/mcp-yaml.md#hot-reload). The
 * callback runs at most once per burst of changes and never twice at once:
 * a change arriving while it runs schedules exactly one more run.
 */
export class ChangeWatcher {
  private watchers: fs.FSWatcher[] = [];
  private timer: unknown;
  private pollTimer: unknown;
  private running: Promise<void> | undefined;
  private again = false;
  private disposed = false;
  private readonly scheduler: Scheduler;

  constructor(
    private readonly targets: readonly WatchTarget[],
    private readonly onChange: () => Promise<void> | void,
    private readonly options: ChangeWatcherOptions = {},
  ) {
    this.scheduler = options.scheduler ?? systemScheduler;
  }

  start(): void {
    for (const target of this.targets) this.watch(target);
    if (this.options.poll && this.options.pollMs) this.pollAgain(this.options.poll, this.options.pollMs);
  }

  /** The next poll, `ms` from now; each poll arms the one after it (the scheduler has timeouts, not intervals). */
  private pollAgain(poll: () => boolean, ms: number): void {
    this.pollTimer = this.scheduler.setTimeout(() => {
      if (this.disposed) return;
      if (poll()) this.trigger();
      this.pollAgain(poll, ms);
    }, ms);
  }

  private watch(target: WatchTarget): void {
    const isDir = fs.statSync(target.path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    const dir = isDir ? target.path : path.dirname(target.path);
    const name = isDir ? undefined : path.basename(target.path);
    try {
      const watcher = fs.watch(dir, { recursive: isDir && target.recursive === true, persistent: false }, (_event, file) => {
        if (name === undefined || file === null || String(file) === name) this.trigger();
      });
      watcher.on('error', () => watcher.close()); // the folder went away: polling still covers it
      this.watchers.push(watcher);
    } catch {
      // Missing folder or no inotify: the poll fallback covers it.
    }
  }

  /** Schedules a run after the debounce window. */
  trigger(): void {
    if (this.disposed) return;
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = this.scheduler.setTimeout(() => void this.run(), this.options.debounceMs ?? 150);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        await this.onChange();
      } catch {
        // The callback reports its own problems; a failed reload must not stop watching.
      }
    })();
    await this.running;
    this.running = undefined;
    if (this.again && !this.disposed) {
      this.again = false;
      await this.run();
    }
  }

  /** Waits for a run in progress (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    if (this.pollTimer !== undefined) this.scheduler.clearTimeout(this.pollTimer);
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }
}

/** A poll check for one file: true when its mtime, size or inode changed (or it appeared or vanished). */
export function fileChangedCheck(file: string): () => boolean {
  let last = stampFile(file);
  return () => {
    const now = stampFile(file);
    const changed = !sameStamp(now, last);
    last = now;
    return changed;
  };
}

/** Several change checks as one: each is asked every time (so each keeps its own last stamp), any change counts. */
export function anyChanged(...checks: (() => boolean)[]): () => boolean {
  return () => checks.map((check) => check()).some(Boolean);
}
