import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../plainObject.js';

/**
 * A server may answer a request with JSON-RPC error -32042 (URL elicitation
 * required, MCP 2025-11-25): the user has to open a page first, each page
 * one URL-mode elicitation in `error.data.elicitations`. The host puts them
 * to the user as the same URL card as an `elicitation/create` in url mode
 * (docs/using/elicitation.md#pages-a-call-needs-first), then makes the call
 * once more; never a raw error.
 */

/**
 * Puts the pages to the user, one after the other, under the call's signal: undefined once every one was
 * opened (the call is made again), else the result the call ends with (declined, refused: pagesNotOpened).
 */
export type AskForPages = (elicitations: readonly Record<string, unknown>[], signal: AbortSignal | undefined) => Promise<CallToolResult | undefined>;

/** Pages one error may ask for: a server that lists more gets the first ones asked (each is a card the user reads). */
const MAX_PAGES = 3;

/** The url elicitations of a -32042 error (plain objects in url mode, at most MAX_PAGES); undefined for any other error or none usable. */
export function pagesRequired(error: unknown): Record<string, unknown>[] | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired || !isPlainObject(error.data)) return undefined;
  const listed = Object.hasOwn(error.data, 'elicitations') ? error.data.elicitations : undefined;
  if (!Array.isArray(listed)) return undefined;
  const pages = listed.filter((item): item is Record<string, unknown> => isPlainObject(item) && Object.hasOwn(item, 'mode') && item.mode === 'url').slice(0, MAX_PAGES);
  return pages.length ? pages : undefined;
}

/** The result of a call whose pages the user did not open (or the host refused): the model and the user read why it was not made. */
export function pagesNotOpened(serverId: string, why: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `Server "${serverId}" needs a page opened in a browser before this call (JSON-RPC error -32042); ${why}, so the call was not made again.` }],
  };
}
