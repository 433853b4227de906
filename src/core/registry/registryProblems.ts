import * as path from 'node:path';
import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';
import type { Registration } from './registryCenter.js';
import { describeSource, originOf } from './registryOrigin.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { LogicalTable } from '../store/logicalTable.js';
import type { RegistryCenter } from './registryCenter.js';
import { RegistryMcpServers, RegistryPrompts, registryId } from './registryTables.js';

/**
 * The admin DB's problems as they are now, not as they were at start: rows
 * that fail their schema (reads skip them), registrations marked missing,
 * changes that could not be saved, and what the store found on open or on
 * a reload. Asked by the Problems page and `chatos registry`.
 */
export function liveRegistryProblems(store: RecordsStore, registry: RegistryCenter, tables: readonly LogicalTable<unknown>[]): Problem[] {
  const servers = registry.listServers(); // refreshes the store: another process's writes count
  const prompts = registry.listPrompts();
  const missing = [...servers.map((row) => ({ row, kind: 'server' as const })), ...prompts.map((row) => ({ row, kind: 'prompt' as const }))].filter(({ row }) => row.missing);
  const grantCounts = new Map<string, number>();
  if (missing.length) for (const grant of [...registry.listGrants('server'), ...registry.listGrants('prompt')]) grantCounts.set(grant.targetId, (grantCounts.get(grant.targetId) ?? 0) + 1);
  return [
    // Rows failing their schema are found by the scan below, as they are now; the store's list keeps every one it ever met.
    ...store.problems.filter((p) => p.code !== 'RECORD_INVALID'),
    ...(store.saveProblem ? [store.saveProblem] : []),
    ...store.invalidRows(tables),
    ...missing.map(({ row, kind }): Problem => {
      const grants = grantCounts.get(row.id) ?? 0;
      return {
        severity: 'warning',
        code: 'REGISTRATION_MISSING',
        file: store.file,
        path: formatJsonPath([kind === 'server' ? RegistryMcpServers.name : RegistryPrompts.name, row.id]),
        message: `${kind} "${row.id}" is missing: ${row.missing!.reason}. It is not offered${grants ? `; its ${grants} grant${grants > 1 ? 's are' : ' is'} kept` : ''}.`,
        hint: 'it comes back by itself when its origin does; if it is gone for good, remove it with its grants: chatos registry prune --yes (or Prune on the Apps page)',
      };
    }),
  ];
}

/**
 * Loaded apps whose derived server or prompt id another origin already holds
 * (a provider app's own DB or defaults named one the same, docs/rules/registry.md#ids):
 * the holder keeps it and its grants, so the app's row is not registered and
 * nothing of it is offered under that id. Said on the plugin, with the fix.
 */
export function heldIdProblems(registry: Pick<RegistryCenter, 'listServers' | 'listPrompts'>, apps: readonly AppContribution[], appIndex: (app: AppContribution) => number): Problem[] {
  const rows = new Map<string, Registration>();
  for (const row of [...registry.listServers(), ...registry.listPrompts()]) rows.set(row.id, row);
  const problems: Problem[] = [];
  for (const app of apps) {
    const own = { kind: 'plugin' as const, pluginId: app.pluginId, appId: app.appId, pluginDir: app.pluginDir };
    const ids = [
      ...(app.mcp ? [registryId(app.providerAppId, app.serverName)] : []),
      ...(['zh', 'en'] as const).filter((lang) => app.prompt?.[lang] !== undefined).map((lang) => registryId(app.providerAppId, app.promptNames[lang])),
    ];
    for (const id of ids) {
      const held = rows.get(id);
      if (!held || originOf(held.source) === originOf(own)) continue;
      problems.push({
        severity: 'error',
        code: 'REGISTRY_ID_HELD',
        file: path.join(app.pluginDir, 'plugin.json'),
        path: formatJsonPath(['apps', appIndex(app), 'id']),
        message: `app "${app.appId}" derives "${id}", which ${describeSource(held.source)} already registered under ${app.providerAppId}; that one keeps the id and its grants, so this app's is not registered`,
        hint: 'rename the app id (or the plugin id) so the derived names differ',
      });
    }
  }
  return problems;
}
