import { z } from 'zod';
import type { ContributionCopies, RegistrySource } from '../../shared/registry.js';
import { defineTable } from '../store/logicalTable.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { HostMcpServers, HostPrompts } from './registryTables.js';

/**
 * `syncAiContributes` as a setting of the data home
 * (docs/rules/names-and-exposure.md#where-the-contribution-lives): one row
 * in the host's admin DB, so the window, `chatos serve`, every CLI command
 * and the settings server read and change the same switch. Off by default.
 */
const HostSettingsSchema = z.object({ syncAiContributes: z.boolean() });
export const HostSettingsTable = defineTable('hostSettings', HostSettingsSchema);
const ROW = 'contributionCopies';

/** Is the switch on (the row, else off)? Another process may have changed it: the store is re-read first. */
export function syncAiContributesOn(store: RecordsStore): boolean {
  store.refresh();
  return store.get(HostSettingsTable, ROW)?.payload.syncAiContributes ?? false;
}

export function setSyncAiContributes(store: RecordsStore, on: boolean): void {
  store.put(HostSettingsTable, ROW, { syncAiContributes: on });
}

type PluginSource = Extract<RegistrySource, { kind: 'plugin' }>;

const pluginSourceOf = (source: RegistrySource | undefined): PluginSource | undefined => (source?.kind === 'plugin' ? source : undefined);

/** The switch and the copies the host's lists hold now (sorted by name), for the MCP servers and Prompts pages. */
export function listContributionCopies(store: RecordsStore): ContributionCopies {
  const syncAiContributes = syncAiContributesOn(store);
  const servers = store.list(HostMcpServers).flatMap(({ payload }) => {
    const source = pluginSourceOf(payload.source);
    return source ? [{ name: payload.name, pluginId: source.pluginId, appId: source.appId, url: payload.url }] : [];
  });
  const prompts = store.list(HostPrompts).flatMap(({ payload }) => {
    const source = pluginSourceOf(payload.source);
    return source ? [{ name: payload.name, pluginId: source.pluginId, appId: source.appId, ...(payload.lang ? { lang: payload.lang } : {}) }] : [];
  });
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return { syncAiContributes, servers: servers.sort(byName), prompts: prompts.sort(byName) };
}
