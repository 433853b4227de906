import { AppRegistrationSchema, HostMcpServerSchema, HostPromptSchema, RegistryMcpServerSchema, RegistryPromptSchema } from '../../shared/registry.js';
import { defineTable } from '../store/logicalTable.js';
import { storedGrantSchema } from './originalGrants.js';

/** The registry center's logical tables (docs/rules/registry.md#storage), all in the host's admin DB. */
export const AppRegistrations = defineTable('appRegistrations', AppRegistrationSchema);
export const RegistryMcpServers = defineTable('registryMcpServers', RegistryMcpServerSchema);
export const RegistryPrompts = defineTable('registryPrompts', RegistryPromptSchema);
export const McpServerGrants = defineTable('mcpServerGrants', storedGrantSchema('server_id'));
export const PromptGrants = defineTable('promptGrants', storedGrantSchema('prompt_id'));

/** The host's own servers and prompts; other ChatOS-family apps keep the same tables in their DBs. */
export const HostMcpServers = defineTable('mcpServers', HostMcpServerSchema);
export const HostPrompts = defineTable('prompts', HostPromptSchema);

/** Registry ids (docs/rules/registry.md#ids): `<providerAppId>::<name>`. */
export function registryId(providerAppId: string, name: string): string {
  return `${providerAppId}::${name}`;
}

/**
 * Grant rows are keyed `<appId>=><registryId>` so that "everything granted
 * to one app" is a primary-key range scan, flat as the registry grows.
 */
export function grantRowId(appId: string, targetId: string): string {
  return `${appId}=>${targetId}`;
}

export const grantPrefix = (appId: string) => `${appId}=>`;
export const providerPrefix = (providerAppId: string) => `${providerAppId}::`;
