import * as http from 'node:http';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { internalsOf } from '../../src/core/modules/hostInternals.js';
import { startHeadlessServer } from '../../src/serve/headlessServer.js';
import { startChatWorld } from '../helpers/chatWorld.js';
import { waitUntil } from '../helpers/gatewayHost.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * A view's call over `chatos serve` lives as long as the request that made it (src/serve/apiRoute.ts): a tab that
 * closes or reloads while its view long-polls its server leaves a call nobody will read, which the host would
 * otherwise hold (and wait for when it stops) until the server answers.
 */

const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')] };

it("a view's call whose request went away is cancelled, and its server is told", async () => {
  const world = await startChatWorld({ servers: { shop: SHOP } });
  world.provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's1', name: 'mcp_shop_show_shop', arguments: { item: 'apples' } }] }, { kind: 'reply', text: 'Here is the shop.' });
  const turn = world.host.chat.send({ agentId: 'helper', text: 'open the shop' });
  await turn.done;
  const server = await startHeadlessServer({ host: world.host, port: 0, rendererDir: tempDir('chatos-view-call-renderer-'), version: 'x' });
  try {
    // The view's long poll, as its frame sends it through the page: it answers only when cancelled.
    const request = http.request({ host: '127.0.0.1', port: server.port, path: '/api', method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' } });
    const closed = new Promise<string>((resolve) => {
      request.on('response', () => resolve('answered'));
      request.on('error', (error) => resolve(error.message));
    });
    request.end(JSON.stringify({ method: 'mcpApps.callTool', params: { agentId: 'helper', conversationId: turn.conversationId, serverId: 'chatos::shop', tool: 'watch_orders', args: {} } }));
    const log = internalsOf(world.host).mcp.runtime.connections.logOf('chatos::shop');
    const said = (text: string) => log.entries().some((entry) => entry.text.includes(text));
    await waitUntil(() => said('watch_orders waiting'), 'the call to reach the server', 20_000);
    expect(said('watch_orders cancelled')).toBe(false);

    // The tab goes away: its connection closes before the answer.
    request.destroy();
    expect(await closed).not.toBe('answered');
    await waitUntil(() => said('watch_orders cancelled'), 'the server to be told of the cancellation', 20_000);
    await waitUntil(() => world.host.audit.query({ tool: 'mcp_shop_watch_orders' }).length > 0, 'the call to be audited', 20_000);
    expect(world.host.audit.query({ tool: 'mcp_shop_watch_orders' })).toMatchObject([{ outcome: 'cancelled' }]);
  } finally {
    await server.close();
  }
});
