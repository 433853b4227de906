import * as os from 'node:os';
import { releaseDraft } from '../audit/releaseAudit.js';
import { BUILTIN_TOOL_DESCRIPTIONS, builtinToolFactories, switchedOnDefinitions } from '../builtinTools/builtinToolServers.js';
import { elicitationFeature } from '../elicitation/elicitationFeature.js';
import { ElicitationService } from '../elicitation/elicitationService.js';
import type { McpFacade } from '../facades/mcp.js';
import { BuiltinToolAdmin } from '../mcp/admin/builtinToolAdmin.js';
import { McpServerAdmin } from '../mcp/admin/mcpServerAdmin.js';
import { McpSignIn } from '../mcp/admin/mcpSignIn.js';
import { OAuthService } from '../mcp/auth/oauthService.js';
import { ClientFeatures, promptsFeature, toolsFeature } from '../mcp/client/clientFeatures.js';
import { loggingFeature } from '../mcp/client/loggingFeature.js';
import { mcpAppsFeature } from '../mcp/client/mcpAppsFeature.js';
import { resourcesFeature } from '../mcp/client/resourcesFeature.js';
import { leaseTimes } from '../mcp/config/leaseSettings.js';
import { IdleSweep } from '../mcp/connection/idleSweep.js';
import { McpRuntime, type ReloadReport } from '../mcp/mcpRuntime.js';
import { ServerSettings } from '../mcp/settings/serverSettings.js';
import type { ServerInstructions } from '../mcp/instructions/serverInstructions.js';
import type { ServerTrouble } from '../mcp/serverTrouble.js';
import { ServerTroubles } from '../mcp/serverTroubles.js';
import { ServerAdministration } from '../operations/serverAdministration.js';
import { RUN_ALLOWED, type RunGate } from '../policy/runGate.js';
import { ServerRequestPolicy } from '../policy/serverRequestPolicy.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { mcpValueSecretName } from '../secrets/secretStore.js';
import type { ModelService } from '../models/modelService.js';
import { samplingFeature } from '../sampling/samplingFeature.js';
import { SAMPLING_RATE, SamplingService } from '../sampling/samplingService.js';
import type { RecordsStore } from '../store/recordsStore.js';
import { ServerCallers } from '../tools/serverCallers.js';
import { rootsFeature } from '../workspaceRoots/rootsFeature.js';
import { WorkspaceRoots } from '../workspaceRoots/workspaceRoots.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';
import type { QuestionsModule } from './questionsModule.js';
import type { SettingsServerModule } from './settingsServerModule.js';
import { SETTINGS_SERVER_DESCRIPTION, SETTINGS_SERVER_ID } from '../settingsServer/settingsServer.js';

export interface McpModule {
  readonly runtime: McpRuntime;
  readonly settings: ServerSettings;
  readonly administration: ServerAdministration;
  readonly facade: McpFacade;
  /** Who calls each server instance now: the gateway's MCP calls register here, and what a server asks is put to them. */
  readonly callers: ServerCallers;
  /** Each conversation's workspace roots, as roots/list answers them. */
  readonly roots: WorkspaceRoots;
  /** Re-reads mcp.yaml and the registry's servers, and tells the faces. */
  reload(): Promise<ReloadReport>;
  trouble(serverId: string): ServerTrouble | undefined;
  /** The instructions these servers gave at initialize that a model may be given: none of a plugin the run gate refuses now. */
  instructions(serverIds: readonly string[]): ServerInstructions[];
  /** The idle and grace times of leases, and the idle time of plugin backends, now: mcp.yaml's, else the host's options, else the defaults. */
  leaseTimes(): { idleMs: number; graceMs: number; backendIdleMs: number };
  /** Reaps what a killed host left, loads the definitions, and starts releasing idle instances. */
  start(): Promise<void>;
  /** Stops the idle sweep (the first step of a dispose: nothing is released behind the host's back). */
  stopSweeping(): void;
  dispose(): Promise<void>;
}

/**
 * The MCP subsystem: server definitions from mcp.yaml, the registry and the
 * host's own settings server; their connections and hot reload; the user's
 * per-server settings; the administration of what runs; the user's mcp.yaml
 * entries; and what is wrong with each server.
 */
export function mcpModule(
  base: HostBase,
  store: RecordsStore,
  deps: {
    registry: RegistryCenter;
    runGate: RunGate;
    settingsServer: SettingsServerModule;
    agents: Pick<AgentStore, 'get' | 'onSaved' | 'forgetServer'>;
    /** The tools' "always allow" answers: a removed server's go with it. */
    alwaysAllow: Pick<AlwaysAllowStore, 'revokeServer'>;
    models: Pick<ModelService, 'has' | 'client'>;
    /** Where servers' questions (elicitation, sampling) are put to the person, and their refusals recorded. */
    questions: QuestionsModule;
  },
): McpModule {
  const { home, options } = base;
  // Remote servers' sign-in tokens and registrations live in the key store, beside the other secrets.
  const oauth = new OAuthService({ secrets: base.secrets, now: base.now });
  const readStoredValue = (name: string) => base.secrets.get(mcpValueSecretName(name));
  const callers = new ServerCallers();
  // The runtime is made below; the roots ask it for its running instances only once something changes.
  let running = (): ReturnType<McpRuntime['connections']['running']> => [];
  const roots = new WorkspaceRoots({
    agent: (id) => deps.agents.get(id),
    running: () => running().map((lease) => ({ serverId: lease.serverId, lease: lease.conversationId, rootsChanged: () => lease.connection.rootsChanged() })),
    onError: (error) => base.logger.warn(`telling a server its roots changed failed: ${(error as Error).message}`),
  });
  deps.agents.onSaved(() => roots.refresh());
  const { broker } = deps.questions;
  const elicitations = new ElicitationService({ scheduler: base.scheduler, broker });
  // What a server asks the host passes this first: a call in flight from granted callers, a plugin that may run.
  const requestPolicy = new ServerRequestPolicy({
    callers,
    granted: (appId, serverId, asPlugin) => deps.registry.hasMcpServerAccess(appId, serverId, asPlugin),
    runnable: ({ definition }) => (definition.plugin ? deps.runGate.checkCached(definition.plugin, 'server') : RUN_ALLOWED),
    leaseApp: ({ lease }) => roots.appOf(lease),
    refused: ({ definition, lease }, method, code, reason) => {
      // A request made while idle (roots/list) is put under its conversation and the app it acts for.
      const leaseApp = roots.appOf(lease);
      const caller = callers.of(definition.id, lease)[0] ?? (lease !== undefined && leaseApp !== undefined ? { appId: leaseApp, conversationId: lease, flow: 'main' as const } : undefined);
      broker.note({ method, serverId: definition.id, ...(caller ? { caller } : {}), step: { kind: 'refused', code, reason } });
    },
  });
  const settings = new ServerSettings(store);
  const sampling = new SamplingService({
    scheduler: base.scheduler,
    broker,
    // mcp.yaml's model for this server, else the model of the agent whose call it serves (docs/rules/sampling.md#which-model).
    modelFor: ({ definition }, caller) => {
      const chosen = definition.sampling?.model;
      if (chosen !== undefined)
        return deps.models.has(chosen)
          ? { ok: true, modelId: chosen }
          : { ok: false, reason: `mcp.yaml names model "${chosen}" for server "${definition.id}"'s sampling, and there is no such model entry (chatos models list)` };
      const agent = caller?.agentId === undefined ? undefined : deps.agents.get(caller.agentId);
      if (agent?.modelId !== undefined) return { ok: true, modelId: agent.modelId };
      return { ok: false, reason: `no model to sample with: the caller has no agent with a model; set servers.${definition.name}.sampling.model in mcp.yaml` };
    },
    client: (modelId) => deps.models.client(modelId),
    alwaysAllowed: (serverId) => settings.of(serverId).samplingAlways === true,
    allowAlways: (serverId) => settings.setSamplingAlways(serverId, true),
    perMinute: ({ definition }) => definition.sampling?.perMinute ?? SAMPLING_RATE.perMinute,
  });
  const runtime = new McpRuntime({
    builtinServers: [deps.settingsServer.definition],
    // The built-in tools run in the host too (no runtime to install); mcp.yaml's `builtins:` switches each on.
    builtinTools: switchedOnDefinitions,
    builtinDescriptions: new Map([...BUILTIN_TOOL_DESCRIPTIONS, [SETTINGS_SERVER_ID, SETTINGS_SERVER_DESCRIPTION]]),
    inProcessServers: new Map([...deps.settingsServer.inProcess, ...builtinToolFactories({ now: base.now, scheduler: base.scheduler })]),
    configFile: home.mcpConfig,
    runDir: base.runDir,
    pids: base.pids,
    hostEnv: base.env,
    registry: deps.registry,
    now: base.now,
    scheduler: base.scheduler,
    runGate: deps.runGate,
    hostModules: base.hostModules,
    readStoredValue,
    oauth,
    // The level each server logs from, as the user set it on its page.
    logLevel: (serverId) => settings.of(serverId).logLevel,
    // What each server spoke at its last start, for the Servers page and doctor while it is not running.
    onProtocol: (definition, protocol) => settings.recordProtocol(definition.id, protocol),
    // The MCP client's features, one registration each: tools, prompts, log messages, MCP Apps, resource updates, elicitation, roots
    // and sampling, each delegating to a host service under the request policy.
    clientFeatures: new ClientFeatures(
      [
        toolsFeature,
        promptsFeature,
        loggingFeature,
        mcpAppsFeature,
        resourcesFeature((change) => base.events.emit({ kind: 'mcp-resource-changed', ...change })),
        elicitationFeature(elicitations, callers),
        rootsFeature(roots),
        samplingFeature(sampling, callers),
      ],
      requestPolicy,
    ),
  });
  running = () => runtime.connections.running();
  // Every lease the host releases (a conversation ended, idle, a page or socket gone) is on the record like a call; a
  // caller's mcp_release is a call, which the gateway records with the server it released.
  runtime.onToolsChanged((serverId) => base.events.emit({ kind: 'mcp-tools-changed', serverId }));
  runtime.connections.onRelease((release) => {
    roots.forget(release.serverId, release.conversationId);
    if (!release.by) base.audit.append(releaseDraft(release));
  });
  const troubles = new ServerTroubles({
    definition: (id) => runtime.definition(id),
    startFailure: (d) => runtime.connections.startFailure(d),
    hostEnv: base.env,
    mcpConfigFile: home.mcpConfig,
    now: base.now,
  });
  const trouble = (serverId: string) => troubles.of(serverId);
  const administration = new ServerAdministration({ runtime, registry: deps.registry, settings, trouble });
  const reload = async () => {
    const report = await runtime.reload();
    base.events.emit({ kind: 'mcp-reloaded', report });
    return report;
  };
  const admin = new McpServerAdmin({
    configFile: home.mcpConfig,
    secrets: base.secrets,
    oauth,
    decisions: {
      forget: (serverId) => {
        settings.forget(serverId);
        deps.alwaysAllow.revokeServer(serverId);
      },
    },
    registrations: {
      remove: (serverId) =>
        deps.registry.removeRegistrations((row, kind) => kind === 'server' && row.id === serverId && row.source.kind === 'mcp-yaml').reduce((sum, removed) => sum + removed.revokedGrants.length, 0),
    },
    agents: { forgetServer: (serverId) => deps.agents.forgetServer(serverId) },
    hostEnv: base.env,
    logger: base.logger,
    runtime,
    reload,
    templates: { appRoot: base.appRoot, hostDir: home.hostDir, homeDir: os.homedir() },
  });
  const builtins = new BuiltinToolAdmin({ configFile: home.mcpConfig, hostEnv: base.env, logger: base.logger, reload });
  const signIn = new McpSignIn({ configFile: home.mcpConfig, hostEnv: base.env, logger: base.logger, oauth, readStoredValue });
  const times = () => leaseTimes(runtime.leaseSettings, { idleMs: options.leaseIdleMs, graceMs: options.leaseGraceMs, backendIdleMs: options.backendIdleMs });
  const idleSweep = new IdleSweep({
    scheduler: base.scheduler,
    connections: runtime.connections,
    idleMs: () => times().idleMs,
    onError: (error) => base.logger.warn(`releasing idle MCP server instances failed: ${(error as Error).message}`),
  });
  const facade: McpFacade = {
    definitions: () => runtime.allDefinitions(),
    definition: (id) => runtime.definition(id),
    get version() {
      return runtime.version;
    },
    get problems() {
      return runtime.problems;
    },
    reload,
    trouble,
    servers: narrow(administration, ['require', 'list', 'snapshots', 'tools', 'restart', 'log', 'setLogLevel', 'setEnabled', 'setToolEnabled', 'setPermission', 'instanceProblems', 'onStateChange']),
    admin: narrow(admin, ['list', 'get', 'add', 'update', 'remove', 'setDisabled', 'test', 'planImport', 'applyImport', 'templates', 'addTemplate']),
    settings: narrow(settings, ['of']),
    builtins: narrow(builtins, ['list', 'set']),
    signIn: narrow(signIn, ['signIn', 'cancel', 'signOut']),
    roots: narrow(roots, ['view', 'set']),
    sampling: {
      alwaysAllowed: (serverId) => settings.of(serverId).samplingAlways === true,
      revoke: (serverId) => settings.setSamplingAlways(serverId, false),
    },
  };
  return {
    runtime,
    settings,
    administration,
    facade,
    callers,
    roots,
    reload,
    trouble,
    instructions: (serverIds) =>
      serverIds.flatMap((serverId) => {
        const definition = runtime.definition(serverId);
        const text = runtime.instructionsOf(serverId);
        if (!definition || !text) return [];
        // An untrusted (or changed, or uninstalled) plugin's words never reach a model, even those it gave while it was trusted.
        if (definition.plugin && !deps.runGate.checkCached(definition.plugin, 'server').ok) return [];
        return [{ serverId, serverName: definition.name, text }];
      }),
    leaseTimes: times,
    async start() {
      await runtime.start();
      idleSweep.start();
    },
    stopSweeping: () => idleSweep.dispose(),
    dispose: () => {
      // No server waits on a face that is going away: each waiting question is answered cancel first.
      broker.withdrawAll('elicitation');
      broker.withdrawAll('sampling');
      deps.questions.refusals.flush();
      return runtime.dispose();
    },
  };
}
