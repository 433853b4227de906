import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import { TrustRecordSchema, type RunPlan, type TrustRecord, type TrustState } from '../../shared/trust.js';
import type { Clock } from '../host.js';
import { defineTable } from '../store/logicalTable.js';
import { HOT_READ_MAX_AGE_MS, type RecordsStore } from '../store/recordsStore.js';
import { diffFiles, type Fingerprinter } from './pluginFingerprint.js';

export const PluginTrustTable = defineTable('pluginTrust', TrustRecordSchema);

/**
 * How long the call path reuses a plugin's "may run" answer before walking
 * its folder again. A walk stats every file (thousands, with node_modules),
 * which cost more than the tool call itself when done on each one.
 */
export const TRUST_RECHECK_MS = 1_000;

/** What a plugin would run: the exact argv of each server, each page entry, its backend. */
export function runPlanOf(plugin: PluginRecord, apps: readonly AppContribution[], backendEntry?: string): RunPlan {
  const own = apps.filter((a) => a.pluginDir === plugin.dir);
  return {
    servers: own
      .filter((a) => a.mcp)
      .map((a) => ({ appId: a.appId, serverName: a.serverName, command: a.mcp!.command ? [a.mcp!.command, ...(a.mcp!.args ?? [])] : undefined, url: a.mcp!.url })),
    pages: own.map((a) => ({ appId: a.appId, entry: a.entry.path, compact: a.entry.compactPath })),
    backend: backendEntry,
  };
}

/**
 * Trust for plugins outside the built-in root (DESIGN.md "Scan"): pinned to
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
    if (plugin.source === 'builtin') return { state: 'builtin' };
    if (!plugin.id) return { state: 'untrusted' };
    this.store.refresh();
    const record = this.store.get(PluginTrustTable, plugin.id)?.payload;
    const current = this.fingerprinter.fingerprint(plugin.dir);
    if (!record) return { state: 'untrusted', fingerprint: current.fingerprint };
    if (record.fingerprint === current.fingerprint) return { state: 'trusted', trustedAt: record.trustedAt, fingerprint: record.fingerprint };
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

  trust(plugin: PluginRecord & { id: string }, runPlan: RunPlan): TrustRecord {
    const current = this.fingerprinter.fingerprint(plugin.dir);
    const record: TrustRecord = {
      pluginId: plugin.id,
      dir: plugin.dir,
      fingerprint: current.fingerprint,
      files: current.files,
      trustedAt: new Date(this.clock.now()).toISOString(),
      runPlan,
    };
    this.store.put(PluginTrustTable, plugin.id, record);
    return record;
  }

  untrust(pluginId: string): boolean {
    this.store.refresh();
    return this.store.delete(PluginTrustTable, pluginId);
  }

  /** Plugin ids with a stored trust record (some may no longer be installed). */
  trustedIds(): string[] {
    this.store.refresh();
    return this.store.list(PluginTrustTable).map((r) => r.id);
  }
}
