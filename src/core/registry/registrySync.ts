import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { HostMcpServer, HostPrompt, RegistryMcpServer, RegistryPrompt, RegistrySource } from '../../shared/registry.js';
import { HOST_APP_ID, type DataHome } from '../dataHome.js';
import { ProviderAppIdSchema } from '../plugins/manifestSchema.js';
import type { ScanResult } from '../plugins/pluginScanner.js';
import { RecordsStore } from '../store/recordsStore.js';
import type { LogicalTable } from '../store/logicalTable.js';
import { listDefaultProviders, loadProviderDefaults } from './providerDefaults.js';
import type { RegistryCenter, SyncReport } from './registryCenter.js';
import { HostMcpServers, HostPrompts, registryId } from './registryTables.js';

export interface RegistrySyncOptions {
  registry: RegistryCenter;
  hostStore: RecordsStore;
  home: DataHome;
  appRoot: string;
  defaultsDir: string;
  sessionRoot: string;
  projectRoot: string;
  /** Seed 000 §4.1: also persist plugin servers and prompts into the host's own `mcpServers` / `prompts`. */
  syncAiContributes: boolean;
}

const isPluginSource = (source: RegistrySource | undefined): source is Extract<RegistrySource, { kind: 'plugin' }> => source?.kind === 'plugin';

/** The rows a scan wants in the registry: each app's own server and its zh/en prompts, under its provider. */
export function pluginRegistrations(apps: readonly AppContribution[]): { servers: RegistryMcpServer[]; prompts: RegistryPrompt[] } {
  const servers: RegistryMcpServer[] = [];
  const prompts: RegistryPrompt[] = [];
  for (const app of apps) {
    const source: RegistrySource = { kind: 'plugin', pluginId: app.pluginId, appId: app.appId, pluginDir: app.pluginDir };
    if (app.mcp) {
      servers.push({
        id: registryId(app.providerAppId, app.serverName),
        providerAppId: app.providerAppId,
        name: app.serverName,
        url: app.mcp.url,
        env: app.mcp.env,
        description: app.mcp.description ?? app.description,
        tags: app.mcp.tags,
        allowMain: app.allowMain,
        allowSub: app.allowSub,
        enabled: app.mcp.enabled,
        callMeta: app.mcp.callMeta,
        source,
      });
    }
    for (const lang of ['zh', 'en'] as const) {
      const content = app.prompt?.[lang];
      if (content === undefined) continue;
      const name = app.promptNames[lang];
      prompts.push({ id: registryId(app.providerAppId, name), providerAppId: app.providerAppId, name, title: app.prompt?.title, content, lang, source });
    }
  }
  return { servers, prompts };
}

/**
 * Fills the registry at start and after every scan (seed 001 "启动/注册流程"):
 * the host's own servers and prompts, each provider app's from its DB (or
 * its bundled defaults when the DB is missing), and the plugins' apps.
 * Each origin is reconciled on its own, so a re-sync that changes nothing
 * rewrites no row.
 */
export class RegistrySync {
  /** App id → origins from the host and provider apps; plugin origins are added per scan. */
  private baseApps = new Map<string, string[]>([[HOST_APP_ID, ['host']]]);

  constructor(private readonly options: RegistrySyncOptions) {}

  async bootstrap(scan: ScanResult): Promise<{ problems: Problem[]; reports: SyncReport[] }> {
    const problems: Problem[] = [];
    const reports = [this.syncHostOwn(), await this.syncProviders(problems)];
    const plugins = this.syncPlugins(scan);
    problems.push(...plugins.problems);
    reports.push(plugins.report);
    return { problems, reports };
  }

  /** The host's own `mcpServers` / `prompts` rows, under provider `chatos` (plugin copies are already registered under their provider). */
  syncHostOwn(): SyncReport {
    const { registry, hostStore } = this.options;
    hostStore.refresh();
    const source: RegistrySource = { kind: 'host' };
    const servers = hostStore
      .list(HostMcpServers)
      .map((r) => r.payload)
      .filter((s) => !isPluginSource(s.source))
      .map(({ id: _id, source: _source, ...config }): RegistryMcpServer => ({ ...config, id: registryId(HOST_APP_ID, config.name), providerAppId: HOST_APP_ID, source }));
    const prompts = hostStore
      .list(HostPrompts)
      .map((r) => r.payload)
      .filter((p) => !isPluginSource(p.source))
      .map(({ id: _id, source: _source, ...config }): RegistryPrompt => ({ ...config, id: registryId(HOST_APP_ID, config.name), providerAppId: HOST_APP_ID, source }));
    return registry.reconcile((s) => s.kind === 'host', { servers, prompts });
  }

  /** Provider apps: those with a DB under the data home, and those with bundled defaults. */
  async syncProviders(problems: Problem[]): Promise<SyncReport> {
    const { home, defaultsDir, appRoot, registry } = this.options;
    const servers: RegistryMcpServer[] = [];
    const prompts: RegistryPrompt[] = [];
    this.baseApps = new Map([[HOST_APP_ID, ['host']]]);
    const withDb = listProviderDbs(home);
    for (const appId of withDb) {
      const file = home.adminDb(appId);
      const store = await RecordsStore.open(file, { readOnly: true });
      try {
        problems.push(...store.problems);
        const source: RegistrySource = { kind: 'app-db', file };
        for (const { payload } of store.list(HostMcpServers)) {
          const { id: _id, source: _s, ...config } = payload;
          servers.push({ ...config, id: registryId(appId, config.name), providerAppId: appId, source });
        }
        for (const { payload } of store.list(HostPrompts)) {
          const { id: _id, source: _s, ...config } = payload;
          prompts.push({ ...config, id: registryId(appId, config.name), providerAppId: appId, source });
        }
        problems.push(...store.problems.filter((p) => !problems.includes(p)));
      } finally {
        await store.close();
      }
      this.baseApps.set(appId, ['app-db']);
    }
    for (const appId of listDefaultProviders(defaultsDir)) {
      if (withDb.includes(appId)) continue; // its own DB wins over the bundled defaults
      const vars = { appRoot, home: home.root, appDir: home.appDir(appId), sessionRoot: this.options.sessionRoot, projectRoot: this.options.projectRoot };
      const defaults = loadProviderDefaults(defaultsDir, appId, appRoot, vars);
      problems.push(...defaults.problems);
      for (const config of defaults.servers) {
        servers.push({ ...withServerDefaults(config), id: registryId(appId, config.name), providerAppId: appId, source: { kind: 'defaults', file: defaults.serversFile } });
      }
      for (const config of defaults.prompts) {
        prompts.push({ ...config, id: registryId(appId, config.name), providerAppId: appId, source: { kind: 'defaults', file: defaults.promptsFile } });
      }
      this.baseApps.set(appId, ['defaults']);
    }
    return registry.reconcile((s) => s.kind === 'app-db' || s.kind === 'defaults', { servers, prompts });
  }

  /**
   * Registers every loaded plugin app; removes what a vanished plugin
   * registered, with its grants (reported). A plugin whose folder is still
   * there but currently invalid (mid-edit) keeps its last registration.
   */
  syncPlugins(scan: ScanResult): { report: SyncReport; problems: Problem[] } {
    const { registry } = this.options;
    const desired = pluginRegistrations(scan.apps);
    // A plugin refused for claiming another app's provider id keeps nothing under it, not even from before.
    const invalidDirs = new Set(scan.plugins.filter((p) => p.status === 'invalid' && !p.problems.some((problem) => problem.code === 'PROVIDER_APP_ID_CLAIMED')).map((p) => p.dir));
    const report = registry.reconcile((s) => s.kind === 'plugin', desired, (s) => isPluginSource(s) && invalidDirs.has(s.pluginDir));

    const apps = new Map(this.baseApps);
    for (const app of scan.apps) apps.set(app.providerAppId, [...(apps.get(app.providerAppId) ?? []), `plugin:${app.pluginId}`]);
    registry.reconcileApps(apps);

    if (this.options.syncAiContributes) this.syncHostCopies(desired, invalidDirs);
    const problems: Problem[] = report.removed.map((removed) => ({
      severity: 'notice' as const,
      code: 'REGISTRATION_REMOVED',
      file: this.options.home.adminDb(),
      path: '',
      message: `${removed.kind} "${removed.id}" was unregistered because its plugin is gone${
        removed.revokedGrants.length ? `; revoked its grant${removed.revokedGrants.length > 1 ? 's' : ''} to ${removed.revokedGrants.map((g) => g.appId).join(', ')}` : ''
      }`,
    }));
    return { report, problems };
  }

  /** Seed 000 §4.1 `syncAiContributes`: plugin servers and prompts also appear in the host's own lists. */
  private syncHostCopies(desired: { servers: RegistryMcpServer[]; prompts: RegistryPrompt[] }, invalidDirs: Set<string>): void {
    const { hostStore } = this.options;
    const servers = desired.servers.map(({ id: _id, providerAppId: _p, ...rest }): HostMcpServer => ({ ...rest, id: rest.name }));
    const prompts = desired.prompts.map(({ id: _id, providerAppId: _p, ...rest }): HostPrompt => ({ ...rest, id: rest.name }));
    hostStore.transaction(() => {
      reconcileHostTable(hostStore, HostMcpServers, servers, invalidDirs);
      reconcileHostTable(hostStore, HostPrompts, prompts, invalidDirs);
    });
  }
}

function reconcileHostTable<T extends { id: string; source?: RegistrySource }>(store: RecordsStore, table: LogicalTable<T>, desired: T[], invalidDirs: Set<string>): void {
  const wanted = new Set(desired.map((r) => r.id));
  for (const row of store.list(table)) {
    const source = row.payload.source;
    if (isPluginSource(source) && !wanted.has(row.id) && !invalidDirs.has(source.pluginDir)) store.delete(table, row.id);
  }
  for (const row of desired) store.put(table, row.id, row);
}

function withServerDefaults<T extends { env?: Record<string, string>; tags?: string[]; allowMain?: boolean; allowSub?: boolean; enabled?: boolean }>(config: T) {
  return { ...config, env: config.env ?? {}, tags: config.tags ?? [], allowMain: config.allowMain ?? false, allowSub: config.allowSub ?? true, enabled: config.enabled ?? true };
}

/** Other apps of the data home that keep an admin DB: `$CHATOS_HOME/<app>/admin.db`. */
export function listProviderDbs(home: DataHome): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(home.root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && e.name !== HOST_APP_ID && ProviderAppIdSchema.safeParse(e.name).success && fs.existsSync(path.join(home.root, e.name, 'admin.db')))
    .map((e) => e.name)
    .sort();
}
