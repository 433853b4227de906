import type { AuditLog } from '../audit/auditLog.js';
import type { SecretStore } from '../secrets/secretStore.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { AgentStores } from './agentsModule.js';
import type { ChatModule } from './chatModule.js';
import type { KnowledgeModule } from './knowledgeModule.js';
import type { McpModule } from './mcpModule.js';
import type { ModelsModule } from './modelsModule.js';
import type { PluginsModule } from './pluginsModule.js';
import type { RegistryModule } from './registryModule.js';
import type { ToolsModule } from './toolsModule.js';

/** The modules behind a started host's facades. */
export interface HostInternals {
  readonly store: RecordsStore;
  readonly secrets: SecretStore;
  readonly audit: AuditLog;
  readonly plugins: PluginsModule;
  readonly registry: RegistryModule;
  readonly models: ModelsModule;
  readonly agents: AgentStores;
  readonly knowledge: KnowledgeModule;
  readonly mcp: McpModule;
  readonly tools: ToolsModule;
  readonly chat: ChatModule;
}

const byHost = new WeakMap<object, () => HostInternals>();

/** Called by the composition root: how to reach a host's modules once it has started. */
export function keepInternals(host: object, modules: () => HostInternals): void {
  byHost.set(host, modules);
}

/**
 * The modules behind a started host, for tests that check what runs behind
 * a facade (a server's connections, a store's rows) or set up what no face
 * may (a registration). Faces never reach it: the layering rule keeps them
 * to host.ts and the facades.
 */
export function internalsOf(host: object): HostInternals {
  const modules = byHost.get(host);
  if (!modules) throw new Error('not a host made by createHost');
  return modules();
}
