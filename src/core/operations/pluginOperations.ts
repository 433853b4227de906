import type { RunPlan, TrustRecord } from '../../shared/trust.js';
import type { PluginRecord } from '../../shared/appContribution.js';
import type { HostEvent } from '../hostEvents.js';
import type { ReloadReport } from '../mcp/mcpRuntime.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { forgetBundle } from './bundleRecord.js';
import { installPlugin, type Installed } from '../plugins/pluginInstaller.js';
import { serverIdsOf, stopPlugin, trustPlugin, uninstallPlugin } from './pluginLifecycle.js';
import type { RescanPlugins } from './rescanPlugins.js';

/** The host as the lifecycle steps read it (pluginLifecycle.ts decides which copy is meant and what an uninstall removes). */
export type LifecycleHost = Parameters<typeof trustPlugin>[0] & Parameters<typeof stopPlugin>[0] & Parameters<typeof uninstallPlugin>[0];

export interface PluginOperationsDeps {
  host: LifecycleHost;
  rescan: Pick<RescanPlugins, 'rescanAndReload'>;
  /** An uninstalled bundle's stored values are deleted from it. */
  secrets: Pick<SecretStore, 'delete'>;
  reloadMcp(): Promise<ReloadReport>;
  emit(event: HostEvent): void;
}

/**
 * A plugin's lifecycle as every face runs it (HostApi, CLI, settings
 * tools): trust, untrust with its cascade, install, uninstall. Taking trust
 * back or removing a plugin stops what of it runs now (backend, server
 * instances; audited as `not-runnable`), not only what would start later,
 * and tells the faces (`trust-changed`: lists, registry marks, open pages).
 */
export class PluginOperations {
  constructor(private readonly deps: PluginOperationsDeps) {}

  /** Trusts the plugin's current content (`plan`: what the user was shown); refused with a PluginLifecycleError. */
  trust(pluginId: string, options: { plan?: RunPlan } = {}): { plugin: PluginRecord; record?: TrustRecord } {
    const trusted = trustPlugin(this.deps.host, pluginId, options);
    this.deps.emit({ kind: 'trust-changed', pluginIds: [pluginId] });
    return trusted;
  }

  /** Takes trust back and ends what the plugin runs now; `changed` is false when it was not trusted. */
  async untrust(pluginId: string): Promise<{ changed: boolean }> {
    const changed = this.deps.host.trust.untrust(pluginId);
    if (!changed) return { changed };
    await stopPlugin(this.deps.host, pluginId);
    this.deps.emit({ kind: 'trust-changed', pluginIds: [pluginId] });
    return { changed };
  }

  /**
   * Copies a plugin into the user root. Over an installed copy (`update`),
   * the old code may still run here: its servers and backend end first, and
   * its pages are told (they find it untrusted until it is trusted again).
   */
  async install(source: string, options: { update?: boolean } = {}): Promise<Installed & { updated: boolean }> {
    const { host } = this.deps;
    const installed = await installPlugin(source, host.home.userPluginsDir, { update: options.update });
    const updated = installed.replaced === true;
    if (updated)
      await stopPlugin(
        host,
        installed.pluginId,
        serverIdsOf(host.catalog.apps, (app) => app.pluginDir === installed.dir),
      );
    await this.deps.rescan.rescanAndReload();
    this.deps.emit({ kind: 'trust-changed', pluginIds: [installed.pluginId] });
    return { ...installed, updated };
  }

  /**
   * Removes the user copy with its registrations and the grants on them (`purge`: its data too), and ends what it ran.
   * A bundle's stored values and the host's record of it go in any case: they are the host's, not the bundle's data.
   */
  async uninstall(pluginId: string, purge: boolean): Promise<ReturnType<typeof uninstallPlugin>> {
    const removed = uninstallPlugin(this.deps.host, pluginId, purge);
    await stopPlugin(this.deps.host, pluginId, removed.serverIds);
    await forgetBundle(this.deps.host.home, this.deps.secrets, pluginId);
    await this.deps.reloadMcp();
    this.deps.emit({ kind: 'trust-changed', pluginIds: [pluginId] });
    return removed;
  }
}
