import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEachTest } from './afterEachTest.js';

/**
 * A remote MCP server on 127.0.0.1 that answers the 2026-07-28 discovery and
 * then behaves as `mode` says, written at the JSON-RPC level because each
 * mode breaks the protocol on purpose (the SDK's servers cannot):
 * - `answersLike2025`: after `server/discover`, every request is refused as a
 *   2025 server refuses a client that did not initialize (HTTP 400, -32000).
 * - `asksForever`: `ask` answers every call `input_required` with a form and a
 *   new requestState, whatever comes back.
 * - `hugeState`: `ask` answers `input_required` with a requestState of
 *   `stateBytes` bytes.
 * - `asksOnce`: `ask` asks for a name once, then answers with what came back
 *   (and whether its requestState came back byte for byte).
 * - `mixes`: `ask` answers on an event stream carrying a 2025 server→client
 *   `elicitation/create` request (which the 2026 wire has none of), and
 *   never a result.
 * - `malformed`: `ask` answers with `answer` as its JSON-RPC result as given
 *   (a shape the era does not allow), or, when `answer` is a string, that
 *   string as the whole HTTP body.
 * `calls` counts the tools/call requests it received.
 */
export type ModernWireMode = 'answersLike2025' | 'asksForever' | 'hugeState' | 'asksOnce' | 'mixes' | 'malformed';

export interface ModernWireServer {
  url: string;
  readonly calls: number;
  /** The MCP-Protocol-Version header of each request, in order. */
  readonly versions: (string | undefined)[];
}

const servers: http.Server[] = [];
afterEachTest(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

const VERSION = '2026-07-28';
const form = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } }, required: ['name'] } },
};

export async function startModernWireServer(mode: ModernWireMode, options: { stateBytes?: number; answer?: unknown } = {}): Promise<ModernWireServer> {
  let calls = 0;
  const versions: (string | undefined)[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const send = (status: number, message: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(message));
      };
      if (request.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } });
      versions.push(request.headers['mcp-protocol-version'] as string | undefined);
      const message = JSON.parse(body) as { id?: number | string; method: string; params?: { name?: string; requestState?: string; inputResponses?: Record<string, { content?: { name?: string } }> } };
      if (message.id === undefined) return void response.writeHead(202).end();
      const result = (value: Record<string, unknown>) => send(200, { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...value } });
      if (message.method === 'server/discover') {
        return result({ supportedVersions: [VERSION], capabilities: { tools: {} }, serverInfo: { name: `modern-${mode}`, version: '1.0.0' } });
      }
      if (mode === 'answersLike2025') return send(400, { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'Bad Request: Server not initialized' } });
      if (message.method === 'tools/list')
        return result({ ttlMs: 0, cacheScope: 'private', tools: [{ name: 'ask', description: 'Asks the user, then answers', inputSchema: { type: 'object', properties: {} } }] });
      if (message.method !== 'tools/call') return send(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      calls++;
      if (mode === 'mixes') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return void response.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'asks-1', ...form })}\n\n`);
      }
      if (mode === 'malformed') {
        if (typeof options.answer !== 'string') return send(200, { jsonrpc: '2.0', id: message.id, result: options.answer });
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(options.answer);
      }
      const params = message.params ?? {};
      if (mode === 'asksForever') return result({ resultType: 'input_required', inputRequests: { again: form }, requestState: `round-${calls}` });
      if (mode === 'hugeState') return result({ resultType: 'input_required', inputRequests: { name: form }, requestState: 's'.repeat(options.stateBytes ?? 0) });
      const answered = params.inputResponses?.name?.content?.name;
      if (answered === undefined) return result({ resultType: 'input_required', inputRequests: { name: form }, requestState: 'state-1' });
      return result({ content: [{ type: 'text', text: `hello ${answered}; state ${params.requestState === 'state-1' ? 'kept' : 'lost'}` }] });
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    get calls() {
      return calls;
    },
    versions,
  };
}
