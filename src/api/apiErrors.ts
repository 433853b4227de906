import {
  AgentError,
  ChatError,
  MessageLogError,
  ModelError,
  SecretError,
  KnowledgeError,
  MemoryError,
  SettingsError,
  McpRuntimeError,
  McpAdminError,
  HostPromptError,
  GatewayError,
  McpAppError,
  InstallError,
  RegistryError,
  PluginLifecycleError,
  RootsError,
  OperationError,
  ElicitationError,
  SamplingError,
  WorkspaceRootsError,
  ResourceError,
  CatalogError,
} from '../core/facades/errors.js';
import type { HostApiError } from '../shared/hostApi.js';

/** A refusal or failure the api reports as is: a stable code, a message, how to fix it. */
export class ApiFailure extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'NOT_ALLOWED' | 'INVALID' | 'FAILED',
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Core errors carry their own codes; everything else is FAILED with its message (never a stack). */
export function toApiError(error: unknown): HostApiError {
  if (error instanceof ApiFailure || error instanceof OperationError || error instanceof PluginLifecycleError || error instanceof RootsError)
    return withHint({ code: error.code, message: error.message }, error.hint);
  if (error instanceof AgentError) return { code: error.fields.length ? 'INVALID' : error.code, message: error.message, ...(error.fields.length ? { fields: error.fields } : {}) };
  if (error instanceof ModelError)
    return withHint({ code: error.fields.length ? 'INVALID' : error.code, message: error.message, ...(error.fields.length ? { fields: error.fields } : {}) }, error.hint);
  if (error instanceof McpAdminError || error instanceof HostPromptError) {
    const fields = error.fields.length ? { fields: error.fields } : {};
    return withHint({ code: error.code === 'MCP_SERVER_INVALID' || error.code === 'PROMPT_INVALID' ? 'INVALID' : error.code, message: error.message, ...fields }, error.hint);
  }
  if (error instanceof SecretError || error instanceof ChatError || error instanceof MessageLogError || error instanceof KnowledgeError || error instanceof MemoryError || error instanceof McpAppError)
    return withHint({ code: error.code, message: error.message }, error.hint);
  if (error instanceof InstallError) return withHint({ code: error.code, message: [error.message, ...error.problems.map((p) => `${p.path || p.file}: ${p.message}`)].join('\n') }, error.hint);
  if (error instanceof CatalogError) return withHint({ code: error.code, message: error.message }, error.hint);
  if (error instanceof SamplingError) return { code: error.code, message: error.message };
  if (error instanceof ElicitationError) return { code: error.code, message: error.message, fields: error.fields };
  if (error instanceof WorkspaceRootsError) return { code: 'INVALID', message: error.message, fields: error.fields };
  if (error instanceof SettingsError) return withHint({ code: 'INVALID', message: error.message, fields: error.fields }, error.hint);
  if (error instanceof GatewayError || error instanceof ResourceError) return withHint({ code: error.code, message: error.reason }, error.fix);
  if (error instanceof RegistryError || error instanceof McpRuntimeError) return { code: error.code, message: error.message };
  return { code: 'FAILED', message: error instanceof Error ? error.message : String(error) };
}

const withHint = (error: HostApiError, hint: string | undefined): HostApiError => (hint ? { ...error, hint } : error);
