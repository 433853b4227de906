import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ClientFeatures, toolsFeature, type ClientFeature, type ClientRequestPolicy } from '../../../../src/core/mcp/client/clientFeatures.js';
import { ServerConnection } from '../../../../src/core/mcp/connection/serverConnection.js';
import { RUN_ALLOWED } from '../../../../src/core/policy/runGate.js';
import { ServerLog } from '../../../../src/core/process/serverLog.js';
import { testServerDefinition } from '../../../helpers/serverDefinition.js';

/**
 * The MCP client's features, against a real SDK server over the SDK's
 * in-memory transport: what the client declares, the tools feature, and a
 * feature that answers a server's request only once the policy lets it.
 */

const INFO = { name: 'chatos', version: '0.1.0' };
const definition = testServerDefinition('fx');

function serverWithEcho(): McpServer {
  const server = new McpServer({ name: 'fx', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(features: ClientFeatures, server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const session = features.open(INFO, definition);
  await session.client.connect(clientSide);
  closers.push(
    () => session.client.close(),
    () => server.close(),
  );
  return session;
}

/** Roots as a feature would give them: one small service, registered here. */
class TestRootsFeature implements ClientFeature {
  readonly name = 'roots';
  readonly capabilities = { roots: { listChanged: false } };
  readonly asked: string[] = [];
  attach(session: Parameters<ClientFeature['attach']>[0]): void {
    session.onRequest(ListRootsRequestSchema, async () => {
      this.asked.push(session.definition.id);
      return { roots: [{ uri: 'file:///work/project', name: 'project' }] };
    });
  }
}

const allow: ClientRequestPolicy = { mayAsk: () => ({ ok: true }) };

describe('the MCP client features', () => {
  it('declare no capability while only tools exist, and keep the tool list current on list_changed', async () => {
    const server = serverWithEcho();
    const session = await connect(new ClientFeatures([toolsFeature]), server);
    expect(server.server.getClientCapabilities()).toEqual({});
    await session.tools.refresh();
    expect(session.tools.list.map((t) => t.name)).toEqual(['echo']);
    expect(await session.tools.call('echo', { text: 'hi' }, {}, {})).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });

    // A tool added while connected: the server says its list changed, the tools feature lists again.
    server.registerTool('later', { description: 'added later' }, () => ({ content: [] }));
    await expect.poll(() => session.tools.list.map((t) => t.name)).toEqual(['echo', 'later']);
  });

  it('merge the task requests features declare, and then list and cancel tasks too', async () => {
    const asTask = (name: string, capabilities: ClientFeature['capabilities']): ClientFeature => ({ name, capabilities, attach: () => {} });
    const features = new ClientFeatures([
      toolsFeature,
      asTask('sampling', { sampling: { tools: {} }, tasks: { requests: { sampling: { createMessage: {} } } } }),
      asTask('elicitation', { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } }),
    ]);
    const server = serverWithEcho();
    await connect(features, server);
    expect(server.server.getClientCapabilities()).toEqual({
      sampling: { tools: {} },
      elicitation: { form: {} },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    });
  });

  it("declare a feature's capability and answer its requests through the policy", async () => {
    const roots = new TestRootsFeature();
    const server = serverWithEcho();
    await connect(new ClientFeatures([toolsFeature, roots], allow), server);
    expect(server.server.getClientCapabilities()).toEqual({ roots: { listChanged: false } });
    expect(await server.server.listRoots()).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
    expect(roots.asked).toEqual(['chatos::fx']);
  });

  it('refuse a request the policy does not allow, with its reason, before the feature runs', async () => {
    const roots = new TestRootsFeature();
    const refuse: ClientRequestPolicy = { mayAsk: ({ definition: def }, method) => ({ ok: false, reason: `${def.id} may not ask ${method}` }) };
    const server = serverWithEcho();
    await connect(new ClientFeatures([toolsFeature, roots], refuse), server);
    await expect(server.server.listRoots()).rejects.toThrow('chatos::fx may not ask roots/list');
    expect(roots.asked).toEqual([]);
  });

  it('are what a server connection declares and lists and calls tools through', async () => {
    const roots = new TestRootsFeature();
    let server: McpServer | undefined;
    const connection = new ServerConnection(
      { ...definition, transport: { kind: 'in-process', server: 'fx' } },
      {
        log: new ServerLog(),
        hostEnv: process.env,
        clientInfo: INFO,
        now: () => Date.now(),
        gate: () => RUN_ALLOWED,
        inProcessServers: new Map([['fx', () => (server = serverWithEcho())]]),
        features: new ClientFeatures([toolsFeature, roots], allow),
      },
    );
    await connection.start();
    closers.push(() => connection.close());
    expect(server!.server.getClientCapabilities()).toEqual({ roots: { listChanged: false } });
    expect(connection.tools.map((t) => t.name)).toEqual(['echo']);
    expect(await connection.callTool('echo', { text: 'through the seam' }, {})).toMatchObject({ content: [{ type: 'text', text: 'through the seam' }] });
  });
});
