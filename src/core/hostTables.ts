import { AcpTrustTable } from './acp/acpTrust.js';
import { AgentsTable } from './agents/agentStore.js';
import { ConversationsTable } from './chat/conversations/conversationIndex.js';
import { AlwaysAllowTable } from './confirmation/alwaysAllowStore.js';
import { ModelsTable } from './models/modelStore.js';
import { ServerSettingsTable } from './mcp/settings/serverSettings.js';
import { HostSettingsTable } from './registry/contributionCopies.js';
import { AppRegistrations, HostMcpServers, HostPrompts, McpServerGrants, PromptGrants, RegistryMcpServers, RegistryPrompts } from './registry/registryTables.js';
import { UserSettingsTable } from './settings/userSettings.js';
import type { LogicalTable } from './store/logicalTable.js';
import { PluginTrustTable } from './trust/pluginTrust.js';

/** Every logical table of the host's admin DB, so a row failing its schema in any of them is reported. */
export const HOST_DB_TABLES: readonly LogicalTable<unknown>[] = [
  AppRegistrations,
  RegistryMcpServers,
  RegistryPrompts,
  McpServerGrants,
  PromptGrants,
  HostMcpServers,
  HostPrompts,
  AgentsTable,
  AcpTrustTable,
  ModelsTable,
  PluginTrustTable,
  ServerSettingsTable,
  ConversationsTable,
  AlwaysAllowTable,
  HostSettingsTable,
  UserSettingsTable,
] as LogicalTable<unknown>[];
