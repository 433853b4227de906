/**
 * Stable codes for what a stdio server process does wrong (or what happens
 * to it); callers branch on `code`, never on message text.
 */
export type ServerFaultCode =
  /** A stdout line that is not JSON: logged, the connection goes on. */
  | 'NON_JSON_STDOUT'
  /** A stdout line that is JSON but not a JSON-RPC message: logged, the connection goes on. */
  | 'INVALID_JSONRPC'
  /** A stdout line over `maxLineBytes`: passed over (its request answered with an error); 16 times over it, the transport closes. */
  | 'STDOUT_LINE_TOO_LONG'
  /** The command could not be started (not found, not executable, bad cwd). */
  | 'SPAWN_FAILED'
  /** The process exited while the connection was open. */
  | 'SERVER_EXITED'
  /** A message was sent before start() or after close. */
  | 'NOT_CONNECTED'
  /** Writing to the server's stdin failed (it closed its end). */
  | 'STDIN_FAILED';

export class ServerFaultError extends Error {
  override readonly name = 'ServerFaultError';

  constructor(
    readonly code: ServerFaultCode,
    /** The runtime id of the server the fault is about. */
    readonly serverId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
