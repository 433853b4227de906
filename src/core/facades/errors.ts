/**
 * Every error a face tells apart (by class, then by `code`): the HostApi
 * maps each to its contract error, the CLI to its exit code and hint.
 */
export { AgentError } from '../agents/agentError.js';
export { ChatError } from '../chat/chatError.js';
export { MessageLogError } from '../chat/conversations/messageLogError.js';
export { ModelError } from '../models/modelError.js';
export { ProviderError } from '../models/providers/providerError.js';
export { KnowledgeError } from '../knowledge/knowledgeError.js';
export { MemoryError } from '../memory/memoryError.js';
export { SettingsError } from '../settings/settingsError.js';
export { ElicitationError } from '../elicitation/elicitationError.js';
export { SamplingError } from '../sampling/samplingError.js';
export { WorkspaceRootsError } from '../workspaceRoots/workspaceRootsError.js';
export { McpRuntimeError, ServerRpcError } from '../mcp/mcpRuntimeError.js';
export { McpAdminError } from '../mcp/admin/mcpAdminError.js';
export { HostPromptError } from '../registry/hostPromptError.js';
export { RegistryError } from '../registry/registryError.js';
export { GatewayError } from '../tools/refusals.js';
export { ResourceError } from '../resources/resourceError.js';
export { McpAppError } from '../mcpApps/mcpAppError.js';
export { InstallError } from '../plugins/installError.js';
export { RootsError } from '../plugins/rootsError.js';
export { PluginLifecycleError } from '../operations/pluginLifecycleError.js';
export { OperationError } from '../operations/operationError.js';
export { messageOf, StoreError } from '../store/storeError.js';
export { SecretError } from '../secrets/secretStore.js';
export { CatalogError } from '../mcp/catalogSource/catalogError.js';
