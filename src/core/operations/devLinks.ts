import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { RunPlan, TrustChanges, TrustRecord } from '../../shared/trust.js';
import type { PluginHost } from './pluginHost.js';
import { canonicalJson } from '../store/canonicalJson.js';
import type { PluginTrust } from '../trust/pluginTrust.js';
import { runPlanOf } from '../trust/runPlan.js';
import type { HostModules } from '../runtime/hostModules.js';
import { serverIdsOf, stopPlugin, trustPlugin } from './pluginLifecycle.js';
import { PluginLifecycleError } from './pluginLifecycleError.js';
import { RootsError } from '../plugins/rootsError.js';
import { MANIFEST_FILE } from '../plugins/validatePlugin.js';

/**
 * Development links (`chatos dev DIR`, the Apps page's "Link a folder"): a
 * plugin folder registered where it is, for its author. It is trusted once,
 * on linking, after its run plan was shown; while it stays linked, every
 * edit is pinned again by the next rescan and reported (files and whether
 * the run plan changed), and what runs of it is ended so the next use runs
 * the new code. Unlinking takes the trust back and removes its
 * registrations, with the grants on them.
 */

/** A development link was edited: re-pinned, its servers and backend ended so the next use runs the new code. */
export interface DevReloaded {
  kind: 'dev-reloaded';
  pluginId: string;
  changes: TrustChanges;
  runPlanChanged: boolean;
}

/** Re-pins each linked plugin edited since it was pinned; one event per plugin, saying what changed. */
export function repinDevLinks(plugins: readonly PluginRecord[], deps: { trust: PluginTrust; apps: readonly AppContribution[]; hostModules: HostModules }): DevReloaded[] {
  const events: DevReloaded[] = [];
  for (const plugin of plugins) {
    if (plugin.source !== 'dev' || plugin.status !== 'loaded' || !plugin.id) continue;
    const plan = runPlanOf(plugin, deps.apps, plugin.backendEntry, deps.hostModules);
    const repinned = deps.trust.repinDevLink({ ...plugin, id: plugin.id }, plan);
    if (repinned) events.push({ kind: 'dev-reloaded', pluginId: plugin.id, changes: repinned.changes, runPlanChanged: !samePlan(repinned.before, plan) });
  }
  return events;
}

const samePlan = (a: RunPlan, b: RunPlan) => canonicalJson(a) === canonicalJson(b);

export interface DevLinkView {
  dir: string;
  pluginId?: string;
  status: PluginRecord['status'] | 'missing';
}

/** Every linked folder with the plugin found there. */
export function listDevLinks(host: PluginHost): DevLinkView[] {
  return host.devLinks.list().map((dir) => {
    const plugin = host.catalog.plugins.find((p) => p.dir === dir);
    return { dir, ...(plugin?.id ? { pluginId: plugin.id } : {}), status: plugin?.status ?? 'missing' };
  });
}

/** What linking `dir` would run, without linking it (the Apps page shows it before the user links and trusts). */
export function previewDevLink(host: PluginHost, dir: string): { dir: string; pluginId?: string; runPlan?: RunPlan; problems: PluginRecord['problems'] } {
  const folder = checkLinkable(host, dir);
  const scan = host.catalog.validateFolder(folder);
  const plugin = scan.plugins[0];
  if (!plugin?.id || plugin.status !== 'loaded') return { dir: folder, ...(plugin?.id ? { pluginId: plugin.id } : {}), problems: scan.problems };
  return { dir: folder, pluginId: plugin.id, runPlan: runPlanOf({ ...plugin, source: 'dev' }, scan.apps, plugin.backendEntry, host.hostModules), problems: scan.problems };
}

/** The folder as it would be linked; refuses what is no plugin folder, or is scanned from a root already. */
function checkLinkable(host: PluginHost, dir: string): string {
  const folder = path.resolve(dir);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new RootsError('NOT_A_FOLDER', `${folder} is not a folder`, 'give the plugin folder (the one with plugin.json)');
  if (!fs.existsSync(path.join(folder, MANIFEST_FILE))) throw new RootsError('NOT_A_FOLDER', `${folder} has no ${MANIFEST_FILE}`, 'give the plugin folder itself, or make one: chatos init DIR');
  if (host.pluginRoots.some((root) => !root.single && root.dir === path.dirname(folder))) {
    throw new RootsError(
      'ALWAYS_SCANNED',
      `${folder} is already scanned from its plugin root ${path.dirname(folder)}`,
      'edit it there and trust it again after an edit (chatos trust), or move it out of that root to link it',
    );
  }
  return folder;
}

/** Links a plugin folder in place and trusts it as a link; returns its plugin and trust record (with the run plan). */
export async function linkDevPlugin(host: PluginHost, dir: string): Promise<{ plugin: PluginRecord & { id: string }; record: TrustRecord; added: boolean }> {
  const folder = checkLinkable(host, dir);
  const added = await host.devLinks.update((links) => (links.includes(folder) ? { roots: links, changed: false } : { roots: [...links, folder], changed: true }));
  const plugin = host.rescan().plugins.find((p) => p.dir === folder);
  if (!plugin?.id || plugin.status !== 'loaded') {
    // Linked, so the author sees its problems where it is listed; it runs once it loads and is linked again.
    throw new PluginLifecycleError(
      'INVALID',
      `${folder} is linked but does not load (${plugin?.status ?? 'not found'})`,
      `fix its problems (chatos validate ${folder}), then run chatos dev ${folder} again`,
      plugin,
    );
  }
  const plan = runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules);
  const trusted = trustPlugin(host, plugin.id, { plan });
  return { plugin: { ...plugin, id: plugin.id }, record: trusted.record!, added };
}

/** Unlinks a folder (by its path or its plugin id): what runs of it ends, trust and registrations go; the folder stays. */
export async function unlinkDevPlugin(host: PluginHost, target: string): Promise<{ dir: string; pluginId?: string; removed: string[] }> {
  const links = host.devLinks.list();
  const byDir = links.find((dir) => dir === path.resolve(target));
  const byId = links.find((dir) => host.catalog.plugins.some((p) => p.dir === dir && p.id === target));
  const dir = byDir ?? byId;
  if (!dir) throw new RootsError('NOT_REMEMBERED', `${target} is not a linked plugin folder or id`, links.length ? `linked: ${links.join(', ')}` : 'nothing is linked; see: chatos dev list');
  const plugin = host.catalog.plugins.find((p) => p.dir === dir);
  const serverIds = serverIdsOf(host.catalog.apps, (app) => app.pluginDir === dir);
  if (plugin?.id) await stopPlugin(host, plugin.id, serverIds);
  await host.devLinks.update((current) => ({ roots: current.filter((d) => d !== dir), changed: current.includes(dir) }));
  if (plugin?.id) host.trust.untrustDevLink(plugin.id, dir);
  host.rescan();
  const removed = host.registry.removeRegistrations((row) => row.source.kind === 'plugin' && row.source.pluginDir === dir).map((r) => r.id);
  return { dir, ...(plugin?.id ? { pluginId: plugin.id } : {}), removed };
}
