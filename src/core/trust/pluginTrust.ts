import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import { TrustRecordSchema, type RunPlan, type TrustRecord, type TrustState } from '../../shared/trust.js';
import type { Clock } from '../host.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { diffFiles, type Fingerprinter } from './pluginFingerprint.js';

export const PluginTrustTable = defineTable('pluginTrust', TrustRecordSchema);

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
