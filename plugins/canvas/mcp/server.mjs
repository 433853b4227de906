#!/usr/bin/env node
// The Canvas app's MCP server. In ChatOS it runs over stdio and keeps its
// instances in the app's data folder (from _meta). It also runs on its own
// for other MCP hosts (Claude Desktop, Cline):
//   node server.mjs [--data-dir DIR]                                  stdio (default)
//   MCP_TRANSPORT=http MCP_PORT=8766 node server.mjs [--data-dir DIR] streamable HTTP on 127.0.0.1:8766/mcp
//                                                  (and the older HTTP+SSE transport at /sse, for clients that still use it)
// and then keeps its instances in --data-dir, else $CANVAS_DATA_DIR, else the
// current folder. Over HTTP that folder is the only one: any local process
// can reach the port (it has no token), so a folder a call names in _meta is
// ignored. Over stdio the one client is whoever started the server, so the
// folder ChatOS names in _meta is used.
// stdout is the protocol channel in stdio mode: log to stderr only.
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createCanvasServer } from './canvasServer.mjs';

let flags;
try {
  flags = parseArgs({ options: { 'data-dir': { type: 'string' } } }).values;
} catch (error) {
  process.stderr.write(`canvas: ${error.message}\nusage: node server.mjs [--data-dir DIR]\n`);
  process.exit(2);
}
const dataDir = path.resolve(flags['data-dir'] || process.env.CANVAS_DATA_DIR || process.cwd());
const transport = (process.env.MCP_TRANSPORT ?? 'stdio').toLowerCase();

if (transport === 'stdio') {
  // The opening message picks the era and one server for the connection; the stores are the process's.
  const context = { stores: new Map(), fallbackDir: dataDir, metaFolders: true };
  serveStdio(() => createCanvasServer(context));
} else if (transport === 'http' || transport === 'streamable_http' || transport === 'streamable-http') {
  await serveHttp(Number(process.env.MCP_PORT ?? 8766), { stores: new Map(), fallbackDir: dataDir, metaFolders: false });
} else {
  process.stderr.write(`canvas: MCP_TRANSPORT must be stdio or http, not "${process.env.MCP_TRANSPORT}"\n`);
  process.exit(2);
}

/** Open /sse streams at most: each holds a connection and a server; a client that goes away frees its own. */
const MAX_SSE_STREAMS = 32;
/**
 * Streamable HTTP sessions kept at most. A session outlives its requests (a
 * client that never says goodbye leaves one behind, with its server), so the
 * one used longest ago is closed to make room; its client gets 404 and, as
 * the protocol says, starts a new session.
 */
const MAX_HTTP_SESSIONS = 32;

/**
 * Streamable HTTP on 127.0.0.1 only, at /mcp (and /), one session per
 * client; the older HTTP+SSE transport at GET /sse with its POST /messages.
 * Host and Origin are checked on every request, of either transport, against
 * DNS rebinding.
 */
async function serveHttp(port, context) {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`canvas: MCP_PORT must be a port number, not "${process.env.MCP_PORT}"\n`);
    process.exit(2);
  }
  const sessions = new Map();
  const streams = new Map();
  // 2026-07-28 requests: stateless, one server per request over the process's stores (no session to keep or bound).
  const modern = createMcpHandler(() => createCanvasServer(context));
  const server = http.createServer(async (req, res) => {
    const actual = server.address().port;
    const local = [`127.0.0.1:${actual}`, `localhost:${actual}`, `[::1]:${actual}`];
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!local.includes(req.headers.host ?? '')) return reply(res, 421, 'wrong Host: this server answers only on 127.0.0.1');
    if (req.headers.origin !== undefined && !local.some((host) => req.headers.origin === `http://${host}`)) return reply(res, 403, 'cross-origin requests are refused');
    if (url.pathname === '/sse' || url.pathname === '/messages') return serveSse(req, res, url, streams, context);
    if (url.pathname !== '/mcp' && url.pathname !== '/') return reply(res, 404, 'the MCP endpoint is /mcp (or /sse for the older HTTP+SSE transport)');
    try {
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (known) {
        // Kept in the order of use: the first entry is the one used longest ago.
        sessions.delete(sessionId);
        sessions.set(sessionId, known);
        return await known.handleRequest(req, res);
      }
      if (req.method !== 'POST') return reply(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'start a session with an initialize request');
      const body = await readJson(req);
      const asked = webRequest(req, url, body);
      if (!(await isLegacyRequest(asked, body))) return await answerWith(res, await modern.fetch(asked));
      if (!isInitializeRequest(body)) return reply(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'start a session with an initialize request');
      if (sessions.size >= MAX_HTTP_SESSIONS) {
        const [oldestId, oldest] = sessions.entries().next().value;
        sessions.delete(oldestId);
        await oldest.close();
      }
      const session = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, session),
      });
      session.onclose = () => session.sessionId && sessions.delete(session.sessionId);
      await createCanvasServer(context).connect(session);
      await session.handleRequest(req, res, body);
    } catch (error) {
      fail(res, error);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  process.stderr.write(`canvas: MCP over streamable HTTP at http://127.0.0.1:${server.address().port}/mcp, instances in ${context.fallbackDir}\n`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * The HTTP+SSE transport of MCP 2024-11-05: GET /sse opens a stream whose
 * first event names the POST /messages?sessionId=… endpoint for that
 * client's requests. Reached only past serveHttp's Host and Origin checks.
 */
async function serveSse(req, res, url, streams, context) {
  try {
    if (url.pathname === '/sse') {
      if (req.method !== 'GET') return reply(res, 405, 'open the event stream with GET /sse');
      if (streams.size >= MAX_SSE_STREAMS) return reply(res, 503, `${MAX_SSE_STREAMS} /sse streams are open, the most this server keeps; close one first`);
      const stream = new SSEServerTransport('/messages', res);
      streams.set(stream.sessionId, stream);
      stream.onclose = () => streams.delete(stream.sessionId);
      return await createCanvasServer(context).connect(stream);
    }
    if (req.method !== 'POST') return reply(res, 405, 'send messages with POST /messages?sessionId=…');
    const sessionId = url.searchParams.get('sessionId');
    const stream = sessionId === null ? undefined : streams.get(sessionId);
    if (!stream) return reply(res, 404, 'unknown sessionId: open a stream with GET /sse first');
    await stream.handlePostMessage(req, res, await readJson(req));
  } catch (error) {
    fail(res, error);
  }
}

/** The request as the v2 package's web-standard handler takes it; its body was read (and bounded) already. */
function webRequest(req, url, body) {
  const headers = new Headers();
  // Not those of the connection: the body is sent again whole (its length may differ), to no other host.
  const own = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive']);
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !own.has(name)) headers.set(name, value);
  return new Request(new URL(url.pathname + url.search, `http://${req.headers.host}`), { method: 'POST', headers, body: JSON.stringify(body) });
}

/** Writes a web-standard response (JSON, or an event stream as it comes) to the Node response. */
async function answerWith(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}

/** A refused request body: answered with its status and message, not as an internal error. */
class BadRequest extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 4 * 1024 * 1024) throw new BadRequest(413, 'request body over 4 MiB');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new BadRequest(400, `the request body is not JSON: ${error.message}`);
  }
}

/** The answer to a request that failed: its own status for a bad body, else 500 (and the stack on stderr). */
function fail(res, error) {
  if (!(error instanceof BadRequest)) process.stderr.write(`canvas: ${error.stack ?? error}\n`);
  if (!res.headersSent) reply(res, error instanceof BadRequest ? error.status : 500, error instanceof BadRequest ? error.message : 'internal error');
}
