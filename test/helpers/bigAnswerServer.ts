import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { afterEachTest } from './afterEachTest.js';

/**
 * A remote MCP server whose answers can be too large: the SDK's own server
 * transport on 127.0.0.1 (stateless), answering as JSON or as an event
 * stream, with a `small` tool and a `huge` tool that returns `megabytes` of
 * text in one message. `bytesSent` counts what it wrote.
 */
export interface BigAnswerServer {
  url: string;
  readonly bytesSent: number;
}

const servers: http.Server[] = [];
afterEachTest(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

export async function startBigAnswerServer(options: { eventStream: boolean }): Promise<BigAnswerServer> {
  let bytesSent = 0;
  const server = http.createServer((request, response) => {
    const write = response.write.bind(response);
    response.write = ((chunk: string | Uint8Array, ...rest: never[]) => (
      (bytesSent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength),
      write(chunk, ...rest)
    )) as typeof response.write;
    const mcp = new McpServer({ name: 'big-answers', version: '1.0.0' });
    mcp.registerTool('small', { description: 'A short answer', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'small answer' }] }));
    mcp.registerTool('huge', { description: 'An answer of `megabytes` MB', inputSchema: { megabytes: z.number() } }, async ({ megabytes }) => ({
      content: [{ type: 'text', text: 'x'.repeat(megabytes * 1024 * 1024) }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !options.eventStream });
    response.on('close', () => void transport.close());
    void mcp.connect(transport).then(() => transport.handleRequest(request, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    get bytesSent() {
      return bytesSent;
    },
  };
}
