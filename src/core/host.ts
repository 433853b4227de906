import type { AgentsFacade } from './facades/agents.js';
import type { AuditFacade } from './facades/audit.js';
import type { CatalogFacade } from './facades/catalog.js';
import type { ChatFacade } from './facades/chat.js';
import type { HostEvents } from './facades/events.js';
import type { KnowledgeFacade } from './facades/knowledge.js';
import type { McpFacade } from './facades/mcp.js';
import type { QuestionsFacade } from './facades/questions.js';
import type { ModelsFacade } from './facades/models.js';
import type { PluginsFacade } from './facades/plugins.js';
import type { RegistryFacade } from './facades/registry.js';
import type { HostSetup } from './facades/setup.js';
import type { SettingsFacade } from './facades/settings.js';
import type { ToolsFacade } from './facades/tools.js';
import type { WatcherFacade } from './facades/watcher.js';
import { agentsFacade, agentStores } from './modules/agentsModule.js';
import { chatModule } from './modules/chatModule.js';
import { hostBase, setupOf } from './modules/hostBase.js';
import { keepInternals, type HostInternals } from './modules/hostInternals.js';
import type { HostOptions } from './modules/hostOptions.js';
import { knowledgeModule } from './modules/knowledgeModule.js';
import { mcpModule } from './modules/mcpModule.js';
import { modelsModule } from './modules/modelsModule.js';
import { listWatchModule } from './modules/listWatchModule.js';
import { narrow } from './modules/narrow.js';
import { PluginsModule } from './modules/pluginsModule.js';
import { registryModule } from './modules/registryModule.js';
import { settingsServerModule } from './modules/settingsServerModule.js';
import { questionsModule } from './modules/questionsModule.js';
import { toolsModule } from './modules/toolsModule.js';
import { HostWatcher } from './reload/hostWatcher.js';
import { offersEmbeddings } from './knowledge/embedder.js';
import { UserSettingsService } from './settings/userSettings.js';
import { McpCatalog } from './mcp/catalogSource/mcpCatalog.js';
import { RecordsStore } from './store/recordsStore.js';

export type { HostOptions } from './modules/hostOptions.js';
export type { HostEvent } from './hostEvents.js';

/**
 * The host core: everything the three faces (Electron, `chatos serve`, the
 * CLI) share, as one facade per domain. `setup`, `events`, `audit` and
 * `plugins.catalog` work before `start()`; the rest needs the admin DB open.
 */
export interface Host {
  /** Opens the host's admin DB, fills the registry (docs/rules/registry.md#bootstrap) and loads the servers. */
  start(): Promise<void>;
  /** Writes the admin DB's pending changes now; rejects (a StoreError) if they did not reach the disk. Faces call it before saying a change is made. */
  save(): Promise<void>;
  /** Ends every running turn, server and backend, and flushes the admin DB and the audit. */
  dispose(): Promise<void>;
  readonly setup: HostSetup;
  readonly events: HostEvents;
  readonly audit: AuditFacade;
  readonly plugins: PluginsFacade;
  readonly registry: RegistryFacade;
  /** Everything the host asks the person (a tool's confirmation, a server's question or sampling request), answered here. */
  readonly questions: QuestionsFacade;
  readonly mcp: McpFacade;
  readonly tools: ToolsFacade;
  readonly agents: AgentsFacade;
  readonly models: ModelsFacade;
  readonly knowledge: KnowledgeFacade;
  readonly chat: ChatFacade;
  readonly watcher: WatcherFacade;
  /** The user's settings (docs/using/settings.md): language, theme, font size, defaults, the memory model; checked here, not only by the page. */
  readonly settings: SettingsFacade;
  /** The MCP server catalog (an MCP Registry, docs/rules/catalog.md): searched, shown, and added to mcp.yaml through mcp.admin.add. */
  readonly catalog: CatalogFacade;
}

/** The facades of a started host, the modules behind them, and how it stops. */
interface Started {
  facades: Pick<Host, 'registry' | 'questions' | 'mcp' | 'tools' | 'agents' | 'models' | 'knowledge' | 'chat' | 'watcher' | 'settings' | 'catalog'>;
  internals: HostInternals;
  dispose(): Promise<void>;
}

const PLUGIN_FACADE = [
  'catalog',
  'roots',
  'runGate',
  'trustState',
  'runPlan',
  'view',
  'appViews',
  'appServerProblems',
  'pageRegistry',
  'pushRegistration',
  'rescan',
  'rescanAndReload',
  'trust',
  'untrust',
  'install',
  'installOrUpdate',
  'previewInstall',
  'previewBundle',
  'installBundle',
  'previewUninstall',
  'uninstall',
  'contributionCopies',
  'setSyncAiContributes',
  'listRoots',
  'addRoot',
  'removeRoot',
  'devLinks',
  'previewDevLink',
  'linkDev',
  'unlinkDev',
  'backends',
] as const;

/**
 * The composition root: opens the store and the ports, then builds the
 * subsystem modules in the order they need each other. No async work
 * happens here; nothing is scanned, opened or started until `start()`.
 */
export function createHost(options: HostOptions = {}): Host {
  const base = hostBase(options);
  const plugins = new PluginsModule(base);
  let started: Started | undefined;
  const need = () => {
    if (!started) throw new Error('the host is not started: call start() first');
    return started.facades;
  };

  async function start(): Promise<void> {
    const store = await RecordsStore.open(base.home.adminDb(), { clock: base.clock, logger: base.logger, saveChanges: !options.readOnly });
    plugins.start(store);
    const { catalog, runGate } = plugins;
    const registry = registryModule(base, store, { catalog, runGate });
    const models = modelsModule(base, store);
    // The user's settings check their references against the agents and models (stores is defined below; read only at calls).
    const settings = new UserSettingsService({
      store,
      agentExists: (id) => stores.agents.get(id) !== undefined,
      model: (id) => models.service.get(id),
      offersEmbeddings,
    });
    const stores = agentStores(base, store, catalog, { modelId: () => settings.get().memoryEmbeddingModel, models: models.service });
    const knowledge = knowledgeModule(base, models.service);
    const lists = listWatchModule(base, store, knowledge.service);
    const settingsServer = settingsServerModule();
    const questions = questionsModule(base);
    const mcp = mcpModule(base, store, {
      registry: registry.center,
      runGate,
      settingsServer,
      agents: stores.agents,
      alwaysAllow: stores.alwaysAllow,
      models: models.service,
      questions,
    });
    const resolver = { registry: registry.center, catalog, runGate, models: models.service, agents: stores.agents, serverTrouble: mcp.trouble };
    const tools = toolsModule(base, {
      questions: questions.broker,
      mcp,
      registry: registry.center,
      runGate,
      catalog,
      agents: stores.agents,
      alwaysAllow: stores.alwaysAllow,
      knowledge: knowledge.service,
      memory: stores.memory,
      memoryFinder: stores.finder,
      resolver,
    });
    const chat = chatModule(base, store, {
      agents: stores.agents,
      acpTrust: stores.acpTrust,
      models: models.service,
      resolver: { registry: registry.center, catalog, runGate, models: models.service, agents: stores.agents },
      tools,
      mcp,
    });
    plugins.startOperations(registry, mcp);
    settingsServer.bind(
      {
        agents: stores.agents,
        registry: registry.center,
        catalog,
        rescan: () => plugins.rescanAndReload(),
        copies: plugins,
        runtime: mcp.runtime,
        snapshots: () => mcp.administration.snapshots(),
        serverSettings: mcp.settings,
        alwaysAllow: stores.alwaysAllow,
        knowledge: knowledge.service,
        memories: stores.memories,
      },
      tools.confirmations,
    );
    const watcher = new HostWatcher({
      mcpConfigFile: base.home.mcpConfig,
      pluginRoots: () => plugins.roots(),
      rootsFiles: [plugins.rememberedRoots.file, plugins.devLinkList.file],
      scan: () => catalog.rescan(),
      rescan: plugins.rescanOperation,
      reloadMcp: () => mcp.reload(),
    });
    started = {
      facades: {
        registry: registry.facade,
        questions: questions.facade,
        mcp: mcp.facade,
        tools: tools.facade,
        agents: agentsFacade(stores, { resolver, gateway: tools.gateway, ending: tools.ending, instructions: mcp.instructions, builtins: mcp.facade.builtins }),
        models: models.facade,
        knowledge: knowledge.facade,
        chat: chat.facade,
        watcher: { watch: (times) => watcher.watch(times) },
        settings: narrow(settings, ['get', 'update']),
        catalog: narrow(new McpCatalog({ registryUrl: () => settings.get().mcpRegistryUrl, admin: mcp.facade.admin, cacheDir: base.home.catalogCache }), ['search', 'show', 'add', 'bundle']),
      },
      internals: { store, secrets: base.secrets, audit: base.audit, plugins, registry, models, agents: stores, knowledge, mcp, tools, chat },
      async dispose() {
        lists.dispose();
        mcp.stopSweeping();
        plugins.stopWatching();
        tools.stopHolders();
        // Running turns write what they have (marked stopped) before their servers and the DB close.
        await chat.service.dispose();
        knowledge.service.dispose();
        tools.rejectPending();
        await Promise.all([mcp.dispose(), plugins.disposeBackends()]);
      },
    };
    await registry.bootstrap(catalog.rescan());
    await mcp.start();
    plugins.startWatching();
    lists.start();
  }

  const host: Host = {
    async start() {
      if (!started) await start();
    },
    save: () => (started ? started.internals.store.flush() : Promise.reject(new Error('the host is not started: call start() first'))),
    async dispose() {
      const current = started;
      started = undefined;
      await current?.dispose();
      plugins.forget();
      base.audit.flush();
      await current?.internals.store.close();
    },
    setup: setupOf(base),
    events: narrow(base.events, ['on']),
    audit: narrow(base.audit, ['query']),
    plugins: narrow(plugins, PLUGIN_FACADE),
    get registry() {
      return need().registry;
    },
    get questions() {
      return need().questions;
    },
    get mcp() {
      return need().mcp;
    },
    get tools() {
      return need().tools;
    },
    get agents() {
      return need().agents;
    },
    get models() {
      return need().models;
    },
    get knowledge() {
      return need().knowledge;
    },
    get chat() {
      return need().chat;
    },
    get watcher() {
      return need().watcher;
    },
    get catalog() {
      return need().catalog;
    },
    get settings() {
      return need().settings;
    },
  };
  keepInternals(host, () => {
    if (!started) throw new Error('the host is not started: call start() first');
    return started.internals;
  });
  return host;
}
