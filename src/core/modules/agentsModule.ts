import { randomUUID } from 'node:crypto';
import { AcpTrust, codeVariablesOf } from '../acp/acpTrust.js';
import { resolveAgent, type AgentResolverDeps } from '../agents/agentResolver.js';
import { AgentStore } from '../agents/agentStore.js';
import type { Agent } from '../../shared/agents.js';
import { AgentError } from '../agents/agentError.js';
import { withHostServer } from '../agents/builtinForAgent.js';
import { SETTINGS_SERVER_ID, SETTINGS_SERVER_NAME } from '../settingsServer/settingsServer.js';
import { READY_BUILTINS, readyAssistantInput } from '../agents/readyAssistant.js';
import type { BuiltinToolAdmin } from '../mcp/admin/builtinToolAdmin.js';
import { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { AgentsFacade } from '../facades/agents.js';
import { AgentMemories } from '../memory/agentMemories.js';
import { withDraftMemory } from '../memory/memoryPreview.js';
import { MemorySearch, type MemorySearchDeps } from '../memory/memorySearch.js';
import { MemoryStore } from '../memory/memoryStore.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { ConversationEnd } from '../tools/conversationEnd.js';
import type { ToolGateway } from '../tools/toolGateway.js';
import { serversOf, type ServerInstructions } from '../mcp/instructions/serverInstructions.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';

/** The agents and what goes with each: its "always allow" answers (in the admin DB) and its memories (files beside it). */
export interface AgentStores {
  readonly agents: AgentStore;
  /** What the person trusted of each ACP agent's program (docs/using/acp.md#trust). */
  readonly acpTrust: AcpTrust;
  readonly alwaysAllow: AlwaysAllowStore;
  readonly memory: MemoryStore;
  readonly memories: AgentMemories;
  /** The one search of memories: the faces' and an agent's recall (by meaning with an embedding model set). */
  readonly finder: MemorySearch;
}

export function agentStores(base: HostBase, store: RecordsStore, catalog: PluginCatalog, embedding: Pick<MemorySearchDeps, 'modelId' | 'models'>): AgentStores {
  const alwaysAllow = new AlwaysAllowStore(store, () => base.clock.now());
  const memory = new MemoryStore({ dir: base.home.memoryDir, now: () => base.clock.now(), logger: base.logger });
  const acpTrust = new AcpTrust(store, () => base.clock.now());
  // A deleted agent's answers, trust and own memories go with it: a new agent given the same id inherits none (an app's shared memories stay).
  const agents = new AgentStore(
    store,
    (pluginId, appId) => catalog.getAiContribution(pluginId, appId),
    (id) => {
      alwaysAllow.revokeAll(id);
      acpTrust.forget(id);
      memory.drop({ kind: 'agent', id });
    },
  );
  const finder = new MemorySearch({ store: memory, logger: base.logger, ...embedding });
  return { agents, acpTrust, alwaysAllow, memory, finder, memories: new AgentMemories(memory, agents, finder) };
}

/** The agents as faces use them: stored, resolved now, previewed through the gateway. */
export function agentsFacade(
  stores: AgentStores,
  deps: {
    resolver: AgentResolverDeps;
    gateway: Pick<ToolGateway, 'listTools'>;
    ending: Pick<ConversationEnd, 'end'>;
    instructions: (serverIds: readonly string[]) => ServerInstructions[];
    builtins: Pick<BuiltinToolAdmin, 'list' | 'set'>;
  },
): AgentsFacade {
  const resolve = (agent: Parameters<AgentsFacade['resolve']>[0]) => resolveAgent(agent, deps.resolver);
  // The faces' create and update are the person's (the agent editor, the CLI): a program they name is one they were shown, so it is trusted as written.
  const trustedAsWritten = (input: unknown, agent: Agent) => {
    if (agent.acp && typeof input === 'object' && input !== null && Object.hasOwn(input, 'acp')) stores.acpTrust.trust(agent);
    return agent;
  };
  return {
    ...narrow(stores.agents, ['list', 'get', 'delete']),
    create: (input) => trustedAsWritten(input, stores.agents.create(input)),
    update: (id, input) => trustedAsWritten(input, stores.agents.update(id, input)),
    trustProgram(id) {
      const agent = stores.agents.get(id);
      if (!agent) throw new AgentError('AGENT_NOT_FOUND', `no agent "${id}"`);
      if (!agent.acp) throw new AgentError('AGENT_INVALID', `agent "${id}" is not of kind "acp": it runs no program to trust`);
      stores.acpTrust.trust(agent);
      return { agent, warnings: codeVariablesOf(agent.acp) };
    },
    resolve,
    async preview(agent) {
      const resolved = resolve(agent);
      // One flow after the other: the first lists (and caches) each server's tools, the second reuses them.
      // An instance started to list them belongs to this preview alone and ends with it: the editor holds none.
      const conversationId = `agent-preview:${randomUUID()}`;
      try {
        const main = await deps.gateway.listTools(resolved.callerFor('main', conversationId));
        const sub = await deps.gateway.listTools(resolved.callerFor('sub', conversationId));
        // What a chat with it would give the model of its servers' own words (its main flow's servers).
        return { resolved, main: withDraftMemory(main, agent), sub: withDraftMemory(sub, agent), instructions: deps.instructions(serversOf(main.tools)) };
      } finally {
        await deps.ending.end(conversationId);
      }
    },
    async createReady({ modelId, language }) {
      if (!deps.resolver.models?.has(modelId)) throw new AgentError('AGENT_INVALID', `no model "${modelId}"`, [{ path: 'modelId', message: 'names no model entry' }]);
      // The built-in tools (docs/using/agents.md#a-ready-assistant) are ready at once; those safe for everyone (local, read-only) are switched on for it.
      for (const tool of deps.builtins.list()) if (READY_BUILTINS.has(tool.name) && !tool.enabled) await deps.builtins.set(tool.name, { enabled: true });
      const { catalog, registry } = deps.resolver;
      const input = readyAssistantInput({ modelId, language }, { apps: catalog.apps, servers: registry.listServers(), taken: (id) => stores.agents.get(id) !== undefined });
      return stores.agents.create(input);
    },
    async addBuiltin(agentId, name) {
      const agent = stores.agents.get(agentId);
      if (!agent) throw new AgentError('AGENT_NOT_FOUND', `no agent "${agentId}"`);
      // The settings server is always running (docs/rules/settings-server.md#added-per-agent): adding it is picking it.
      if (name === SETTINGS_SERVER_NAME) return stores.agents.update(agentId, withHostServer(agent, SETTINGS_SERVER_ID));
      // Switching on checks the name (MCP_BUILTIN_UNKNOWN) and mcp.yaml (a server of the user's with that name wins).
      const listed = deps.builtins.list().find((t) => t.name === name);
      const tool = listed?.enabled && !listed.blockedBy ? listed : await deps.builtins.set(name, { enabled: true });
      return stores.agents.update(agentId, withHostServer(agent, tool.serverId));
    },
    alwaysAllow: narrow(stores.alwaysAllow, ['list', 'revoke']),
    memory: narrow(stores.memories, ['list', 'remember', 'update', 'forget']),
  };
}
