import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { modelSees } from '../mcp/catalog/toolUi.js';
import type { Caller, GatewayCallOptions, ToolGateway } from '../tools/toolGateway.js';

/**
 * The SDK's HTTP server transport, imported when an agent first calls: importing it reads Node's fetch classes
 * (Headers, Request, Response: undici, about 25 ms), which every CLI command and every host start paid before.
 */
let httpTransport: Promise<typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')> | undefined;
const transportModule = () => (httpTransport ??= import('@modelcontextprotocol/sdk/server/streamableHttp.js'));

/** Who calls through one session's endpoint, and where its images go. */
export interface EndpointSession {
  caller: Caller;
  artifactsDir?: string;
  /** Aborted when the turn stops: calls in flight are cancelled. */
  signal(): AbortSignal | undefined;
}

/** What an ACP agent is told to connect to (`session/new`'s `mcpServers` entry). */
export interface EndpointGrant {
  url: string;
  headers: { name: string; value: string }[];
  /** Ends the grant: the token answers nothing from then on. */
  revoke(): void;
}

const PATH = '/mcp';
const TOKEN_BYTES = 32;

/**
 * The gateway served as one MCP server over streamable HTTP on loopback
 * (docs/using/acp.md#the-servers-it-is-offered), for the ACP agents the host
 * runs. Each ACP session gets its own random token, bound to the ChatOS
 * agent's caller in that conversation: the agent sees exactly the tools
 * that caller is offered, and each call goes through the gateway, so
 * access, permission levels, confirmations and the audit apply as to the
 * host's own model. A request without a live token is refused before any
 * MCP is read. Started on first use, one port for every session.
 */
export class GatewayEndpoint {
  private server: http.Server | undefined;
  private listening: Promise<number> | undefined;
  /** Token (hex) → session. */
  private readonly sessions = new Map<string, EndpointSession>();

  constructor(private readonly gateway: Pick<ToolGateway, 'listTools' | 'callTool'>) {}

  async grant(session: EndpointSession): Promise<EndpointGrant> {
    const port = await this.listen();
    const token = randomBytes(TOKEN_BYTES).toString('hex');
    this.sessions.set(token, session);
    return {
      url: `http://127.0.0.1:${port}${PATH}`,
      headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
      revoke: () => void this.sessions.delete(token),
    };
  }

  private listen(): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = http.createServer((req, res) => void this.handle(req, res));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
      this.server = server;
    });
    return this.listening;
  }

  /** The session a request's bearer token names, compared in constant time. */
  private sessionOf(req: http.IncomingMessage): EndpointSession | undefined {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer ([0-9a-f]{64})$/.exec(header) : null;
    if (!match) return undefined;
    const given = Buffer.from(match[1]!, 'hex');
    for (const [token, session] of this.sessions) if (timingSafeEqual(Buffer.from(token, 'hex'), given)) return session;
    return undefined;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const session = url.pathname === PATH ? this.sessionOf(req) : undefined;
    if (!session) {
      res.writeHead(url.pathname === PATH ? 401 : 404, { 'content-type': 'text/plain' }).end(url.pathname === PATH ? 'no valid token' : 'not found');
      return;
    }
    // Stateless: every request is answered by a server made for it, bound to the token's caller.
    const { StreamableHTTPServerTransport } = await transportModule();
    const mcp = this.mcpServer(session);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void mcp.close();
    });
    try {
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
    }
  }

  private mcpServer(session: EndpointSession): Server {
    const server = new Server({ name: 'chatos-gateway', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const listed = await this.gateway.listTools(session.caller);
      return {
        tools: listed.tools.filter(modelSees).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const turn = session.signal();
      const signal = turn ? AbortSignal.any([turn, extra.signal]) : extra.signal;
      const options: GatewayCallOptions = { signal, ...(session.artifactsDir ? { artifactsDir: session.artifactsDir } : {}) };
      try {
        const outcome = await this.gateway.callTool(session.caller, request.params.name, request.params.arguments ?? {}, options);
        return outcome.result;
      } catch (error) {
        // A refusal (access, a declined confirmation, an unknown tool) is the tool's answer the agent reads, with its reason.
        return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
      }
    });
    return server;
  }

  async close(): Promise<void> {
    this.sessions.clear();
    const server = this.server;
    this.server = undefined;
    this.listening = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
