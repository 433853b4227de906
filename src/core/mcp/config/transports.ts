/**
 * The one rule for how ChatOS reaches an MCP server, asked by `chatos
 * validate` (a plugin's `ai.mcp.url`), by the mcp.yaml loader, by registry
 * rows (provider DBs, bundled defaults) and by the runtime before it
 * connects, so nothing validates that cannot connect.
 *
 * Supported: stdio (a command, or a plugin's `cmd://` url) and streamable
 * HTTP (an `http://` or `https://` url). docs/rules/mcp-yaml.md#transports names no other:
 * the old HTTP+SSE transport is not a configuration option, and ChatOS
 * never falls back to it silently; MCP defines no WebSocket transport, so a
 * `ws://` or `wss://` url is refused wherever it is written.
 */

export const SUPPORTED_TRANSPORTS = ['stdio', 'streamable_http'] as const;

/** The url schemes of a remote server: streamable HTTP only. */
export const SUPPORTED_URL_SCHEMES: readonly string[] = ['http:', 'https:'];

export type TransportRefusalCode = 'URL_INVALID' | 'URL_SCHEME';

export type UrlCheck = { ok: true; url: URL } | { ok: false; code: TransportRefusalCode; message: string; hint: string };

const WEBSOCKET_HINT =
  'MCP has no WebSocket transport and ChatOS cannot connect to one: use the server\'s streamable HTTP endpoint (an http(s) url, often ending in /mcp), or run it over stdio (a plugin\'s "entry", or "command" in mcp.yaml)';

/** Whether a remote server's url is one ChatOS can connect to; the refusal says why and what to write instead. */
export function checkServerUrl(url: string): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: 'URL_INVALID', message: `"${url}" is not a valid url`, hint: 'use a full url such as "http://127.0.0.1:3000/mcp"' };
  }
  if (SUPPORTED_URL_SCHEMES.includes(parsed.protocol)) return { ok: true, url: parsed };
  if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') {
    return { ok: false, code: 'URL_SCHEME', message: `"${url}" is a WebSocket url; ChatOS connects to remote MCP servers over streamable HTTP only`, hint: WEBSOCKET_HINT };
  }
  return {
    ok: false,
    code: 'URL_SCHEME',
    message: `url scheme "${parsed.protocol}" of "${url}" is not supported; ChatOS connects to remote MCP servers over streamable HTTP (http: or https:)`,
    hint: 'use an http(s) url such as "http://127.0.0.1:3000/mcp"; for a local program use stdio (a plugin\'s "entry", or "command" in mcp.yaml)',
  };
}

/** What to say about a written `transport:` value ChatOS does not support (mcp.yaml). */
export function unsupportedTransport(written: string): { message: string; hint: string } {
  const name = written.toLowerCase();
  if (name === 'sse' || name === 'http+sse') {
    return {
      message: `transport "${written}" is not supported: ChatOS connects over stdio or streamable_http, and never over the old HTTP+SSE transport`,
      hint: 'use "transport: streamable_http" with the server\'s streamable HTTP url (servers that offer SSE usually serve it too, often at /mcp instead of /sse), or run the server over stdio',
    };
  }
  if (name === 'ws' || name === 'websocket' || name === 'wss') {
    return { message: `transport "${written}" is not supported: ChatOS connects over stdio or streamable_http`, hint: WEBSOCKET_HINT };
  }
  return { message: `transport "${written}" is not supported; use stdio or streamable_http`, hint: 'use "transport: stdio" (with command) or "transport: streamable_http" (with url)' };
}

/**
 * The hint for a streamable HTTP connection that failed: a server that
 * answers a POST with 404 or 405, or whose url ends in /sse, most likely
 * speaks only the old HTTP+SSE transport, which ChatOS does not use.
 */
export function connectFailureHint(url: URL, status: number | undefined): string {
  if (status === 404 || status === 405 || /\/sse\/?$/i.test(url.pathname)) {
    return 'it may speak only the old HTTP+SSE transport, which ChatOS does not use: point the url at its streamable HTTP endpoint (often /mcp instead of /sse), update the server, or run it over stdio';
  }
  return 'check that the server is running at that url and speaks MCP over streamable HTTP';
}
