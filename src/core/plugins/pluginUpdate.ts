import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { DroppedGrant, PluginUpdate } from '../../shared/pluginUpdate.js';
import type { RunPlan } from '../../shared/trust.js';
import type { PluginHost } from './pluginHost.js';
import { registryId } from '../registry/registryTables.js';
import { canonicalJson } from '../store/canonicalJson.js';
import { diffFiles, Fingerprinter } from '../trust/pluginFingerprint.js';
import { runPlanOf } from '../trust/runPlan.js';
import { runPlanDiff } from '../trust/runPlanText.js';
import { placeStagedPlugin, withStagedPlugin, type Installed, type StagedPlugin } from './pluginInstaller.js';

/**
 * Install as every face does it (CLI, HostApi): a plugin whose id is
 * installed in the user root already is updated in place once the caller
 * has seen what changes (`confirm` gets the diff of what will run). The
 * folder keeps its path, so its registrations and the grants on them stay;
 * its trust no longer matches, so nothing of it runs until trusted again.
 */

export type InstallOutcome = { kind: 'installed'; installed: Installed } | { kind: 'updated'; installed: Installed; update: PluginUpdate } | { kind: 'declined'; update: PluginUpdate };

/** Strings in a plan that name the staged copy name the folder it goes to (the diff compares like with like). */
function relocated<T>(value: T, from: string, to: string): T {
  if (typeof value === 'string') return value.split(from).join(to) as T;
  if (Array.isArray(value)) return value.map((item) => relocated(item, from, to)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, relocated(item, from, to)])) as T;
  return value;
}

/** What the staged copy would run once in place at its target. */
function stagedPlan(host: PluginHost, staged: StagedPlugin): RunPlan {
  const scan = host.catalog.validateFolder(staged.dir);
  const plugin = scan.plugins[0];
  if (!plugin) return { servers: [], pages: [], warnings: [] };
  return relocated(runPlanOf({ ...plugin, source: 'user' }, scan.apps, plugin.backendEntry, host.hostModules), staged.dir, staged.target);
}

function updateOf(host: PluginHost, staged: StagedPlugin, installed: PluginRecord): PluginUpdate {
  const before = runPlanOf(installed, host.catalog.apps, installed.backendEntry, host.hostModules);
  const after = stagedPlan(host, staged);
  const fingerprinter = new Fingerprinter();
  const old = fingerprinter.fingerprint(installed.dir);
  const next = fingerprinter.fingerprint(staged.dir);
  const state = host.trust.stateOf(installed).state;
  return {
    pluginId: staged.pluginId,
    dir: staged.target,
    before,
    after,
    runPlanChanged: canonicalJson(before) !== canonicalJson(after),
    lines: runPlanDiff(before, after),
    ...(old.ok && next.ok ? { files: diffFiles(old.files, next.files) } : {}),
    wasTrusted: state === 'trusted' || state === 'changed',
  };
}

/** Installs `source`, or updates the installed copy of its id when `confirm` (shown the update) says yes. */
export async function installOrUpdate(host: PluginHost, source: string, confirm: (update: PluginUpdate) => boolean | Promise<boolean>): Promise<InstallOutcome> {
  return withStagedPlugin(source, host.home.userPluginsDir, async (staged) => {
    const installed = staged.installedId === staged.pluginId ? host.rescan().plugins.find((p) => p.dir === staged.target) : undefined;
    if (!installed) return { kind: 'installed', installed: placeStagedPlugin(staged) };
    const update = updateOf(host, staged, installed);
    if (!(await confirm(update))) return { kind: 'declined', update };
    return { kind: 'updated', installed: placeStagedPlugin(staged, { update: true }), update };
  });
}

/** The update installing `source` would make, or undefined when it would be a new install (nothing is placed). */
export async function previewInstall(host: PluginHost, source: string): Promise<{ pluginId: string; update?: PluginUpdate }> {
  const outcome = await withStagedPlugin(source, host.home.userPluginsDir, (staged) => {
    const installed = staged.installedId === staged.pluginId ? host.rescan().plugins.find((p) => p.dir === staged.target) : undefined;
    return { pluginId: staged.pluginId, ...(installed ? { update: updateOf(host, staged, installed) } : {}) };
  });
  return outcome;
}

/**
 * The grants other apps have on what the user copy of `pluginId` registers,
 * which uninstalling it drops (a registry id another copy, e.g. the
 * built-in one, registers too keeps its grants).
 */
export function grantsDroppedByUninstall(host: PluginHost, installed: PluginRecord): DroppedGrant[] {
  const otherCopies = new Set(
    host.catalog.apps
      .filter((app: AppContribution) => app.pluginId === installed.id && app.pluginDir !== installed.dir)
      .flatMap((app) => [registryId(app.providerAppId, app.serverName), registryId(app.providerAppId, app.promptNames.zh), registryId(app.providerAppId, app.promptNames.en)]),
  );
  const dropped: DroppedGrant[] = [];
  for (const kind of ['server', 'prompt'] as const) {
    const own = new Set(
      (kind === 'server' ? host.registry.listServers() : host.registry.listPrompts())
        .filter((row) => row.source.kind === 'plugin' && row.source.pluginDir === installed.dir && !otherCopies.has(row.id))
        .map((row) => row.id),
    );
    for (const grant of host.registry.listGrants(kind)) if (own.has(grant.targetId)) dropped.push({ kind, id: grant.targetId, appId: grant.appId });
  }
  return dropped;
}
