import type { ServerDefinition } from '../../shared/mcp.js';
import type { AgentStore } from '../agents/agentStore.js';
import type { AlwaysAllowStore } from '../confirmation/alwaysAllowStore.js';
import type { KnowledgeService } from '../knowledge/knowledgeService.js';
import type { PluginsFacade } from '../facades/plugins.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { RegistryCenter } from '../registry/registryCenter.js';
import { stateOfLeases, type ServerSnapshot } from '../mcp/connection/connectionManager.js';
import type { McpRuntime } from '../mcp/mcpRuntime.js';
import type { ServerSettings } from '../mcp/settings/serverSettings.js';
import type { SettingsContext, SettingsServerState, SettingsServerView } from './types.js';

/** The services a settings context is made of; all exist once the host has started. */
export interface SettingsContextDeps {
  agents: AgentStore;
  registry: RegistryCenter;
  catalog: Pick<PluginCatalog, 'plugins' | 'apps' | 'problems'>;
  /** The host's rescan operation: scans the plugin roots, syncs the registry, reloads the servers when plugins changed. */
  rescan: () => Promise<unknown>;
  /** The copies of plugin servers and prompts in the host's lists, and their switch. */
  copies: Pick<PluginsFacade, 'contributionCopies' | 'setSyncAiContributes'>;
  runtime: Pick<McpRuntime, 'allDefinitions' | 'cachedTools'>;
  /** What runs now, per server (the host's server administration). */
  snapshots: () => ServerSnapshot[];
  serverSettings: ServerSettings;
  alwaysAllow: AlwaysAllowStore;
  knowledge: KnowledgeService;
}

/** A disabled server never starts, so it has no connection state; any other has its leases' (see stateOfLeases). */
function stateOf(definition: ServerDefinition, snapshot: ServerSnapshot | undefined): SettingsServerState {
  return definition.disabled ? { kind: 'disabled' } : stateOfLeases(snapshot);
}

/** The settings tools' view of the host's services. Reads are live: every call sees the current definitions and settings. */
export function createSettingsContext(deps: SettingsContextDeps): SettingsContext {
  const { runtime, serverSettings } = deps;
  return {
    agents: deps.agents,
    alwaysAllow: deps.alwaysAllow,
    registry: deps.registry,
    knowledge: deps.knowledge,
    plugins: {
      list: () => deps.catalog.plugins,
      apps: () => deps.catalog.apps,
      problems: () => deps.catalog.problems,
      rescan: () => deps.rescan(),
      copies: () => deps.copies.contributionCopies(),
      setSyncAiContributes: (on) => deps.copies.setSyncAiContributes(on),
    },
    servers: {
      list(): SettingsServerView[] {
        const snapshots = new Map(deps.snapshots().map((s) => [s.serverId, s]));
        return runtime
          .allDefinitions()
          .sort((a, b) => a.id.localeCompare(b.id))
          .map((definition) => {
            const tools = runtime.cachedTools(definition.id);
            const off = new Set([...definition.disabledTools, ...serverSettings.of(definition.id).disabledTools]);
            return {
              id: definition.id,
              name: definition.name,
              category: definition.category,
              origin: definition.origin,
              state: stateOf(definition, snapshots.get(definition.id)),
              ...(tools ? { tools: tools.map((tool) => ({ name: tool.name, enabled: !off.has(tool.name) })) } : {}),
            };
          });
      },
      setToolEnabled: (serverId, rawToolName, enabled) => serverSettings.setToolEnabled(serverId, rawToolName, enabled),
    },
  };
}
