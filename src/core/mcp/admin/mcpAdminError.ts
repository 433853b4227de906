import type { FieldError } from '../../../shared/mcpAdmin.js';
import type { Problem } from '../../../shared/problems.js';

export type McpAdminErrorCode =
  /** add: mcp.yaml already has a server of that name. */
  | 'MCP_SERVER_EXISTS'
  /** edit, remove, test: no server of that name in mcp.yaml. */
  | 'MCP_SERVER_NOT_FOUND'
  /** The server as given would not load: `fields` says which field and how to fix it; nothing was written. */
  | 'MCP_SERVER_INVALID'
  /** mcp.yaml as a whole does not load (syntax, version): no edit is made until it is fixed by hand. */
  | 'MCP_CONFIG_BROKEN'
  /** mcp.yaml cannot be read (not a regular file, too large, no permission). */
  | 'MCP_CONFIG_UNREADABLE'
  /** Writing mcp.yaml failed; the file is as it was. */
  | 'MCP_CONFIG_WRITE_FAILED'
  | 'MCP_TEMPLATE_UNKNOWN'
  /** A built-in tool's switch: no built-in tool of that name. */
  | 'MCP_BUILTIN_UNKNOWN'
  /** A built-in tool switched on while a server of mcp.yaml has its name. */
  | 'MCP_BUILTIN_NAME_TAKEN'
  /** sign in / sign out: the server is not a remote (url) server, or does not load as written. */
  | 'MCP_SIGN_IN_UNSUPPORTED'
  /** Signing in failed at a step the message names (discovery, registration, the browser, the token); nothing was stored. */
  | 'MCP_SIGN_IN_FAILED'
  /** An imported file that holds no servers ChatOS can read. */
  | 'IMPORT_INVALID';

/** A refused or failed edit of the user's MCP servers; callers branch on `code`. */
export class McpAdminError extends Error {
  override readonly name = 'McpAdminError';

  constructor(
    readonly code: McpAdminErrorCode,
    message: string,
    /** How to fix it, as an instruction. */
    readonly hint?: string,
    /** For MCP_SERVER_INVALID: the fields at fault, by their name in the input (`url`, `env[0].key`). */
    readonly fields: FieldError[] = [],
    /** For MCP_CONFIG_BROKEN / IMPORT_INVALID: the file's own problems. */
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}
