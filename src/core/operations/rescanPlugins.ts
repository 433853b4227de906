import type { HostEvent } from '../hostEvents.js';
import type { ScanResult } from '../contributions/pluginScanner.js';
import type { HostModules } from '../runtime/hostModules.js';
import { repinDevLinks } from './devLinks.js';
import { serverIdsOf } from './pluginLifecycle.js';
import type { PluginTrust } from '../trust/pluginTrust.js';
import type { ReloadReport } from '../mcp/mcpRuntime.js';

/** What a rescan reads and touches: each a narrow piece of a started host. */
export interface RescanDeps {
  /** The catalog's scan of the plugin roots (re-reads only what changed). */
  scan(): ScanResult;
  sync: { syncPlugins(scan: ScanResult): unknown };
  trust: PluginTrust;
  hostModules: HostModules;
  /** Ends what runs of a plugin (its backend, these servers' instances) so the next use runs its edited code. */
  stopEdited(pluginId: string, serverIds: readonly string[]): Promise<void>;
  /** Ends what may no longer run (an edited plugin is changed, a vanished one gone), now rather than at its next call. */
  stopNotRunnable(): void;
  reloadMcp(): Promise<ReloadReport>;
  emit(event: HostEvent): void;
  warn(message: string): void;
}

/** True when a scan re-read or lost a plugin folder: its server definitions may have changed too. */
export const scanChanged = (result: ScanResult) => result.stats.reread.length + result.stats.removed.length > 0;

/**
 * Rescan, the one way every face does it (the watcher, the HostApi, the CLI,
 * the settings tool `rescan_apps`): scan → registry sync → re-pin
 * development links → events → reload the servers when plugins changed.
 * A scan is applied exactly once: whoever scanned (the watcher's poll
 * included) hands its result to `apply`, so the events name what the scan
 * found, and open pages of an edited plugin are told to reload.
 */
export class RescanPlugins {
  constructor(private readonly deps: RescanDeps) {}

  /** Scans the plugin roots and syncs the registry with the result; does not reload servers. */
  rescan(): ScanResult {
    return this.apply(this.deps.scan());
  }

  /** Rescans, and reloads the servers when plugins came, went or changed (their server definitions did too). */
  async rescanAndReload(): Promise<ScanResult> {
    const result = this.rescan();
    if (scanChanged(result)) await this.deps.reloadMcp();
    return result;
  }

  /** Syncs the registry with a scan already made, and tells the faces what it found. */
  apply(result: ScanResult): ScanResult {
    const { deps } = this;
    // Something in a plugin folder changed (the watcher's reason to rescan): the next call walks its folder again.
    deps.trust.forgetRecentChecks();
    deps.sync.syncPlugins(result);
    const reloaded = repinDevLinks(result.plugins, { trust: deps.trust, apps: result.apps, hostModules: deps.hostModules });
    deps.emit({ kind: 'plugins-rescanned', reread: result.stats.reread, removed: result.stats.removed, problems: result.problems.length });
    for (const event of reloaded) {
      // The next call, page load or backend call runs the edited code: end what runs the old.
      const serverIds = serverIdsOf(result.apps, (app) => app.pluginId === event.pluginId);
      deps.stopEdited(event.pluginId, serverIds).catch((error: unknown) => deps.warn(`could not end what ran of ${event.pluginId} before its edit: ${(error as Error).message}`));
      deps.emit(event);
    }
    deps.stopNotRunnable();
    return result;
  }
}
