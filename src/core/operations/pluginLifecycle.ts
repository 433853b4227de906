import * as fs from 'node:fs';
import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { RunPlan, TrustRecord } from '../../shared/trust.js';
import type { PluginHost } from './pluginHost.js';
import { suggestClosest } from '../naming/suggest.js';
import type { RemovedRegistration } from '../registry/registryCenter.js';
import { registryId } from '../registry/registryTables.js';
import { TrustBlockedError } from '../trust/pluginTrust.js';
import { runPlanOf } from '../trust/runPlan.js';
import { PluginLifecycleError } from './pluginLifecycleError.js';

/**
 * Trust and uninstall, as every face does them (CLI, HostApi): one place
 * decides which copy of a plugin is meant, what may be trusted and what an
 * uninstall removes, so the faces cannot drift apart.
 */

/** The plugin with this id that the host would load (or, failing that, any folder declaring it), after a rescan. */
export function findPlugin(host: PluginHost, pluginId: string): PluginRecord {
  const plugins = host.rescan().plugins;
  const found = plugins.find((p) => p.id === pluginId && p.status === 'loaded') ?? plugins.find((p) => p.id === pluginId);
  if (found) return found;
  const close = suggestClosest(
    pluginId,
    plugins.map((p) => p.id).filter((id): id is string => !!id),
  );
  throw new PluginLifecycleError(
    'NOT_FOUND',
    `no plugin "${pluginId}" is installed${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
    'list plugins with "chatos apps"',
  );
}

/** Trusts the plugin's current content; `undefined` for a built-in (always trusted). A linked folder is trusted as a development link (devLinks.ts). */
export function trustPlugin(host: PluginHost, pluginId: string, options: { plan?: RunPlan } = {}): { plugin: PluginRecord; record?: TrustRecord } {
  const plugin = findPlugin(host, pluginId);
  if (plugin.source === 'builtin') return { plugin };
  if (plugin.status !== 'loaded') {
    throw new PluginLifecycleError('INVALID', `${pluginId} at ${plugin.dir} is ${plugin.status}; it cannot be trusted until it loads`, 'fix its problems first', plugin);
  }
  const plan = options.plan ?? runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules);
  try {
    return { plugin, record: host.trust.trust({ ...plugin, id: pluginId }, plan, { devLink: plugin.source === 'dev' }) };
  } catch (error) {
    if (!(error instanceof TrustBlockedError)) throw error;
    throw new PluginLifecycleError('NOT_ALLOWED', `${error.message}; nothing of it runs`, error.problems[0]?.hint ?? 'fix the problems listed', {
      ...plugin,
      problems: [...plugin.problems, ...error.problems],
    });
  }
}

/** The registry ids of the servers of the apps (e.g. the catalog's now) that `pick` picks. */
export const serverIdsOf = (apps: readonly AppContribution[], pick: (app: AppContribution) => boolean) =>
  apps.filter((app) => app.mcp && pick(app)).map((app) => registryId(app.providerAppId, app.serverName));

/**
 * Ends what of a plugin runs in this process now: its backend and its
 * servers' instances (by default those of its apps in the catalog now).
 * Taking trust back or uninstalling stops these too, not only what the run
 * gate would refuse to start later; each is audited as `not-runnable`.
 */
export async function stopPlugin(host: PluginHost, pluginId: string, serverIds: readonly string[] = serverIdsOf(host.catalog.apps, (app) => app.pluginId === pluginId)): Promise<void> {
  await Promise.all([host.backends.stop(pluginId, 'not-runnable'), ...serverIds.map((id) => host.mcp.connections.retire(id, 'not-runnable'))]);
}

/** The copy of `pluginId` in the user plugin folder (what uninstall removes), after a rescan; refused with the reason when there is none. */
export function userCopyOf(host: PluginHost, pluginId: string): PluginRecord {
  const plugins = host.rescan().plugins.filter((p) => p.id === pluginId);
  const installed = plugins.find((p) => p.source === 'user');
  if (!installed) {
    const elsewhere = plugins[0];
    if (!elsewhere) findPlugin(host, pluginId); // throws with close matches
    throw new PluginLifecycleError(
      'NOT_ALLOWED',
      `${pluginId} is not in the user plugin folder (it is ${elsewhere!.source}: ${elsewhere!.dir})`,
      elsewhere!.source === 'builtin' ? 'built-in plugins cannot be uninstalled; install a user copy to override it' : 'remove that folder or the --plugins option',
    );
  }
  return installed;
}

/**
 * Removes the user copy of a plugin with its registrations and the grants on
 * them (a registry id that another copy, e.g. the built-in one, registers
 * again keeps its grants); `purge` also deletes its data and state.
 * `serverIds`: what its servers ran under, for `stopPlugin`.
 */
export function uninstallPlugin(host: PluginHost, pluginId: string, purge: boolean): { removed: string; purged: string[]; registrations: RemovedRegistration[]; apps: string[]; serverIds: string[] } {
  const installed = userCopyOf(host, pluginId);
  const serverIds = serverIdsOf(host.catalog.apps, (app) => app.pluginDir === installed.dir);
  fs.rmSync(installed.dir, { recursive: true, force: true });
  host.trust.untrust(pluginId);
  const scan = host.rescan();
  // The rescan marked them missing, like any plugin gone from a root; uninstalling means they go for good.
  const registrations = host.registry.removeRegistrations((row) => row.source.kind === 'plugin' && row.source.pluginDir === installed.dir);
  const stillProvides = new Set(scan.apps.filter((app) => app.pluginId === pluginId).map((app) => app.providerAppId));
  const apps = host.registry.dropPluginOrigins((appId, origin) => origin === `plugin:${pluginId}` && !stillProvides.has(appId));
  const purged: string[] = [];
  if (purge) {
    for (const dir of [host.home.pluginDataDir(pluginId), host.home.pluginStateDir(pluginId)]) {
      if (!fs.existsSync(dir)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      purged.push(dir);
    }
  }
  return { removed: installed.dir, purged, registrations, apps, serverIds };
}
