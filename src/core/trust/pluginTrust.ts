import type { PluginRecord } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import { TrustRecordSchema, type RunPlan, type TrustChanges, type TrustRecord, type TrustState } from '../../shared/trust.js';
import type { Clock } from '../ports.js';
import { defineTable } from '../store/logicalTable.js';
import { HOT_READ_MAX_AGE_MS, type RecordsStore } from '../store/recordsStore.js';
import { diffFiles, type Fingerprinter } from './pluginFingerprint.js';

export const PluginTrustTable = defineTable('pluginTrust', TrustRecordSchema);

/** The record is a development link's, for this plugin where it is linked now. */
const isDevLinkOf = (record: TrustRecord, plugin: PluginRecord) => record.devLink === true && plugin.source === 'dev' && record.dir === plugin.dir;

/** A plugin whose folder cannot be pinned (see Fingerprint): trusting it is refused with the reasons. */
export class TrustBlockedError extends Error {
  readonly code = 'PLUGIN_BLOCKED';
  constructor(
    readonly pluginId: string,
    readonly problems: Problem[],
  ) {
    super(`${pluginId} cannot be trusted: ${problems[0]?.message ?? 'its folder cannot be pinned'}`);
  }
}

/**
 * How long the call path reuses a plugin's "may run" answer before walking
 * its folder again. A walk stats every file (thousands, with node_modules),
 * which cost more than the tool call itself when done on each one.
 */
export const TRUST_RECHECK_MS = 1_000;

/** What keeps a plugin from being pinned (a blocked state's problems), for the listings that show a plugin's problems. */
export const blockingProblems = (state: TrustState): Problem[] => (state.state === 'blocked' ? state.problems : []);

/**
 * Trust for plugins outside the built-in root (docs/rules/trust.md#who-is-trusted): pinned to
 * a fingerprint of the plugin's whole folder and stored in the host's admin
 * DB. Any change to any file makes it untrusted again, and the state says
 * which files changed.
 */
export class PluginTrust {
  constructor(
    private readonly store: RecordsStore,
    private readonly fingerprinter: Fingerprinter,
    private readonly clock: Clock,
  ) {}

  stateOf(plugin: PluginRecord): TrustState {
    // Built-ins are trusted as shipped, but a link out of their folder blocks them too.
    if (plugin.source === 'builtin') {
      const walked = this.fingerprinter.fingerprint(plugin.dir, { hash: false });
      return walked.ok ? { state: 'builtin' } : { state: 'blocked', problems: walked.problems };
    }
    if (!plugin.id) return { state: 'untrusted' };
    this.store.refresh();
    const record = this.store.get(PluginTrustTable, plugin.id)?.payload;
    const current = this.fingerprinter.fingerprint(plugin.dir);
    if (!current.ok) return { state: 'blocked', problems: current.problems };
    if (!record) return { state: 'untrusted', fingerprint: current.fingerprint };
    if (record.fingerprint === current.fingerprint) return { state: 'trusted', trustedAt: record.trustedAt, fingerprint: record.fingerprint };
    // A linked folder the user trusted as such: an edit is development, re-pinned by the next rescan (repinDevLink), not a reason to stop it.
    if (isDevLinkOf(record, plugin)) return { state: 'trusted', trustedAt: record.trustedAt, fingerprint: current.fingerprint };
    return { state: 'changed', trustedAt: record.trustedAt, fingerprint: current.fingerprint, changes: diffFiles(record.files, current.files) };
  }

  isRunnable(plugin: PluginRecord): boolean {
    const state = this.stateOf(plugin).state;
    return state === 'builtin' || state === 'trusted';
  }

  private recent = new WeakMap<PluginRecord, { revision: number; at: number; runnable: boolean }>();

  /** After a rescan: the next isRunnableNow of every plugin checks its folder again. */
  forgetRecentChecks(): void {
    this.recent = new WeakMap();
  }

  /**
   * isRunnable for every tool call: the answer for this plugin record is
   * reused while the trust records are unchanged (the admin DB's revision,
   * looked at as every call does), until the next rescan (the watcher's, on
   * any change in a plugin folder), and for at most TRUST_RECHECK_MS. So
   * `chatos untrust` or an edit the watcher sees stops the next call, and
   * an edit nothing reported stops calls within a second.
   */
  isRunnableNow(plugin: PluginRecord): boolean {
    this.store.refreshIfOlderThan(HOT_READ_MAX_AGE_MS);
    const revision = this.store.revision;
    const now = this.clock.now();
    const known = this.recent.get(plugin);
    if (known && known.revision === revision && now - known.at < TRUST_RECHECK_MS && now >= known.at) return known.runnable;
    const runnable = this.isRunnable(plugin);
    this.recent.set(plugin, { revision: this.store.revision, at: now, runnable });
    return runnable;
  }

  /**
   * A development link's edits since it was last pinned: pinned now (the
   * record keeps being a link's), with the files that changed and the run
   * plan before; undefined when nothing changed or it is no linked plugin.
   */
  repinDevLink(plugin: PluginRecord & { id: string }, runPlan: RunPlan): { changes: TrustChanges; before: RunPlan; record: TrustRecord } | undefined {
    this.store.refresh();
    const record = this.store.get(PluginTrustTable, plugin.id)?.payload;
    if (!record || !isDevLinkOf(record, plugin)) return undefined;
    const current = this.fingerprinter.fingerprint(plugin.dir);
    if (!current.ok || current.fingerprint === record.fingerprint) return undefined;
    return { changes: diffFiles(record.files, current.files), before: record.runPlan, record: this.trust(plugin, runPlan, { devLink: true }) };
  }

  /** Pins the folder's current content; a folder that cannot be pinned throws TrustBlockedError with its problems. */
  trust(plugin: PluginRecord & { id: string }, runPlan: RunPlan, options: { devLink?: boolean } = {}): TrustRecord {
    const current = this.fingerprinter.fingerprint(plugin.dir);
    if (!current.ok) throw new TrustBlockedError(plugin.id, current.problems);
    const record: TrustRecord = {
      pluginId: plugin.id,
      dir: plugin.dir,
      fingerprint: current.fingerprint,
      files: current.files,
      trustedAt: new Date(this.clock.now()).toISOString(),
      runPlan,
      ...(options.devLink ? { devLink: true } : {}),
    };
    this.store.put(PluginTrustTable, plugin.id, record);
    return record;
  }

  /** Takes back the trust of a development link at `dir`, and only that: a copy of the same id trusted elsewhere keeps its own. */
  untrustDevLink(pluginId: string, dir: string): boolean {
    this.store.refresh();
    const record = this.store.get(PluginTrustTable, pluginId)?.payload;
    return record?.devLink === true && record.dir === dir ? this.store.delete(PluginTrustTable, pluginId) : false;
  }

  untrust(pluginId: string): boolean {
    this.store.refresh();
    return this.store.delete(PluginTrustTable, pluginId);
  }

  /** Each stored trust record as plugin id → what was pinned and when: two reads differ exactly when a record was added, removed or replaced. */
  records(): Map<string, string> {
    return new Map(this.store.list(PluginTrustTable).map((row) => [row.id, `${row.payload.fingerprint} ${row.payload.trustedAt}`]));
  }

  /** Plugin ids with a stored trust record (some may no longer be installed). */
  trustedIds(): string[] {
    this.store.refresh();
    return this.store.list(PluginTrustTable).map((r) => r.id);
  }
}
