import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Grant } from '../../shared/registry.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { GrantKind, Registration, RegistryCenter } from './registryCenter.js';

/** A registration `prune` removes, with the grants that go with it. */
export interface PrunedRegistration {
  kind: GrantKind;
  id: string;
  /** Why it counts as gone. */
  reason: string;
  grants: Grant[];
}

export interface PruneResult {
  registrations: PrunedRegistration[];
  /** Apps that no longer have any origin once these are gone. */
  apps: string[];
}

/**
 * Why a registration is gone for good, or undefined if it is not: it is
 * marked missing (a process that scanned its root, or read its origin, did
 * not find it), or its plugin folder no longer holds a plugin.json (whoever
 * scans that root, if anyone).
 */
function goneReason(row: Registration): string | undefined {
  if (row.missing) return row.missing.reason;
  if (row.source.kind === 'plugin' && !fs.existsSync(path.join(row.source.pluginDir, 'plugin.json'))) return `its plugin folder ${row.source.pluginDir} is gone`;
  return undefined;
}

/**
 * What the user removes when pruning what is gone: registrations that are
 * missing, with their grants, and the plugin origins of apps that only those
 * registrations kept. `apply: false` only lists it. This is the one way,
 * besides `revoke` and `uninstall`, that a grant goes.
 */
export function pruneRegistry(deps: { registry: RegistryCenter; catalog: PluginCatalog }, apply: boolean): PruneResult {
  const { registry, catalog } = deps;
  const rows: { row: Registration; kind: GrantKind; reason: string }[] = [];
  for (const [kind, list] of [
    ['server', registry.listServers()],
    ['prompt', registry.listPrompts()],
  ] as const) {
    for (const row of list) {
      const reason = goneReason(row);
      if (reason !== undefined) rows.push({ row, kind, reason });
    }
  }
  const grantsOf = (kind: GrantKind, id: string) => registry.listGrants(kind).filter((g) => g.targetId === id);
  const registrations = rows.map(({ row, kind, reason }) => ({ kind, id: row.id, reason, grants: grantsOf(kind, row.id) }));

  // A plugin origin goes only with the last of its registrations, and only if no plugin found now provides that app.
  const pruned = new Set(rows.map(({ row }) => row.id));
  const remaining = [...registry.listServers(), ...registry.listPrompts()].filter((row) => !pruned.has(row.id));
  const stillProvided = new Set([
    ...remaining.flatMap((row) => (row.source.kind === 'plugin' ? [`${row.providerAppId}\0plugin:${row.source.pluginId}`] : [])),
    ...catalog.apps.map((app) => `${app.providerAppId}\0plugin:${app.pluginId}`),
  ]);
  const prunedOrigins = new Set(rows.flatMap(({ row }) => (row.source.kind === 'plugin' ? [`${row.providerAppId}\0plugin:${row.source.pluginId}`] : [])));
  const stale = (appId: string, origin: string) => prunedOrigins.has(`${appId}\0${origin}`) && !stillProvided.has(`${appId}\0${origin}`);

  if (!apply) {
    const apps = registry
      .listApps()
      .filter((app) => app.origins.every((origin) => stale(app.appId, origin)))
      .map((app) => app.appId);
    return { registrations, apps };
  }
  // Checked again: one that came back meanwhile stays.
  registry.removeRegistrations((row) => pruned.has(row.id) && goneReason(row) !== undefined);
  return { registrations, apps: registry.dropPluginOrigins(stale) };
}
