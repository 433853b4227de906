import * as path from 'node:path';
import type { ContributionCopies } from '../../shared/registry.js';
import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { AppView, PluginView } from '../../shared/hostApi.js';
import { backendStopDraft } from '../audit/releaseAudit.js';
import { appView } from '../contributions/appView.js';
import { ExposeDefaults } from '../contributions/exposeDefaults.js';
import { PluginCatalog } from '../contributions/pluginCatalog.js';
import { PluginScanner, type PluginRoot, type ScanResult } from '../contributions/pluginScanner.js';
import type { PluginsFacade } from '../facades/plugins.js';
import { IdleSweep } from '../mcp/connection/idleSweep.js';
import { appServerProblems } from '../mcp/serverTrouble.js';
import { linkDevPlugin, listDevLinks, previewDevLink, unlinkDevPlugin } from '../operations/devLinks.js';
import type { PluginHost } from '../operations/pluginHost.js';
import { userCopyOf } from '../operations/pluginLifecycle.js';
import { PluginOperations } from '../operations/pluginOperations.js';
import { addPluginRoot, listPluginRoots, removePluginRoot } from '../operations/pluginRoots.js';
import { PluginStops } from '../operations/pluginStops.js';
import { grantsDroppedByUninstall, installOrUpdate, previewInstall } from '../operations/pluginUpdate.js';
import { installBundle, previewBundle } from '../operations/bundleInstall.js';
import { RescanPlugins } from '../operations/rescanPlugins.js';
import { FolderListFile, RememberedRoots } from '../plugins/rememberedRoots.js';
import { RunGate } from '../policy/runGate.js';
import { stopNotRunnable } from '../policy/stopNotRunnable.js';
import { listContributionCopies, setSyncAiContributes } from '../registry/contributionCopies.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { Fingerprinter } from '../trust/pluginFingerprint.js';
import { blockingProblems, PluginTrust } from '../trust/pluginTrust.js';
import { runPlanOf } from '../trust/runPlan.js';
import { TrustWatch } from '../trust/trustWatch.js';
import { BackendResolver } from '../uiApps/backendResolver.js';
import { pageRegistryView } from '../uiApps/pageRegistryView.js';
import { pushRegistration, type ProviderPush } from '../uiApps/providerPush.js';
import { PluginBackends } from '../uiApps/pluginBackends.js';
import type { HostBase } from './hostBase.js';
import type { McpModule } from './mcpModule.js';
import type { RegistryModule } from './registryModule.js';

/**
 * Built-in, development links, user, remembered, then this run's roots; a
 * folder given twice is scanned once, as the first. Links come before the
 * user root, so a linked folder is the copy that loads when its id is also
 * installed.
 */
export function currentPluginRoots(builtinDir: string, userDir: string, remembered: readonly string[], extra: readonly string[], devLinks: readonly string[]): PluginRoot[] {
  const roots: PluginRoot[] = [
    { dir: builtinDir, source: 'builtin' },
    ...devLinks.map((dir) => ({ dir, source: 'dev' as const, single: true })),
    { dir: userDir, source: 'user' },
    ...remembered.map((dir) => ({ dir, source: 'extra' as const, remembered: true })),
    ...extra.map((dir) => ({ dir: path.resolve(dir), source: 'extra' as const })),
  ];
  return roots.filter((root, i) => roots.findIndex((other) => other.dir === root.dir) === i);
}

/** What exists once the admin DB is open: trust, the run gate, the backends. */
interface Started {
  trust: PluginTrust;
  runGate: RunGate;
  backends: PluginBackends;
}

/** What exists once the MCP runtime does too: the flows (rescan, lifecycle) and the watch on trust. */
interface Running {
  registry: RegistryModule;
  mcp: McpModule;
  host: PluginHost;
  rescan: RescanPlugins;
  operations: PluginOperations;
  trustWatch: TrustWatch;
  backendSweep: IdleSweep;
}

const notStarted = () => new Error('the host is not started: call start() first');

/**
 * The plugins subsystem, wired in one place. Its catalog exists from the
 * start (a scan needs no database: `chatos validate` uses it alone); trust,
 * the run gate and the backends come with the admin DB (`start`); the flows
 * that also stop servers and reload them come once the MCP runtime exists
 * (`startOperations`).
 */
export class PluginsModule implements PluginsFacade {
  readonly catalog: PluginCatalog;
  readonly rememberedRoots: RememberedRoots;
  readonly devLinkList: FolderListFile;
  private started: Started | undefined;
  private running: Running | undefined;

  constructor(private readonly base: HostBase) {
    const { home, defaultsDir, sessionRoot, projectRoot, builtinPluginsDir } = base;
    this.rememberedRoots = new RememberedRoots(home.pluginRootsFile, () => [builtinPluginsDir, home.userPluginsDir]);
    this.devLinkList = new FolderListFile(home.devLinksFile);
    const scanner = new PluginScanner(() => this.roots(), { home, exposeDefaults: new ExposeDefaults(path.join(defaultsDir, 'ui-apps-expose')), sessionRoot, projectRoot });
    this.catalog = new PluginCatalog(scanner);
  }

  roots(): PluginRoot[] {
    const { base } = this;
    return currentPluginRoots(base.builtinPluginsDir, base.home.userPluginsDir, this.rememberedRoots.list(), base.options.extraPluginRoots ?? [], this.devLinkList.list());
  }

  /** Trust and the run gate over the admin DB; the backends, which ask the gate at every call and spawn. */
  start(store: RecordsStore): void {
    const { base, catalog } = this;
    const trust = new PluginTrust(store, new Fingerprinter(), base.clock);
    const runGate = new RunGate({ pluginAt: (dir) => catalog.pluginAt(dir), pluginById: (id) => catalog.pluginById(id), pluginRoots: () => this.roots().map((root) => root.dir), trust });
    const resolver = new BackendResolver({ catalog, runGate, home: base.home, sessionRoot: base.sessionRoot, projectRoot: base.projectRoot });
    const backends = new PluginBackends({
      now: base.now,
      pids: base.pids,
      nodeArgs: base.hostModules.nodeArgs,
      resolve: (pluginId) => resolver.resolve(pluginId),
      gate: (pluginId) => runGate.check({ pluginId }, 'backend'),
      logger: base.logger,
    });
    // Every backend stopped because its plugin may no longer run is on the record, like a released lease.
    backends.onStop((stop) => base.audit.append(backendStopDraft(stop)));
    this.started = { trust, runGate, backends };
  }

  /** The flows over plugins, the registry and the servers; the watch on trust changed by another process. */
  startOperations(registry: RegistryModule, mcp: McpModule): void {
    const { base, catalog } = this;
    const { trust, runGate, backends } = this.need();
    const { connections } = mcp.runtime;
    const roots = () => this.roots();
    const host: PluginHost = {
      home: base.home,
      hostModules: base.hostModules,
      get pluginRoots() {
        return roots();
      },
      rememberedRoots: this.rememberedRoots,
      devLinks: this.devLinkList,
      catalog,
      registry: registry.center,
      trust,
      backends,
      mcp: { connections },
      rescan: () => rescan.rescan(),
    };
    // Another process may untrust or uninstall a plugin: what it runs here stops too, and the faces are told.
    const trustWatch = new TrustWatch({
      scheduler: base.scheduler,
      revision: () => registry.center.freshRevision(),
      records: () => trust.records(),
      forget: () => trust.forgetRecentChecks(),
      stopNow: () => stopNotRunnable({ runGate, backends, connections, definition: (id) => mcp.runtime.definition(id) }),
      onChange: (pluginIds) => base.events.emit({ kind: 'trust-changed', pluginIds }),
      onError: (error) => base.logger.warn(`stopping what a plugin that may no longer run ran failed: ${(error as Error).message}`),
    });
    const stops = new PluginStops({
      stopBackend: (pluginId) => backends.stop(pluginId),
      retireServer: (serverId) => connections.retire(serverId),
      stopNotRunnable: () => trustWatch.stop(),
      logger: base.logger,
    });
    const rescan = new RescanPlugins({
      scan: () => catalog.rescan(),
      sync: registry.sync,
      trust,
      hostModules: base.hostModules,
      stopEdited: (pluginId, serverIds) => stops.edited(pluginId, serverIds),
      stopNotRunnable: () => stops.notRunnable(),
      reloadMcp: () => mcp.reload(),
      emit: (event) => base.events.emit(event),
      warn: (message) => base.logger.warn(message),
    });
    const operations = new PluginOperations({ host, rescan, secrets: base.secrets, reloadMcp: () => mcp.reload(), emit: (event) => base.events.emit(event) });
    // Backends whose pages are all closed stop too (docs/plugins/backends.md#lifetime); the same sweep as the leases', over backends.
    const backendSweep = new IdleSweep({
      scheduler: base.scheduler,
      connections: { sweepIdle: (idleMs = mcp.leaseTimes().backendIdleMs) => backends.sweepIdle(idleMs) },
      idleMs: () => mcp.leaseTimes().backendIdleMs,
      onError: (error) => base.logger.warn(`stopping idle plugin backends failed: ${(error as Error).message}`),
    });
    this.running = { registry, mcp, host, rescan, operations, trustWatch, backendSweep };
  }

  /** Starts stopping idle backends, and watching trust records for changes made by another process. */
  startWatching(): void {
    const { trustWatch, backendSweep } = this.run();
    backendSweep.start();
    trustWatch.start();
  }

  private need(): Started {
    if (!this.started) throw notStarted();
    return this.started;
  }

  private run(): Running {
    if (!this.running) throw notStarted();
    return this.running;
  }

  /** The rescan operation (the watcher and the settings server run it too). */
  get rescanOperation(): RescanPlugins {
    return this.run().rescan;
  }

  get runGate(): RunGate {
    return this.need().runGate;
  }

  get trustStore(): PluginTrust {
    return this.need().trust;
  }

  get backends(): PluginBackends {
    return this.need().backends;
  }

  trustState(plugin: PluginRecord) {
    return this.need().trust.stateOf(plugin);
  }

  runPlan(plugin: PluginRecord) {
    return runPlanOf(plugin, this.catalog.apps, plugin.backendEntry, this.base.hostModules);
  }

  view(plugin: PluginRecord): PluginView {
    const trust = this.trustState(plugin);
    const runnable = plugin.id !== undefined && this.runGate.check({ pluginId: plugin.id, pluginDir: plugin.dir }, 'plugin').ok;
    return { ...plugin, problems: [...plugin.problems, ...blockingProblems(trust)], trust, runPlan: this.runPlan(plugin), runnable };
  }

  /** Nothing is known to be wrong with a server before the host starts (`chatos validate` looks at a folder alone). */
  private readonly serverTrouble = (serverId: string) => this.running?.mcp.trouble(serverId);

  appViews(scan: Pick<ScanResult, 'apps' | 'plugins'> = this.catalog): AppView[] {
    const byDir = new Map(scan.plugins.map((p) => [p.dir, p]));
    return scan.apps.map((app) => appView(app, byDir.get(app.pluginDir), (id) => this.serverTrouble(id)));
  }

  appServerProblems(scan: ScanResult) {
    const byDir = new Map(scan.plugins.map((p) => [p.dir, p]));
    return scan.apps.flatMap((app) => appServerProblems(app, Math.max(byDir.get(app.pluginDir)?.appIds.indexOf(app.appId) ?? 0, 0), (id) => this.serverTrouble(id)));
  }

  pageRegistry(app: AppContribution) {
    return pageRegistryView({ registry: this.run().registry.center, runGate: this.runGate, apps: this.catalog.apps }, app);
  }

  pushRegistration(app: AppContribution, push: ProviderPush): { id: string } {
    return pushRegistration(this.run().registry.center, app, push);
  }

  rescan(): ScanResult {
    return this.run().rescan.rescan();
  }

  rescanAndReload(): Promise<ScanResult> {
    return this.run().rescan.rescanAndReload();
  }

  trust(pluginId: string, options?: Parameters<PluginOperations['trust']>[1]) {
    return this.run().operations.trust(pluginId, options);
  }

  untrust(pluginId: string) {
    return this.run().operations.untrust(pluginId);
  }

  install(source: string, options?: { update?: boolean }) {
    return this.run().operations.install(source, options);
  }

  installOrUpdate(...[source, confirm]: Parameters<PluginsFacade['installOrUpdate']>) {
    return installOrUpdate(this.run().host, source, confirm);
  }

  previewInstall(source: string) {
    return previewInstall(this.run().host, source);
  }

  previewBundle(file: string) {
    return previewBundle(this.run().host, file);
  }

  installBundle(...[file, values, confirm, options]: Parameters<PluginsFacade['installBundle']>) {
    return installBundle(this.run().host, this.base.secrets, file, values, confirm, options);
  }

  previewUninstall(pluginId: string) {
    const { host } = this.run();
    const installed = userCopyOf(host, pluginId);
    return { dir: installed.dir, grants: grantsDroppedByUninstall(host, installed) };
  }

  uninstall(pluginId: string, purge: boolean) {
    return this.run().operations.uninstall(pluginId, purge);
  }

  contributionCopies(): ContributionCopies {
    return listContributionCopies(this.run().registry.store);
  }

  setSyncAiContributes(on: boolean): ContributionCopies {
    const { registry, rescan } = this.run();
    setSyncAiContributes(registry.store, on);
    // The rescan's registry sync makes (or drops) the copies now, from what the plugins contribute.
    rescan.rescan();
    return this.contributionCopies();
  }

  listRoots() {
    return listPluginRoots(this.run().host);
  }

  addRoot(dir: string) {
    return addPluginRoot(this.run().host, dir);
  }

  removeRoot(dir: string) {
    return removePluginRoot(this.run().host, dir);
  }

  devLinks() {
    return { links: listDevLinks(this.run().host), problems: this.devLinkList.read().problems };
  }

  previewDevLink(dir: string) {
    return previewDevLink(this.run().host, dir);
  }

  linkDev(dir: string) {
    return linkDevPlugin(this.run().host, dir);
  }

  unlinkDev(target: string) {
    return unlinkDevPlugin(this.run().host, target);
  }

  /** Stops watching trust and sweeping idle backends; the backends end with `disposeBackends`. */
  stopWatching(): void {
    this.running?.backendSweep.dispose();
    this.running?.trustWatch.dispose();
  }

  async disposeBackends(): Promise<void> {
    await this.started?.backends.dispose();
  }

  /** A module started again (a host is started once): nothing of the last run is kept. */
  forget(): void {
    this.started = undefined;
    this.running = undefined;
  }
}
