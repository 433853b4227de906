import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { OverlongLine } from './lineBuffer.js';

/**
 * A stdout line over the transport's limit is passed over, not parsed
 * (docs/using/mcp-servers.md#an-answer-too-large-for-stdio): which request
 * it answered is read from its ends alone. A JSON-RPC message's id is a
 * key of its outermost object, and servers write it first (Python SDK:
 * `{"jsonrpc":"2.0","id":7,"result":…}`) or last (TypeScript SDK:
 * `{"result":…,"jsonrpc":"2.0","id":7}`). Only those two places are
 * looked at: there nothing nested can look like the outer id.
 */

/** A JSON-RPC id as written: a number or a plain string (no escapes; an id with escapes is not recognized). */
const ID = String.raw`(-?\d{1,15}|"[^"\\]{0,200}")`;
/** `{"id":…` or `{"jsonrpc":"2.0","id":…` at the very start. */
const FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
/** `,"id":…}` at the very end: the outermost object's last key. */
const LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** `{"method":…` or `{"jsonrpc":"2.0","method":…` at the very start: a request or notification of the server's, no answer. */
const CALL_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/;

/** Whether a passed-over line says at its start that it is the server's request or notification (a huge log message), not an answer. */
export function overlongIsCall(line: Pick<OverlongLine, 'head'>): boolean {
  return CALL_FIRST.test(line.head.toString('latin1'));
}

/** The id a passed-over line carries at one of its ends, if it does. */
export function overlongIdOf(line: Pick<OverlongLine, 'head' | 'tail'>): RequestId | undefined {
  const found = FIRST.exec(line.head.toString('latin1')) ?? LAST.exec(line.tail.toString('latin1'));
  if (!found) return undefined;
  const raw = found[1]!;
  return raw.startsWith('"') ? raw.slice(1, -1) : Number(raw);
}

/** Marks the error the transport answers in place of an answer too large to read (`error.data.chatos`). */
export const ANSWER_TOO_LARGE = 'ANSWER_TOO_LARGE';

/** Megabytes, as a person reads them: "6.2 MB", "4 MB". */
export const megabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

/** Why the answer is missing, as the caller's error says it. */
export function tooLargeText(bytes: number, limit: number): string {
  return `the server's answer was ${megabytes(bytes)}, over the ${megabytes(limit)} limit of one message over stdio; it was dropped and the server is still connected`;
}

/** The error response the transport hands the client for request `id` in place of its answer (`text`: why, in words). */
export function tooLargeAnswer(id: RequestId, bytes: number, limit: number, text = tooLargeText(bytes, limit)): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32603, message: text, data: { chatos: ANSWER_TOO_LARGE, bytes, limit } } };
}

/**
 * Requests whose answer may be larger than one message (an MCP App view:
 * mcp/connection/viewReads.ts): a transport lets their answers, and only
 * theirs, up to `maxBytes`.
 */
export interface LargeAnswers {
  maxBytes: number;
  /** Whether this request (a JSON-RPC message the client sends) may be answered up to `maxBytes`. */
  applies(message: unknown): boolean;
  /** Why an answer to such a request was dropped: the bound, the setting that raises it, and its size when known. */
  tooLargeText(limit: number, bytes?: number): string;
}
