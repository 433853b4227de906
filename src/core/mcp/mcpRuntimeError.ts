import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { withoutStackTraces } from './stackTrace.js';

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
  | 'ANSWER_TOO_LARGE'
  /** The server answered the request with a JSON-RPC error (ServerRpcError: its code, words and data). */
  | 'SERVER_ERROR';

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

/**
 * A request the server answered with a JSON-RPC error (docs/rules/gateway.md#server-errors):
 * its code, its own words (stack traces left out) and its `data`, kept so a
 * caller can branch on the code (-32042: a page to open first) and every face
 * can say what the server said, never as a failure of ChatOS.
 */
export class ServerRpcError extends McpRuntimeError {
  constructor(
    readonly rpcCode: number,
    /** What the server said, without the SDK's "MCP error <code>: " and without stack traces. */
    readonly words: string,
    readonly data: unknown,
    message: string,
    serverId: string,
  ) {
    super('SERVER_ERROR', message, serverId);
  }
}

/** "MCP error -32602: ", as many times as the SDK put it before the words (a server that passed on an McpError's message has it twice). */
const SDK_PREFIX = /^(MCP error -?\d+: )+/;

/** At most this much of a server's words is kept: an error is read by a person and a model, not a channel for a megabyte. */
export const MAX_SERVER_WORDS = 4_000;

/** The server's words as said: stack traces left out, and cut at MAX_SERVER_WORDS saying how long they were (the frames are looked for in a bounded part). */
function serverWords(message: string): string {
  const text = message.replace(SDK_PREFIX, '');
  const looked = text.length > MAX_SERVER_WORDS * 4 ? text.slice(0, MAX_SERVER_WORDS * 4) : text;
  const words = withoutStackTraces(looked);
  if (looked === text && words.length <= MAX_SERVER_WORDS) return words;
  return `${words.slice(0, MAX_SERVER_WORDS)}… (cut: the server's message has ${text.length.toLocaleString('en')} characters)`;
}

/**
 * The server's JSON-RPC error to `what` (a call, a read), in its words and with its code, as a ServerRpcError.
 * `data` is kept as the server sent it for a caller that knows its code's shape (-32042); it is never said.
 */
export function serverRpcError(error: Pick<McpError, 'code' | 'message' | 'data'>, what: string, serverId: string): ServerRpcError {
  const words = serverWords(error.message);
  return new ServerRpcError(error.code, words, error.data, `${what} on "${serverId}" failed with JSON-RPC error ${error.code}: ${words}`, serverId);
}
