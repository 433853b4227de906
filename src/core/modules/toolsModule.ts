import type { AgentResolverDeps } from '../agents/agentResolver.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { ToolsFacade } from '../facades/tools.js';
import type { KnowledgeService } from '../knowledge/knowledgeService.js';
import { LeaseHolders } from '../mcp/connection/leaseHolders.js';
import { Callers } from '../operations/callers.js';
import { McpApps } from '../mcpApps/mcpApps.js';
import type { RunGate } from '../policy/runGate.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { announcingAppCalls } from '../tools/callEvents.js';
import { ConversationEnd } from '../tools/conversationEnd.js';
import { gatewayHooks } from '../tools/gatewayHooks.js';
import { KnowledgeToolSource } from '../knowledge/knowledgeToolSource.js';
import type { MemorySearch } from '../memory/memorySearch.js';
import type { MemoryStore } from '../memory/memoryStore.js';
import { MemoryToolSource } from '../memory/memoryToolSource.js';
import { McpPrompts } from '../tools/mcpPrompts.js';
import { McpToolSource } from '../tools/mcpToolSource.js';
import { ReleaseToolSource } from '../tools/releaseTool.js';
import { ResourceService } from '../resources/resourceService.js';
import { ToolGateway } from '../tools/toolGateway.js';
import type { QuestionBroker } from '../questions/questionBroker.js';
import type { HostBase } from './hostBase.js';
import type { McpModule } from './mcpModule.js';
import { narrow } from './narrow.js';

export interface ToolsModuleDeps {
  questions: QuestionBroker;
  mcp: McpModule;
  registry: RegistryCenter;
  runGate: RunGate;
  catalog: PluginCatalog;
  agents: AgentStore;
  alwaysAllow: AlwaysAllowStore;
  knowledge: KnowledgeService;
  /** Agents' memories, served by the memory tools ahead of confirmation. */
  memory: MemoryStore;
  /** The search memory_recall runs. */
  memoryFinder: MemorySearch;
  /** What resolving an agent into a caller reads (registry, catalog, run gate, models, agents, server trouble). */
  resolver: AgentResolverDeps;
}

export interface ToolsModule {
  readonly confirmations: ToolConfirmationService;
  readonly gateway: ToolGateway;
  readonly ending: ConversationEnd;
  readonly facade: ToolsFacade;
  /** Stops the holders' grace timers (first, so nothing is released behind the host's back). */
  stopHolders(): void;
  /** Declines every pending confirmation: no call waits on a face that is going away. */
  rejectPending(): void;
}

/**
 * Tools: the one gateway (access, permission level, confirmation, audit),
 * the confirmations a person answers, who holds a conversation's instances
 * and how a conversation ends, and the callers every face builds.
 */
export function toolsModule(base: HostBase, deps: ToolsModuleDeps): ToolsModule {
  const { mcp, catalog } = deps;
  const confirmations = new ToolConfirmationService(base.scheduler, deps.questions, undefined, () => deps.alwaysAllow);
  const holders: LeaseHolders = new LeaseHolders({
    scheduler: base.scheduler,
    graceMs: () => mcp.leaseTimes().graceMs,
    endConversation: (conversationId) => ending.end(conversationId, 'holder-gone'),
    onError: (error) => base.logger.warn(`releasing the instances of a closed page failed: ${(error as Error).message}`),
  });
  const ending = new ConversationEnd({ confirmations, holders, connections: mcp.runtime.connections });
  const hooks = announcingAppCalls(
    base.options.gatewayHooks ?? gatewayHooks(confirmations, base.audit),
    (call) => base.events.listening && base.events.emit({ kind: 'app-tool-called', ...call }),
    (error) => base.logger.warn(`an app-call listener failed: ${(error as Error).message}`),
  );
  const servers = new McpToolSource({
    runtime: mcp.runtime,
    registry: deps.registry,
    artifactsDir: base.home.artifactsDir,
    mcpConfigFile: base.home.mcpConfig,
    defaultWorkdir: base.sessionRoot,
    now: base.now,
    settings: mcp.settings,
    runGate: deps.runGate,
    callers: mcp.callers,
    // Built-in plugins are part of the app: their servers may know who calls (a user plugin that overrides one is not built in).
    tellsCaller: (server) => {
      const plugin = server.plugin && catalog.pluginAt(server.plugin.pluginDir);
      return plugin?.source === 'builtin' && plugin.status === 'loaded';
    },
    ...(hooks.permissionOverride ? { permissionOverride: hooks.permissionOverride.bind(hooks) } : {}),
  });
  // The host's own tools are checked, decided and audited like any call: mcp_release, and the knowledge search of an agent with bases attached.
  const release = new ReleaseToolSource({ visibleServers: (caller) => servers.visibleServers(caller), connections: mcp.runtime.connections });
  const knowledge = new KnowledgeToolSource({
    attachedTo: (agentId) => deps.agents.get(agentId)?.knowledgeBases ?? [],
    list: () => deps.knowledge.list(),
    search: (id, query, options) => deps.knowledge.search(id, query, options),
  });
  // An agent with memory on: its memory tools, claimed before any other name and served before the confirmation step.
  const memory = new MemoryToolSource({ agent: (agentId) => deps.agents.get(agentId), store: deps.memory, finder: deps.memoryFinder });
  // A server's MCP prompts reach a caller through the same access rule as its tools, each get audited.
  const prompts = new McpPrompts({
    visibleServers: (caller) => servers.visibleServers(caller),
    usableServer: (caller, serverId) => servers.usableServer(caller, serverId),
    instanceOf: (server, caller) => servers.instanceOf(server, caller),
    audit: (draft) => base.audit.append(draft),
    now: base.now,
  });
  const gateway = new ToolGateway({ now: base.now, hooks, sources: [servers, release, knowledge, memory] });
  // A server's resources, through the same access rule as its tools (docs/rules/resources.md#grant), on the caller's instance.
  const resources = new ResourceService({
    definition: (id) => mcp.runtime.definition(id),
    access: (caller, server) => servers.access(caller, server),
    acquire: async (server, conversationId) => (await mcp.runtime.connections.acquire(server, conversationId)).lease,
    audit: (draft) => base.audit.append(draft),
    now: base.now,
  });
  const callers = new Callers({
    ...deps.resolver,
    agents: deps.agents,
    runGate: deps.runGate,
    apps: () => catalog.apps,
    noteAgent: (conversationId, agentId) => deps.mcp.roots.noteAgent(conversationId, agentId),
  });
  // An MCP App's view and its calls: read through the caller's tools, called through the gateway (docs/rules/mcp-apps.md).
  const apps = new McpApps({
    gateway,
    resources,
    definition: (serverId) => mcp.runtime.definition(serverId),
    acquire: (definition, conversationId) => mcp.runtime.connections.acquire(definition, conversationId),
    now: base.now,
  });
  const facade: ToolsFacade = {
    list: (caller) => gateway.listTools(caller),
    call: (caller, toolName, args, options) => gateway.callTool(caller, toolName, args, options),
    visibleServers: (caller) => servers.visibleServers(caller),
    prompts: narrow(prompts, ['list', 'listOf', 'get', 'complete']),
    resources: narrow(resources, ['list', 'read', 'subscribe', 'complete']),
    apps: narrow(apps, ['view', 'call', 'readResource', 'listResources']),
    callers: narrow(callers, ['agent', 'app', 'page', 'findApp', 'requireRunnable']),
    leases: { ...narrow(holders, ['hold', 'connected', 'disconnected', 'conversationsOf']), end: (conversationId, reason) => ending.end(conversationId, reason) },
  };
  return {
    confirmations,
    gateway,
    ending,
    facade,
    stopHolders: () => holders.dispose(),
    rejectPending: () => confirmations.rejectAll(),
  };
}
