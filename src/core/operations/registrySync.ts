import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppContribution } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import type { HostMcpServer, HostPrompt, RegistryMcpServer, RegistryPrompt, RegistrySource } from '../../shared/registry.js';
import { HOST_APP_ID, type DataHome } from '../dataHome.js';
import { ProviderAppIdSchema } from '../plugins/manifestSchema.js';
import type { ScanResult } from '../contributions/pluginScanner.js';
import { RecordsStore } from '../store/recordsStore.js';
import type { LogicalTable } from '../store/logicalTable.js';
import { listDefaultProviders, loadProviderDefaults } from '../registry/providerDefaults.js';
import type { RegistryCenter, SyncReport } from '../registry/registryCenter.js';
import { HostMcpServers, HostPrompts, registryId } from '../registry/registryTables.js';

export interface RegistrySyncOptions {
  registry: RegistryCenter;
  hostStore: RecordsStore;
  home: DataHome;
  appRoot: string;
  defaultsDir: string;
  sessionRoot: string;
  projectRoot: string;
  /** docs/rules/names-and-exposure.md#where-the-contribution-lives: also persist plugin servers and prompts into the host's own `mcpServers` / `prompts`? Asked at every sync: the switch is a setting another process may change. */
  syncAiContributes: () => boolean;
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
        // What every tools/call's _meta carries (callMeta expanded, chatos.uiApp, workdir), not the manifest's text.
        callMeta: app.meta,
        permissions: Object.entries(app.mcp.permissions).map(([pattern, level]) => ({ pattern, level })),
        ...(app.mcp.trulyStateless ? { trulyStateless: true } : {}),
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
 * Fills the registry at start and after every scan (docs/rules/registry.md#bootstrap):
 * the host's own servers and prompts, each provider app's from its DB (or
 * its bundled defaults when the DB is missing or unreadable), and the
 * plugins' apps. Each origin is reconciled on its own, so a re-sync that
 * changes nothing rewrites no row.
 *
 * Several processes share the admin DB (the app, `chatos serve`, the CLI),
 * each with its own plugin roots and environment. A sync changes only what
 * its process is authoritative for: plugins of the roots it scanned, and
 * what every process reads alike (the host's DB, mcp.yaml, provider DBs,
 * defaults). What it no longer finds is marked missing, never removed: its
 * grants stay until it returns, `uninstall` removes it, or the user prunes.
 */
export class RegistrySync {
  /** App id → origins from the host and provider apps; plugin origins are added per scan. */
  private baseApps = new Map<string, string[]>([[HOST_APP_ID, ['host']]]);

  constructor(private readonly options: RegistrySyncOptions) {}

  async bootstrap(scan: ScanResult): Promise<{ problems: Problem[]; reports: SyncReport[] }> {
    const problems: Problem[] = [];
    const reports = [this.syncHostOwn(), await this.syncProviders(problems)];
    reports.push(this.syncPlugins(scan).report);
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
    return registry.reconcile((s) => s.kind === 'host', { servers, prompts }, { missingReason: () => `no longer in the host's own lists (${hostStore.file})` });
  }

  /**
   * Provider apps: those with a DB under the data home, and those with
   * bundled defaults. A DB that cannot be read (and has no good backup) is
   * no DB: its bundled defaults stand in, with a problem; without defaults
   * its last registrations are kept as they are.
   */
  async syncProviders(problems: Problem[]): Promise<SyncReport> {
    const { home, defaultsDir, registry } = this.options;
    const servers: RegistryMcpServer[] = [];
    const prompts: RegistryPrompt[] = [];
    this.baseApps = new Map([[HOST_APP_ID, ['host']]]);
    const withDefaults = listDefaultProviders(defaultsDir);
    const unreadable = new Set<string>();
    const readDbs = new Set<string>();
    for (const appId of listProviderDbs(home)) {
      const file = home.adminDb(appId);
      const store = await RecordsStore.open(file, { readOnly: true });
      try {
        problems.push(...store.problems);
        if (store.unreadable) {
          unreadable.add(file);
          problems.push(providerDbUnreadable(appId, file, withDefaults.includes(appId)));
          continue;
        }
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
      readDbs.add(appId);
      this.baseApps.set(appId, ['app-db']);
    }
    for (const appId of withDefaults) {
      if (readDbs.has(appId)) continue; // its own DB wins over the bundled defaults
      this.addDefaults(appId, servers, prompts, problems);
    }
    // An unreadable DB without defaults: its app stays registered, with its last registrations.
    for (const file of unreadable) {
      const appId = path.basename(path.dirname(file));
      if (!this.baseApps.has(appId)) this.baseApps.set(appId, ['app-db']);
    }
    return registry.reconcile(
      (s) => s.kind === 'app-db' || s.kind === 'defaults',
      { servers, prompts },
      {
        keep: ({ source: s }) => s.kind === 'app-db' && unreadable.has(s.file) && !withDefaults.includes(path.basename(path.dirname(s.file))),
        missingReason: ({ source: s }) =>
          s.kind === 'defaults' ? `no longer in the bundled defaults, or its app now has its own DB (${s.file})` : `no longer in ${s.kind === 'app-db' ? s.file : 'its DB'}`,
      },
    );
  }

  private addDefaults(appId: string, servers: RegistryMcpServer[], prompts: RegistryPrompt[], problems: Problem[]): void {
    const { home, defaultsDir, appRoot } = this.options;
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

  /**
   * Registers every loaded plugin app. Of the roots this scan listed, a
   * registration whose plugin is no longer there is marked missing (kept,
   * with its grants, not offered); one whose plugin is there but invalid
   * (mid-edit) keeps its last registration. Registrations from roots this
   * process did not scan are left as they are.
   */
  syncPlugins(scan: ScanResult): { report: SyncReport } {
    const { registry } = this.options;
    const desired = pluginRegistrations(scan.apps);
    // A plugin refused for naming the reserved host id is not mid-edit: what it registered there before is not offered any more.
    const claimOf = new Map(scan.plugins.flatMap((p) => p.problems.filter((problem) => problem.code === 'PROVIDER_APP_ID_CLAIMED').map((problem) => [p.dir, problem.message] as const)));
    const invalidDirs = new Set(scan.plugins.filter((p) => p.status === 'invalid' && !claimOf.has(p.dir)).map((p) => p.dir));
    const scanned = new Set(scan.roots);
    // A development link is a root that is the plugin folder itself.
    // What a page pushed is not in plugin.json: a scan cannot find it, so it is not this sync's (uninstall removes it).
    const inScannedRoot = (source: RegistrySource) => isPluginSource(source) && !source.pushed && (scanned.has(path.dirname(source.pluginDir)) || scanned.has(source.pluginDir));
    const report = registry.reconcile(inScannedRoot, desired, {
      keep: ({ source: s }) => isPluginSource(s) && invalidDirs.has(s.pluginDir),
      missingReason: ({ source: s }) => {
        if (!isPluginSource(s)) return 'its plugin is gone';
        const claim = claimOf.get(s.pluginDir);
        return claim !== undefined ? `plugin ${s.pluginId} (app ${s.appId}): ${claim}` : `plugin ${s.pluginId} (app ${s.appId}) is no longer in ${path.dirname(s.pluginDir)}`;
      },
    });

    const plugins = new Map<string, string[]>();
    for (const app of scan.apps) plugins.set(app.providerAppId, [...(plugins.get(app.providerAppId) ?? []), `plugin:${app.pluginId}`]);
    registry.syncApps(this.baseApps, plugins);

    if (this.options.syncAiContributes()) this.syncHostCopies(desired, (s) => inScannedRoot(s) && !invalidDirs.has(s.pluginDir));
    else this.dropHostCopies();
    return { report };
  }

  /** Switched off: the copies leave the host's lists (they hold no grants, and the plugins' own rows stay registered). */
  private dropHostCopies(): void {
    const { hostStore } = this.options;
    const servers = hostStore.list(HostMcpServers).filter((row) => isPluginSource(row.payload.source));
    const prompts = hostStore.list(HostPrompts).filter((row) => isPluginSource(row.payload.source));
    if (servers.length + prompts.length === 0) return;
    hostStore.transaction(() => {
      for (const row of servers) hostStore.delete(HostMcpServers, row.id);
      for (const row of prompts) hostStore.delete(HostPrompts, row.id);
    });
  }

  /** `syncAiContributes` (docs/rules/names-and-exposure.md#where-the-contribution-lives): plugin servers and prompts also appear in the host's own lists. */
  private syncHostCopies(desired: { servers: RegistryMcpServer[]; prompts: RegistryPrompt[] }, gone: (source: Extract<RegistrySource, { kind: 'plugin' }>) => boolean): void {
    const { hostStore } = this.options;
    const servers = desired.servers.map(({ id: _id, providerAppId: _p, ...rest }): HostMcpServer => ({ ...rest, id: rest.name }));
    const prompts = desired.prompts.map(({ id: _id, providerAppId: _p, ...rest }): HostPrompt => ({ ...rest, id: rest.name }));
    hostStore.transaction(() => {
      reconcileHostTable(hostStore, HostMcpServers, servers, gone);
      reconcileHostTable(hostStore, HostPrompts, prompts, gone);
    });
  }
}

/** A copy in the host's own lists, unlike a registration, holds no grants: it goes when its plugin is gone from a root this process scanned. */
function reconcileHostTable<T extends { id: string; source?: RegistrySource }>(
  store: RecordsStore,
  table: LogicalTable<T>,
  desired: T[],
  gone: (source: Extract<RegistrySource, { kind: 'plugin' }>) => boolean,
): void {
  const wanted = new Set(desired.map((r) => r.id));
  for (const row of store.list(table)) {
    const source = row.payload.source;
    if (isPluginSource(source) && !wanted.has(row.id) && gone(source)) store.delete(table, row.id);
  }
  for (const row of desired) store.put(table, row.id, row);
}

function providerDbUnreadable(appId: string, file: string, hasDefaults: boolean): Problem {
  return {
    severity: 'warning',
    code: 'PROVIDER_DB_UNREADABLE',
    file,
    path: '',
    message: hasDefaults
      ? `${appId}'s DB cannot be read, so its bundled defaults are registered instead until it can`
      : `${appId}'s DB cannot be read; its registrations from before are kept as they were`,
    hint: `start ${appId} so it can repair its DB from its backups (the problem above says what is wrong with it)`,
  };
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
