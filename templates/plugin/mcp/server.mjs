#!/usr/bin/env node
// A complete MCP server over stdio with no dependencies, so it runs exactly
// as generated. It speaks newline-delimited JSON-RPC 2.0 (the MCP stdio
// transport). stdout carries only protocol messages: log to stderr.
//
// When you need more of MCP (resources, sampling, schemas from zod), install
// the official SDK (npm i @modelcontextprotocol/sdk) and use McpServer; the
// docs/plugins/mcp-server.md of ChatOS shows a tool written that way.
import { createInterface } from 'node:readline';

const SERVER = { name: '__PLUGIN_ID__', version: '0.1.0' };
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const tools = {
  hello: {
    description: 'Greets someone and reports the working folder ChatOS gave this app.',
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] },
    annotations: { readOnlyHint: true },
    run(args, meta) {
      // ChatOS puts the caller's context in _meta, never in the arguments.
      const workdir = meta?.workdir ?? meta?.chatos?.uiApp?.dataDir ?? '(not given)';
      return `Hello, ${args.name}! My working folder is ${workdir}.`;
    },
  },
  add: {
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    annotations: { readOnlyHint: true },
    run(args) {
      if (typeof args.a !== 'number' || typeof args.b !== 'number') throw new Error('a and b must be numbers');
      return String(args.a + args.b);
    },
  },
};

function handle(method, params) {
  switch (method) {
    case 'initialize': {
      const asked = params?.protocolVersion;
      return {
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
        capabilities: { tools: {} },
        serverInfo: SERVER,
      };
    }
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: Object.entries(tools).map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations })) };
    case 'tools/call': {
      // Own keys only: a call of "constructor" or "toString" must not find Object.prototype's members.
      const tool = Object.hasOwn(tools, params?.name ?? '') ? tools[params.name] : undefined;
      if (!tool) throw Object.assign(new Error(`unknown tool: ${params?.name}`), { code: -32602 });
      try {
        return { content: [{ type: 'text', text: tool.run(params.arguments ?? {}, params._meta) }] };
      } catch (error) {
        return { content: [{ type: 'text', text: error.message }], isError: true };
      }
    }
    default:
      throw Object.assign(new Error(`method not found: ${method}`), { code: -32601 });
  }
}

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'parse error' } });
  }
  if (message.id === undefined) return; // a notification: nothing to answer
  try {
    send({ id: message.id, result: handle(message.method, message.params) });
  } catch (error) {
    send({ id: message.id, error: { code: error.code ?? -32603, message: error.message } });
  }
});
process.stdin.on('end', () => process.exit(0));
