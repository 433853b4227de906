#!/usr/bin/env node
// The Canvas app's MCP server. In ChatOS it runs over stdio and keeps its
// instances in the app's data folder (from _meta). It also runs on its own
// for other MCP hosts (Claude Desktop, Cline):
//   node server.mjs [--data-dir DIR]                                  stdio (default)
//   MCP_TRANSPORT=http MCP_PORT=8766 node server.mjs [--data-dir DIR] streamable HTTP on 127.0.0.1:8766/mcp
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
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
  await createCanvasServer({ stores: new Map(), fallbackDir: dataDir, metaFolders: true }).connect(new StdioServerTransport());
} else if (transport === 'http' || transport === 'streamable_http' || transport === 'streamable-http') {
  await serveHttp(Number(process.env.MCP_PORT ?? 8766), { stores: new Map(), fallbackDir: dataDir, metaFolders: false });
} else {
  process.stderr.write(`canvas: MCP_TRANSPORT must be stdio or http, not "${process.env.MCP_TRANSPORT}"\n`);
  process.exit(2);
}

/** Streamable HTTP on 127.0.0.1 only, at /mcp (and /), one session per client; Host and Origin are checked against DNS rebinding. */
async function serveHttp(port, context) {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`canvas: MCP_PORT must be a port number, not "${process.env.MCP_PORT}"\n`);
    process.exit(2);
  }
  const sessions = new Map();
  const server = http.createServer(async (req, res) => {
    const actual = server.address().port;
    const local = [`127.0.0.1:${actual}`, `localhost:${actual}`, `[::1]:${actual}`];
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!local.includes(req.headers.host ?? '')) return reply(res, 421, 'wrong Host: this server answers only on 127.0.0.1');
    if (req.headers.origin !== undefined && !local.some((host) => req.headers.origin === `http://${host}`)) return reply(res, 403, 'cross-origin requests are refused');
    if (url.pathname !== '/mcp' && url.pathname !== '/') return reply(res, 404, 'the MCP endpoint is /mcp');
    try {
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (known) return await known.handleRequest(req, res);
      if (req.method !== 'POST') return reply(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'start a session with an initialize request');
      const body = await readJson(req);
      if (!isInitializeRequest(body)) return reply(res, sessionId ? 404 : 400, sessionId ? 'unknown session' : 'start a session with an initialize request');
      const session = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, session),
      });
      session.onclose = () => session.sessionId && sessions.delete(session.sessionId);
      await createCanvasServer(context).connect(session);
      await session.handleRequest(req, res, body);
    } catch (error) {
      process.stderr.write(`canvas: ${error.stack ?? error}\n`);
      if (!res.headersSent) reply(res, 500, 'internal error');
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

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 4 * 1024 * 1024) throw new Error('request body over 4 MiB');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
