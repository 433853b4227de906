/** SIGN_IN_NEEDED: a remote server needs the user to sign in (again, or for more permissions); SIGN_IN_FAILED: signing in went wrong at a step the message names. */
export type McpErrorCode =
  | 'SERVER_NOT_RUNNABLE'
  | 'SERVER_START_FAILED'
  | 'CONNECT_TIMEOUT'
  | 'SERVER_CRASHED'
  | 'SERVER_CLOSED'
  | 'CALL_TIMEOUT'
  | 'CALL_ABORTED'
  | 'SIGN_IN_NEEDED'
  | 'SIGN_IN_FAILED'
  /** The server broke its own protocol era (said 2026-07-28, answered as 2025; asked on past the rounds a call may take): the call ends. */
  | 'SERVER_MISBEHAVED'
  /** The server's answer was over the stdio transport's limit of one message: dropped, the server still connected. */
  | 'ANSWER_TOO_LARGE';

/**
 * Why a start failed, where the host can tell (a "test connection" says it
 * in words): a host variable or a stored value it needs is missing, the
 * program could not be started, the url did not answer over streamable
 * HTTP, or the server started and then failed the MCP handshake.
 */
export type StartFailureReason = 'ENV_MISSING' | 'SECRET_MISSING' | 'SPAWN_FAILED' | 'HTTP_CONNECT_FAILED' | 'URL_REFUSED' | 'HANDSHAKE_FAILED' | 'SIGN_IN_NEEDED' | 'SIGN_IN_FAILED';

/** Errors of the runtime carry a code; callers branch on it, never on message text. */
export class McpRuntimeError extends Error {
  constructor(
    readonly code: McpErrorCode,
    message: string,
    readonly serverId?: string,
    /** How to fix it, when the host can tell (a command not on PATH, a server that exits at start). */
    readonly fix?: string,
    readonly reason?: StartFailureReason,
  ) {
    super(message);
  }
}
