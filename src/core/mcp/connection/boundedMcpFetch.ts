import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { cutBody, limitBody, sizeText } from '../../net/boundedBody.js';
import { limitEvents } from '../../net/boundedEvents.js';
import type { LargeAnswers } from '../../process/overlongAnswer.js';

/**
 * The fetch a remote (streamable HTTP) MCP server is read through, with
 * every answer bounded before the SDK holds it
 * (docs/rules/security.md#sizes-and-depths), as a stdio server's lines are:
 * a JSON answer up to MAX_MESSAGE_BYTES, each event of an event stream up
 * to the same, an error body cut at MAX_ERROR_BODY_BYTES.
 *
 * A JSON answer past the limit fails its request (the SDK's send rejects,
 * and the call with it). An event past the limit cannot fail its request
 * that way (the SDK reads the stream after send returned, and a broken
 * stream only reaches its error log, leaving the call to wait for its
 * timeout): the event is cut, and the stream ends with a JSON-RPC error
 * answer to each request the POST carried, saying what happened. Either
 * way the session goes on: the next call works.
 */

/** One message at most, as a stdio server's line (processTransport's default). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** An error body is a message, not a document. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** JSON-RPC's internal error: the server's answer could not be taken. */
const INTERNAL_ERROR = -32603;

/** The server's answer in words: its origin (never a path or query, which may hold a key) and the limit. */
function tooLargeText(url: string, maxBytes: number): string {
  const origin = URL.canParse(url) ? new URL(url).origin : 'the server';
  return `the answer from ${origin} was larger than ${sizeText(maxBytes)} (the limit of one MCP message); it was not read. Ask for less (a narrower call), or tell the server's author`;
}

/** The JSON-RPC messages a POST body carries (one, or a batch); none for a body that is not JSON. */
function messagesOf(body: unknown): unknown[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** The ids of the JSON-RPC requests among `messages`; none for notifications. */
function requestIdsOf(messages: unknown[]): (string | number)[] {
  return messages.flatMap((m) => {
    const id = (m as { id?: unknown; method?: unknown } | null)?.id;
    return (typeof id === 'string' || typeof id === 'number') && typeof (m as { method?: unknown }).method === 'string' ? [id] : [];
  });
}

/**
 * `large`: requests whose answer may be larger (an MCP App view's read, mcp/connection/viewReads.ts): a POST that
 * carries only such requests is read up to their bound, and its error names that bound and the setting.
 */
export function boundedMcpFetch(base: FetchLike = fetch, usualBytes = MAX_MESSAGE_BYTES, large?: LargeAnswers): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok) return cutBody(response, MAX_ERROR_BODY_BYTES);
    const url = response.url || String(input);
    const sent = messagesOf(init?.body);
    const isLarge = large !== undefined && sent.length > 0 && sent.every((m) => large.applies(m));
    const maxBytes = isLarge ? Math.max(usualBytes, large.maxBytes) : usualBytes;
    const message = isLarge ? large.tooLargeText(maxBytes) : tooLargeText(url, maxBytes);
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return limitBody(response, { maxBytes, tooLarge: () => new Error(message) });
    const ids = requestIdsOf(sent);
    const answers = () => ids.map((id) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message } })}\n\n`).join('');
    return limitEvents(response, maxBytes, () => new Error(message), ids.length > 0 ? { endWith: answers } : {});
  };
}
