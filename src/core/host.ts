import * as os from 'node:os';
import * as path from 'node:path';
import { findAppRoot } from './appPaths.js';
import { ExposeDefaults } from './contributions/exposeDefaults.js';
import { PluginCatalog } from './contributions/pluginCatalog.js';
import { DataHome, resolveDataHome } from './dataHome.js';
import type { Problem } from '../shared/problems.js';
import { PluginScanner, type PluginRoot, type ScanResult } from './plugins/pluginScanner.js';
import { FolderListFile, RememberedRoots } from './plugins/rememberedRoots.js';
import { RescanPlugins, scanChanged } from './operations/rescanPlugins.js';
import { PluginOperations } from './operations/pluginOperations.js';
import { ServerAdministration } from './operations/serverAdministration.js';
import { Callers } from './operations/callers.js';
import type { HostOperations } from './operations/hostOperations.js';
import type { HostEvent } from './hostEvents.js';
import { ToolGateway, type GatewayHooks } from './mcp/gateway/toolGateway.js';
import { McpRuntime, type ReloadReport } from './mcp/mcpRuntime.js';
import { McpServerAdmin } from './mcp/admin/mcpServerAdmin.js';
import { McpSignIn } from './mcp/admin/mcpSignIn.js';
import { OAuthService } from './mcp/auth/oauthService.js';
import { IdleSweep } from './mcp/connection/idleSweep.js';
import { LeaseHolders } from './mcp/connection/leaseHolders.js';
import { serverTrouble, type ServerTrouble } from './mcp/serverTrouble.js';
import { leaseTimes } from './mcp/config/leaseSettings.js';
import { AgentStore } from './agents/agentStore.js';
import { ModelService } from './chat/models/modelService.js';
import { ModelStore } from './chat/models/modelStore.js';
import { resolveAgent } from './agents/agentResolver.js';
import { chatPolicy, type ChatPolicy } from './chat/chatPolicy.js';
import { ChatService } from './chat/chatService.js';
import { createModelClient } from './chat/providers/modelClient.js';
import type { RetryPolicy } from './chat/retryPolicy.js';
import { AlwaysAllowStore } from './confirmation/alwaysAllowStore.js';
import { AuditLog } from './audit/auditLog.js';
import { backendStopDraft, releaseDraft } from './audit/releaseAudit.js';
import { ToolConfirmationService } from './confirmation/toolConfirmationService.js';
import { gatewayHooks } from './mcp/gateway/gatewayHooks.js';
import { announcingAppCalls, type AppToolCall } from './mcp/gateway/callEvents.js';
import { ServerSettings } from './mcp/settings/serverSettings.js';
import { createSettingsContext } from './mcp/settings/settingsContext.js';
import { KnowledgeService } from './knowledge/knowledgeService.js';
import { createSettingsServer, registerSettingsConfirmables, SETTINGS_SERVER_NAME, settingsServerDefinition } from './mcp/settings/settingsServer.js';
import type { SettingsContext } from './mcp/settings/types.js';
import { RegistryCenter } from './registry/registryCenter.js';
import { HostPromptStore } from './registry/hostPromptStore.js';
import { FileSecretStore } from './secrets/fileSecretStore.js';
import { mcpValueSecretName, type SecretStore } from './secrets/secretStore.js';
import { silentLogger, systemClock, systemScheduler, type Clock, type Logger, type Scheduler } from './ports.js';
import { anyChanged, ChangeWatcher, fileChangedCheck } from './reload/changeWatcher.js';
import { RegistrySync } from './registry/registrySync.js';
import { providerOwners } from './registry/providerOwners.js';
import { liveRegistryProblems } from './registry/registryProblems.js';
import { HOST_DB_TABLES } from './hostTables.js';
import { RecordsStore } from './store/recordsStore.js';
import { Fingerprinter } from './trust/pluginFingerprint.js';
import { PluginTrust } from './trust/pluginTrust.js';
import { TrustWatch } from './trust/trustWatch.js';
import { stopNotRunnable } from './policy/stopNotRunnable.js';
import { refusalText, RunGate } from './policy/runGate.js';
import { PluginBackends, type BackendResolution } from './uiApps/pluginBackends.js';
import { PidRegistry } from './process/pidRegistry.js';
import { hostModulesOf, type HostModules } from './plugins/hostModules.js';

export interface HostOptions {
  /** Data home (`$CHATOS_HOME`); default `$CHATOS_HOME`, then `~/.chatos`. */
  home?: string;
  /** The installed application's root; `plugins/` and `defaults/` are read from here, never written. */
  appRoot?: string;
  /** Built-in plugin root; default `<appRoot>/plugins`. */
  builtinPluginsDir?: string;
  /** Extra plugin roots for this process only (`--plugins`), treated like the user root (untrusted); remembered ones are read from the data home. */
  extraPluginRoots?: string[];
  /** Bundled defaults; default `<appRoot>/defaults`. */
  defaultsDir?: string;
  sessionRoot?: string;
  projectRoot?: string;
  /** The environment `{ env: NAME }` config values are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Replaces the gateway's permission, confirmation and audit hooks (tests). */
  gatewayHooks?: GatewayHooks;
  /** Timers for deadlines (the 60 s confirmation expiry); default the system's, reading `clock`. */
  scheduler?: Scheduler;
  /**
   * How long a conversation's own server instance may sit unused before it
   * is released (default 10 minutes); mcp.yaml's `leases.idleMinutes` wins.
   */
  leaseIdleMs?: number;
  /**
   * How long the instances of a closed page or a gone WebSocket client are
   * kept in case it comes back (default 30 s); mcp.yaml's
   * `leases.releaseGraceSeconds` wins.
   */
  leaseGraceMs?: number;
  /** How long a plugin backend may go without a call before it is stopped (default 5 minutes); mcp.yaml's `leases.backendIdleMinutes` wins. */
  backendIdleMs?: number;
  /** docs/rules/names-and-exposure.md#where-the-contribution-lives: also persist plugin servers and prompts into the host's own lists. Default off. */
  syncAiContributes?: boolean;
  /**
   * This process only looks (a read-only CLI command): the admin DB is
   * opened without saving, so the registry sync still builds its view, in
   * memory, and nothing in the data home's DB changes.
   */
  readOnly?: boolean;
  /** Limits of the conversation loop (rounds per turn, sub-agent depth, retries); each has a default. */
  chat?: Partial<Omit<ChatPolicy, 'retry'>> & { retry?: Partial<RetryPolicy> };
  /** Where API keys are kept; default a file only the user can read (`chatos/secrets.json`). The desktop app passes its safeStorage store. */
  secrets?: (home: DataHome) => SecretStore;
  clock?: Clock;
  logger?: Logger;
}

export type { HostEvent } from './hostEvents.js';

/** The host core: everything the three faces (Electron, `chatos serve`, the CLI) share. */
export interface Host {
  readonly home: DataHome;
  readonly appRoot: string;
  readonly defaultsDir: string;
  /** The host's SDK and zod as plugin servers and backends get them (the `--import` hook and versions). */
  readonly hostModules: HostModules;
  /** Built-in, user, remembered (`chatos roots add`) and this process's extra roots, as they are now. */
  readonly pluginRoots: readonly PluginRoot[];
  /** The extra plugin roots every process scans, in the data home. */
  readonly rememberedRoots: RememberedRoots;
  /** Plugin folders linked in place for development (`chatos dev`), in the data home. */
  readonly devLinks: FolderListFile;
  readonly catalog: PluginCatalog;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Opens the host's admin DB and fills the registry (docs/rules/registry.md#bootstrap). Needed by everything below. */
  start(): Promise<void>;
  readonly registry: RegistryCenter;
  readonly trust: PluginTrust;
  /** May this plugin's code start now? Asked by every face and at every spawn. */
  readonly runGate: RunGate;
  /** Server definitions from every source, their connections, hot reload. */
  readonly mcp: McpRuntime;
  /** The only way a tool runs. */
  readonly gateway: ToolGateway;
  /** Pending confirmations of sensitive tools; faces answer them with `respond()`. */
  readonly confirmations: ToolConfirmationService;
  /** Every gateway call, newest first. */
  readonly audit: AuditLog;
  /** Per-server user settings: tools switched off, permission overrides. */
  readonly serverSettings: ServerSettings;
  /** API keys of model entries; nothing else reads them. */
  readonly secrets: SecretStore;
  /** Model entries (admin DB) with their keys (SecretStore or environment): the only place a key is read. */
  readonly models: ModelService;
  /** Agents (docs/rules/agents.md), in the host's admin DB. */
  readonly agents: AgentStore;
  /** The host's own prompts (zh/en pairs in its `prompts` table), registered under `chatos` and granted like any prompt. */
  readonly hostPrompts: HostPromptStore;
  /** Conversations and their turns: the chat operations every face calls. */
  readonly chat: ChatService;
  /** Knowledge bases: documents, chunks, embeddings (through model entries) and hybrid search; one folder each under the data home. */
  readonly knowledge: KnowledgeService;
  /** "Always allow" answers per agent and tool (admin DB): listed and revoked on the agent's settings. */
  readonly alwaysAllow: AlwaysAllowStore;
  /** Plugin backends, each in its own Node process, started on first call; only for trusted plugins. */
  readonly backends: PluginBackends;
  /**
   * What is wrong with a server now (its command is not there, or its last
   * start failed), for its card, the Problems page, its app and the agents
   * that use it; undefined when nothing is known to be wrong.
   */
  serverTrouble(serverId: string): ServerTrouble | undefined;
  /** Who keeps conversations alive (a browser tab): their instances are released a grace time after it is gone. */
  readonly leaseHolders: LeaseHolders;
  /** Ends a conversation: its instances (audited as released), its "approve for this conversation" answers, its ties to holders. */
  endConversation(conversationId: string, reason?: 'conversation-ended' | 'holder-gone'): Promise<number>;
  /** Re-reads mcp.yaml and the registry's servers; swaps only what changed. */
  reloadMcp(): Promise<ReloadReport>;
  /** The user's MCP servers (mcp.yaml): add, edit, remove, test, import, templates; every face edits them through this. */
  readonly mcpServers: McpServerAdmin;
  /** Signing in to the user's remote servers (OAuth): sign in, cancel, sign out, state. */
  readonly mcpSignIn: McpSignIn;
  /**
   * Hot reload: watches mcp.yaml and the plugin roots (fs.watch plus polling,
   * debounced); a change rescans the plugins and/or reloads the servers.
   * Returns the function that stops watching.
   */
  watch(options?: { debounceMs?: number; pollMs?: number }): () => void;
  /** Live events for the faces (UI, serve): reloads, rescans. Returns an unsubscribe function. */
  onEvent(listener: (event: HostEvent) => void): () => void;
  /** Problems of the registry as it is now: provider DBs and defaults (read at start), and the admin DB (rows failing their schema, missing registrations, unsaved changes). */
  readonly registryProblems: readonly Problem[];
  /** Writes the admin DB's pending changes now; rejects (a StoreError) if they did not reach the disk. Faces call it before saying a change is made. */
  save(): Promise<void>;
  /** Scans the plugin roots (re-reading only what changed) and syncs the registry with the result. */
  rescan(): ScanResult;
  /** The core's multi-step flows (rescan, plugin lifecycle, server administration, callers): what every face calls. */
  readonly operations: HostOperations;
  /** Flushes the admin DB and releases everything. */
  dispose(): Promise<void>;
}

/**
 * Built-in, development links, user, remembered, then this run's roots; a
 * folder given twice is scanned once, as the first. Links come before the
 * user root, so a linked folder is the copy that loads when its id is also
 * installed.
 */
function currentPluginRoots(builtinDir: string, userDir: string, remembered: readonly string[], extra: readonly string[], devLinks: readonly string[]): PluginRoot[] {
  const roots: PluginRoot[] = [
    { dir: builtinDir, source: 'builtin' },
    ...devLinks.map((dir) => ({ dir, source: 'dev' as const, single: true })),
    { dir: userDir, source: 'user' },
    ...remembered.map((dir) => ({ dir, source: 'extra' as const, remembered: true })),
    ...extra.map((dir) => ({ dir: path.resolve(dir), source: 'extra' as const })),
  ];
  return roots.filter((root, i) => roots.findIndex((other) => other.dir === root.dir) === i);
}

/**
 * The composition root: the only place services are constructed and wired.
 * No async work happens here; nothing is scanned, opened or started until
 * `start()` is called.
 */
export function createHost(options: HostOptions = {}): Host {
  const home = new DataHome(resolveDataHome(options.home));
  const appRoot = options.appRoot ?? findAppRoot();
  const defaultsDir = options.defaultsDir ?? path.join(appRoot, 'defaults');
  const sessionRoot = path.resolve(options.sessionRoot ?? process.cwd());
  const projectRoot = path.resolve(options.projectRoot ?? sessionRoot);
  const clock = options.clock ?? systemClock;
  const hostModules = hostModulesOf(appRoot);
  const logger = options.logger ?? silentLogger;
  const builtinDir = options.builtinPluginsDir ?? path.join(appRoot, 'plugins');
  const rememberedRoots = new RememberedRoots(home.pluginRootsFile, () => [builtinDir, home.userPluginsDir]);
  const devLinks = new FolderListFile(home.devLinksFile);
  const pluginRoots = () => currentPluginRoots(builtinDir, home.userPluginsDir, rememberedRoots.list(), options.extraPluginRoots ?? [], devLinks.list());
  const scanner = new PluginScanner(
    pluginRoots,
    {
      home,
      exposeDefaults: new ExposeDefaults(path.join(defaultsDir, 'ui-apps-expose')),
      sessionRoot,
      projectRoot,
    },
    () => providerOwners(home, defaultsDir),
  );
  const catalog = new PluginCatalog(scanner);

  let started:
    | {
        store: RecordsStore;
        registry: RegistryCenter;
        trust: PluginTrust;
        runGate: RunGate;
        sync: RegistrySync;
        mcp: McpRuntime;
        gateway: ToolGateway;
        serverSettings: ServerSettings;
        agents: AgentStore;
        models: ModelService;
        knowledge: KnowledgeService;
        chat: ChatService;
        alwaysAllow: AlwaysAllowStore;
        hostPrompts: HostPromptStore;
        operations: HostOperations;
      }
    | undefined;
  const scheduler = options.scheduler ?? { ...systemScheduler, now: () => clock.now() };
  // Lease times and deadlines on one clock: a test's scheduler moves the idle time of the instances too.
  const now = options.scheduler ? () => scheduler.now() : () => clock.now();
  let idleSweep: IdleSweep | undefined;
  let backendSweep: IdleSweep | undefined;
  let trustWatch: TrustWatch | undefined;
  const leaseTimesNow = () => leaseTimes(need().mcp.leaseSettings, { idleMs: options.leaseIdleMs, graceMs: options.leaseGraceMs, backendIdleMs: options.backendIdleMs });
  const endConversation = async (conversationId: string, reason: 'conversation-ended' | 'holder-gone' = 'conversation-ended') => {
    confirmations.forgetConversation(conversationId);
    leaseHolders.forget(conversationId);
    return started ? started.mcp.connections.endConversation(conversationId, reason) : 0;
  };
  const leaseHolders = new LeaseHolders({
    scheduler,
    graceMs: () => (started ? leaseTimesNow().graceMs : 0),
    endConversation: (conversationId) => endConversation(conversationId, 'holder-gone'),
    onError: (error) => logger.warn(`releasing the instances of a closed page failed: ${(error as Error).message}`),
  });
  let alwaysAllow: AlwaysAllowStore | undefined;
  const confirmations = new ToolConfirmationService(scheduler, undefined, () => alwaysAllow);
  const audit = new AuditLog(path.join(home.hostDir, 'audit'));
  const secrets = options.secrets?.(home) ?? new FileSecretStore(home.secretsFile, { logger });
  let startupProblems: Problem[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const emit = (event: HostEvent) => {
    for (const listener of listeners) listener(event);
  };
  const reloadMcp = async () => {
    const report = await need().mcp.reload();
    emit({ kind: 'mcp-reloaded', report });
    return report;
  };
  const stopFailed = (error: unknown) => logger.warn(`stopping what a plugin that may no longer run ran failed: ${(error as Error).message}`);
  const rescan = () => need().operations.rescan.rescan();
  const need = () => {
    if (!started) throw new Error('the host is not started: call start() first');
    return started;
  };
  // Asked on every backend call: nothing of an untrusted, removed or broken plugin runs.
  const resolveBackend = (pluginId: string): BackendResolution => {
    if (!started) return { ok: false, message: 'the host is not started' };
    const plugin = catalog.pluginById(pluginId);
    // Said first, trusted or not: trusting would not help.
    if (plugin?.status === 'loaded' && !plugin.backendEntry) return { ok: false, message: `plugin ${pluginId} declares no backend` };
    const allowed = started.runGate.check({ pluginId }, 'backend');
    if (!allowed.ok) return { ok: false, message: refusalText(allowed) };
    if (!plugin?.backendEntry) return { ok: false, message: `plugin ${pluginId} declares no backend` };
    const uiApp = catalog.apps.find((a) => a.pluginDir === plugin.dir)?.uiApp;
    const ctx = uiApp
      ? { pluginId, pluginDir: uiApp.pluginDir, dataDir: uiApp.dataDir, stateDir: uiApp.stateDir, sessionRoot: uiApp.sessionRoot, projectRoot: uiApp.projectRoot }
      : { pluginId, pluginDir: plugin.dir, dataDir: home.pluginDataDir(pluginId), stateDir: home.pluginStateDir(pluginId), sessionRoot, projectRoot };
    return { ok: true, entry: plugin.backendEntry, ctx };
  };
  // Remote servers' sign-in tokens and registrations live in the key store, beside the other secrets.
  const oauth = new OAuthService({ secrets, now });
  const mcpSignIn = new McpSignIn({ configFile: home.mcpConfig, hostEnv: options.env ?? process.env, logger, oauth, readStoredValue: (name) => secrets.get(mcpValueSecretName(name)) });
  const mcpServers = new McpServerAdmin({
    configFile: home.mcpConfig,
    secrets,
    oauth,
    hostEnv: options.env ?? process.env,
    logger,
    runtime: { tryStart: (definition, timeoutMs) => need().mcp.tryStart(definition, timeoutMs), definition: (id) => need().mcp.definition(id) },
    reload: reloadMcp,
    templates: { appRoot, hostDir: home.hostDir, homeDir: os.homedir() },
  });
  // One record of what this process runs, servers and backends alike: after a crash, the next start of any host ends both.
  const runDir = path.join(home.hostDir, 'run');
  const pids = new PidRegistry(runDir);
  const backends = new PluginBackends({
    now,
    pids,
    nodeArgs: hostModules.nodeArgs,
    resolve: resolveBackend,
    gate: (pluginId) => (started ? started.runGate.check({ pluginId }, 'backend') : { ok: false, code: 'PLUGIN_MISSING', message: 'the host is not started', fix: 'start the host first' }),
    logger,
  });
  // Every backend stopped because its plugin may no longer run is on the record, like a released lease.
  backends.onStop((stop) => audit.append(backendStopDraft(stop)));

  const host: Host = {
    home,
    appRoot,
    defaultsDir,
    hostModules,
    get pluginRoots() {
      return pluginRoots();
    },
    rememberedRoots,
    devLinks,
    catalog,
    clock,
    logger,
    async start() {
      if (started) return;
      const store = await RecordsStore.open(home.adminDb(), { clock, logger, saveChanges: !options.readOnly });
      const registry = new RegistryCenter(store, clock);
      const sync = new RegistrySync({ registry, hostStore: store, home, appRoot, defaultsDir, sessionRoot, projectRoot, syncAiContributes: options.syncAiContributes ?? false });
      const trust = new PluginTrust(store, new Fingerprinter(), clock);
      const runGate = new RunGate({ pluginAt: (dir) => catalog.pluginAt(dir), pluginById: (id) => catalog.pluginById(id), pluginRoots: () => pluginRoots().map((root) => root.dir), trust });
      // The settings server's factory reads its context late: the context needs the runtime, which needs the factory.
      let settingsContext: SettingsContext | undefined;
      const mcp = new McpRuntime({
        builtinServers: [settingsServerDefinition()],
        inProcessServers: new Map([[SETTINGS_SERVER_NAME, () => createSettingsServer(settingsContext!)]]),
        configFile: home.mcpConfig,
        runDir,
        pids,
        hostEnv: options.env ?? process.env,
        registry,
        now,
        runGate,
        hostModules,
        readStoredValue: (name) => secrets.get(mcpValueSecretName(name)),
        oauth,
      });
      // Every lease released (mcp_release, a conversation ended, idle, a page or socket gone) is on the record like a call.
      mcp.connections.onRelease((release) => audit.append(releaseDraft(release)));
      const serverSettings = new ServerSettings(store);
      const agents = new AgentStore(
        store,
        (pluginId, appId) => catalog.getAiContribution(pluginId, appId),
        (id) => alwaysAllow?.revokeAll(id),
      );
      alwaysAllow = new AlwaysAllowStore(store, () => clock.now());
      const models = new ModelService({ store: new ModelStore(store), secrets, env: options.env ?? process.env });
      const knowledge = new KnowledgeService({ dir: home.knowledgeDir, models, now: () => clock.now(), logger });
      settingsContext = createSettingsContext({
        agents,
        registry,
        catalog,
        rescan: () => operations.rescan.rescanAndReload(),
        runtime: mcp,
        snapshots: () => operations.servers.snapshots(),
        serverSettings,
        alwaysAllow,
        knowledge,
      });
      registerSettingsConfirmables(confirmations);
      const gateway = new ToolGateway({
        runtime: mcp,
        registry,
        artifactsDir: home.artifactsDir,
        mcpConfigFile: home.mcpConfig,
        defaultWorkdir: sessionRoot,
        now,
        settings: serverSettings,
        runGate,
        // The knowledge search is a tool of the host the gateway offers: checked, decided and audited like any call.
        knowledge: { attachedTo: (agentId) => agents.get(agentId)?.knowledgeBases ?? [], list: () => knowledge.list(), search: (id, query, options) => knowledge.search(id, query, options) },
        hooks: announcingAppCalls(
          options.gatewayHooks ?? gatewayHooks(confirmations, audit),
          (call) => listeners.size > 0 && emit({ kind: 'app-tool-called', ...call }),
          (error) => logger.warn(`an app-call listener failed: ${(error as Error).message}`),
        ),
        // Built-in plugins are part of the app: their servers may know who calls (a user plugin that overrides one is not built in).
        tellsCaller: (server) => {
          const plugin = server.plugin && catalog.pluginAt(server.plugin.pluginDir);
          return plugin?.source === 'builtin' && plugin.status === 'loaded';
        },
      });
      const chat = new ChatService({
        records: store,
        conversationsDir: home.conversationsDir,
        agents,
        models,
        clientFor: createModelClient,
        resolve: (agent) => resolveAgent(agent, { registry, catalog, runGate, models, agents }),
        gateway,
        confirmations,
        // As every face ends one: audited, and no longer tied to a page.
        releaseLeases: (id) => endConversation(id),
        heldLeases: (id) =>
          mcp.connections
            .snapshot()
            .filter((s) => s.leases.some((l) => l.conversationId === id))
            .map((s) => s.serverId),
        scheduler,
        now: () => clock.now(),
        policy: chatPolicy(options.chat),
        logger,
      });
      const hostPrompts = new HostPromptStore(store, registry, () => void sync.syncHostOwn());
      const rescanPlugins = new RescanPlugins({
        scan: () => catalog.rescan(),
        sync,
        trust,
        hostModules,
        stopEdited: async (pluginId, serverIds) => void (await Promise.all([backends.stop(pluginId), ...serverIds.map((id) => mcp.connections.retire(id))])),
        // An edited (now changed) or vanished plugin's backend and instances end now, not at their next call.
        stopNotRunnable: () => void trustWatch?.stop().catch(stopFailed),
        reloadMcp,
        emit,
        warn: (message) => logger.warn(message),
      });
      const operations: HostOperations = {
        rescan: rescanPlugins,
        plugins: new PluginOperations({ host, rescan: rescanPlugins, reloadMcp, emit }),
        servers: new ServerAdministration({ runtime: mcp, registry, settings: serverSettings, trouble: (id) => host.serverTrouble(id) }),
        callers: new Callers({ registry, catalog, runGate, models, agents, serverTrouble: (id) => host.serverTrouble(id), apps: () => catalog.apps }),
      };
      started = { store, registry, trust, runGate, sync, mcp, gateway, serverSettings, agents, models, knowledge, chat, alwaysAllow, hostPrompts, operations };
      const boot = await sync.bootstrap(catalog.rescan());
      await mcp.start();
      startupProblems = boot.problems;
      idleSweep = new IdleSweep({
        scheduler,
        connections: mcp.connections,
        idleMs: () => leaseTimesNow().idleMs,
        onError: (error) => logger.warn(`releasing idle MCP server instances failed: ${(error as Error).message}`),
      });
      idleSweep.start();
      // Backends whose pages are all closed stop too (docs/plugins/backends.md#lifetime); the same sweep, over backends.
      backendSweep = new IdleSweep({
        scheduler,
        connections: { sweepIdle: (idleMs = leaseTimesNow().backendIdleMs) => backends.sweepIdle(idleMs) },
        idleMs: () => leaseTimesNow().backendIdleMs,
        onError: (error) => logger.warn(`stopping idle plugin backends failed: ${(error as Error).message}`),
      });
      backendSweep.start();
      // Another process may untrust or uninstall a plugin: what it runs here stops too, and the faces are told.
      trustWatch = new TrustWatch({
        scheduler,
        revision: () => registry.freshRevision(),
        records: () => trust.records(),
        forget: () => trust.forgetRecentChecks(),
        stopNow: () => stopNotRunnable({ runGate, backends, connections: mcp.connections, definition: (id) => mcp.definition(id) }),
        onChange: (pluginIds) => emit({ kind: 'trust-changed', pluginIds }),
        onError: stopFailed,
      });
      trustWatch.start();
    },
    get registry() {
      return need().registry;
    },
    get trust() {
      return need().trust;
    },
    get runGate() {
      return need().runGate;
    },
    get mcp() {
      return need().mcp;
    },
    get gateway() {
      return need().gateway;
    },
    reloadMcp,
    mcpServers,
    mcpSignIn,
    watch(watchOptions = {}) {
      need();
      const debounceMs = watchOptions.debounceMs ?? 100;
      const pollMs = watchOptions.pollMs ?? 2_000;
      const config = new ChangeWatcher([{ path: home.mcpConfig }], async () => void (await reloadMcp()), { debounceMs, pollMs, poll: fileChangedCheck(home.mcpConfig) });
      // The plugin poll is a scan itself (it stats every plugin's files and re-reads only what changed): what it
      // finds is applied at once, so the events name the edited plugins and their open pages reload.
      const { rescan: rescanPlugins } = need().operations;
      let pluginsChanged = false;
      const rescanAndReload = async () => {
        const result = rescanPlugins.rescan();
        if (scanChanged(result) || pluginsChanged) await reloadMcp();
        pluginsChanged = false;
      };
      const watchPlugins = () =>
        new ChangeWatcher(
          pluginRoots().map((root) => ({ path: root.dir, recursive: true })),
          rescanAndReload,
          {
            debounceMs,
            pollMs: pollMs * 3,
            poll: () => {
              const result = catalog.rescan();
              if (!scanChanged(result)) return false;
              rescanPlugins.apply(result);
              pluginsChanged = true;
              return true;
            },
          },
        );
      let plugins = watchPlugins();
      // Another process remembered or forgot a root: watch the new set of roots, and scan them now.
      const roots = new ChangeWatcher(
        [{ path: rememberedRoots.file }, { path: devLinks.file }],
        async () => {
          plugins.dispose();
          plugins = watchPlugins();
          plugins.start();
          await rescanAndReload();
        },
        { debounceMs, pollMs, poll: anyChanged(fileChangedCheck(rememberedRoots.file), fileChangedCheck(devLinks.file)) },
      );
      config.start();
      plugins.start();
      roots.start();
      return () => {
        config.dispose();
        plugins.dispose();
        roots.dispose();
      };
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    confirmations,
    audit,
    secrets,
    get serverSettings() {
      return need().serverSettings;
    },
    get agents() {
      return need().agents;
    },
    get models() {
      return need().models;
    },
    get hostPrompts() {
      return need().hostPrompts;
    },
    get chat() {
      return need().chat;
    },
    get knowledge() {
      return need().knowledge;
    },
    get alwaysAllow() {
      return need().alwaysAllow;
    },
    backends,
    leaseHolders,
    endConversation,
    serverTrouble(serverId) {
      const { mcp } = need();
      const definition = mcp.definition(serverId);
      return definition && serverTrouble(definition, mcp.connections.startFailure(definition), options.env ?? process.env, home.mcpConfig, now());
    },
    get registryProblems() {
      return started ? [...startupProblems, ...liveRegistryProblems(started.store, started.registry, HOST_DB_TABLES)] : startupProblems;
    },
    save: () => need().store.flush(),
    rescan,
    async dispose() {
      const current = started;
      started = undefined;
      idleSweep?.dispose();
      backendSweep?.dispose();
      trustWatch?.dispose();
      leaseHolders.dispose();
      // Running turns write what they have (marked stopped) before their servers and the DB close.
      await current?.chat.dispose();
      current?.knowledge.dispose();
      confirmations.rejectAll();
      await Promise.all([current?.mcp.dispose(), backends.dispose()]);
      audit.flush();
      await current?.store.close();
    },
    get operations() {
      return need().operations;
    },
  };
  return host;
}
