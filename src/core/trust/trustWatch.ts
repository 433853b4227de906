import type { Scheduler } from '../ports.js';

/** How often the admin DB is looked at for trust records another process changed: a stat, unless it changed. */
export const TRUST_POLL_MS = 1_000;

/**
 * Notices trust records changed by another process (`chatos untrust`,
 * `chatos uninstall` or `trust` beside a running app or `chatos serve`):
 * every poll asks the store whether its file changed, and only then reads
 * the trust records. On a change, whatever may no longer run is stopped
 * (`stopNow`) and the listener told which plugins changed or were stopped.
 * A poll costs a stat of the admin DB, so a second is short enough for a
 * user who untrusts in a terminal and looks at the app.
 */
export class TrustWatch {
  private timer: unknown;
  private running = false;
  private last: ReadonlyMap<string, string> = new Map();
  private revision = -1;

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      /** The store's revision, after looking at the file. */
      revision: () => number;
      /** Each trusted plugin id with what was pinned (fingerprint and time). */
      records: () => ReadonlyMap<string, string>;
      /** Trust answers cached by this process are stale now. */
      forget: () => void;
      stopNow: () => Promise<string[]>;
      onChange: (pluginIds: string[]) => void;
      onError?: (error: unknown) => void;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.revision = this.deps.revision();
    this.last = this.deps.records();
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.deps.scheduler.setTimeout(() => void this.tick(), TRUST_POLL_MS);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.running) return;
    try {
      await this.check();
    } catch (error) {
      this.deps.onError?.(error);
    }
    if (this.running) this.schedule();
  }

  /** One look at the store: trust records another process (or this one) added, removed or replaced. */
  async check(): Promise<void> {
    const revision = this.deps.revision();
    if (revision === this.revision) return;
    this.revision = revision;
    const now = this.deps.records();
    const changed = [...new Set([...now.keys(), ...this.last.keys()])].filter((id) => now.get(id) !== this.last.get(id));
    this.last = now;
    if (changed.length === 0) return;
    this.deps.forget();
    await this.stop(changed);
  }

  /**
   * Stops what may no longer run and tells the listener about `changed` (the
   * plugins whose trust records changed) and every plugin something was
   * stopped of. Called by a rescan too: a plugin whose files were edited
   * since it was trusted (changed) stops with no trust record touched.
   */
  async stop(changed: readonly string[] = []): Promise<void> {
    const stopped = await this.deps.stopNow();
    const told = [...new Set([...changed, ...stopped])].sort();
    if (told.length > 0) this.deps.onChange(told);
  }

  dispose(): void {
    this.running = false;
    if (this.timer !== undefined) this.deps.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
