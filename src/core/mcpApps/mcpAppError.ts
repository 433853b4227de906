/**
 * Why the host refused an MCP App's view or call (docs/rules/mcp-apps.md).
 * In a file of its own, importing nothing: the faces tell errors apart by
 * class, and `chatos --help` must not load the MCP Apps service (its view
 * bounds bring in the server schemas, and zod with them) to know this one.
 */
export type McpAppErrorCode = 'VIEW_NOT_LINKED' | 'VIEW_NOT_AN_APP' | 'VIEW_TOO_LARGE' | 'APP_TOOL_NOT_VISIBLE' | 'APP_CALL_RATE_LIMITED';

export class McpAppError extends Error {
  override readonly name = 'McpAppError';
  constructor(
    readonly code: McpAppErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
