import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { ScanResult } from '../contributions/pluginScanner.js';
import type { RegistryFacade } from '../facades/registry.js';
import { HOST_DB_TABLES } from '../hostTables.js';
import { pruneRegistry } from '../operations/registryPrune.js';
import { RegistrySync } from '../operations/registrySync.js';
import { notRunnableRows, type RunGate } from '../policy/runGate.js';
import { syncAiContributesOn } from '../registry/contributionCopies.js';
import { HostPromptStore } from '../registry/hostPromptStore.js';
import { migrateOriginalGrants } from '../registry/grantRekey.js';
import { RegistryCenter } from '../registry/registryCenter.js';
import { heldIdProblems, liveRegistryProblems } from '../registry/registryProblems.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';

export interface RegistryModule {
  readonly center: RegistryCenter;
  /** The host's admin DB the registry lives in (its settings rows too). */
  readonly store: RecordsStore;
  readonly sync: RegistrySync;
  readonly facade: RegistryFacade;
  /** The bootstrap of docs/rules/registry.md#bootstrap: the host's own rows, provider DBs and defaults, then the scan's plugins. */
  bootstrap(scan: ScanResult): Promise<void>;
}

/** The registry center over the admin DB, its sync with plugins, provider DBs and defaults, and the host's own prompts. */
export function registryModule(base: HostBase, store: RecordsStore, deps: { catalog: PluginCatalog; runGate: RunGate }): RegistryModule {
  // Before anything reads a grant: the original ChatOS's rows become ChatOS's, keyed for the per-call check.
  migrateOriginalGrants(store);
  const center = new RegistryCenter(store, base.clock);
  const sync = new RegistrySync({
    registry: center,
    hostStore: store,
    home: base.home,
    appRoot: base.appRoot,
    defaultsDir: base.defaultsDir,
    sessionRoot: base.sessionRoot,
    projectRoot: base.projectRoot,
    // The host option (tests, embedders) wins over the data home's setting.
    syncAiContributes: () => base.options.syncAiContributes ?? syncAiContributesOn(store),
  });
  const hostPrompts = new HostPromptStore(store, center, () => void sync.syncHostOwn());
  // Provider DBs and defaults are read once, at start: their problems stay until the next start.
  let startupProblems: Problem[] = [];
  const facade: RegistryFacade = {
    ...narrow(center, [
      'ownerAppId',
      'listApps',
      'isKnownApp',
      'listServers',
      'listPrompts',
      'getServer',
      'getPrompt',
      'listGrants',
      'getMcpServersForApp',
      'getPromptsForApp',
      'hasMcpServerAccess',
      'hasPromptAccess',
      'kindOf',
      'grantMcpServerAccess',
      'revokeMcpServerAccess',
      'grantPromptAccess',
      'revokePromptAccess',
    ]),
    get problems() {
      const appIndex = (app: AppContribution) => deps.catalog.pluginAt(app.pluginDir)?.appIds.indexOf(app.appId) ?? 0;
      return [...startupProblems, ...liveRegistryProblems(store, center, HOST_DB_TABLES), ...heldIdProblems(center, deps.catalog.apps, appIndex)];
    },
    notRunnable: (rows, part) => notRunnableRows(rows, deps.runGate, part),
    prune: (apply) => pruneRegistry({ registry: center, catalog: deps.catalog }, apply),
    prompts: narrow(hostPrompts, ['list', 'get', 'save', 'remove', 'setGrant']),
  };
  return {
    center,
    store,
    sync,
    facade,
    async bootstrap(scan) {
      startupProblems = (await sync.bootstrap(scan)).problems;
    },
  };
}
