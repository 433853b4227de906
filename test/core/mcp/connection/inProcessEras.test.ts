import { Client as ModernClient, type CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinToolFactories } from '../../../../src/core/builtinTools/builtinToolServers.js';
import { serveInProcess } from '../../../../src/core/mcp/connection/inProcessServe.js';
import { systemScheduler } from '../../../../src/core/ports.js';
import { createSettingsServer } from '../../../../src/core/settingsServer/settingsServer.js';
import { startTestHost } from '../../../helpers/gatewayHost.js';
import { connectSettings, hostSettingsContext } from '../../settingsServer/settingsHarness.js';

/**
 * ChatOS's in-process servers speak both protocol eras (docs/rules/mcp-yaml.md#protocol-eras): the settings
 * server and the built-in tools, served as the host serves them (inProcessServe.ts), answer the SDK's
 * 2026-07-28 client statelessly: `server/discover` instead of `initialize`, the protocol version, client
 * capabilities and client info in every request's `_meta`, the server's own info in every result's.
 */

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

const clients: ModernClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A 2026-07-28 client (pinned: it never falls back to initialize) on a fresh connection to what `factory` makes. */
async function modernClient(factory: Parameters<typeof serveInProcess>[0]): Promise<ModernClient> {
  const client = new ModernClient({ name: 'era-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(serveInProcess(factory));
  clients.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

const textOf = (result: CallToolResult) => result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
const builtins = builtinToolFactories({ now: () => Date.parse('2026-07-28T12:00:00Z'), scheduler: systemScheduler });
const builtin = (name: string) => () => builtins.get(name)!({});

describe("ChatOS's in-process servers, from a 2026-07-28 client", { timeout: 60_000 }, () => {
  it('the settings server lists and runs its tools over a real host, statelessly', async () => {
    const { host } = await startTestHost();
    const ctx = hostSettingsContext(host);
    const client = await modernClient(() => createSettingsServer(ctx));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('list_agents');
    const listed = await client.callTool({ name: 'list_agents', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(listed._meta?.[SERVER_INFO]).toMatchObject({ name: 'chatos-settings' });
    const agents = (listed.structuredContent as { agents: { id: string }[] }).agents.map((agent) => agent.id);
    // The same answer a 2025 client gets over initialize from the same factory.
    const legacy = await connectSettings(ctx);
    expect(((await legacy.call('list_agents')).structuredContent as { agents: { id: string }[] }).agents.map((agent) => agent.id)).toEqual(agents);
  });

  it('time answers in the zone asked, on the host clock', async () => {
    const client = await modernClient(builtin('time'));
    const result = await client.callTool({ name: 'get_current_time', arguments: { timezone: 'Asia/Shanghai' } });
    expect(result._meta?.[SERVER_INFO]).toMatchObject({ name: 'chatos-time' });
    expect(result.structuredContent).toMatchObject({ timezone: 'Asia/Shanghai', datetime: expect.stringMatching(/^2026-07-28T20:00:00/) });
  });

  it('the calculator calculates exactly, on its own thread', async () => {
    const client = await modernClient(builtin('calculator'));
    expect(textOf(await client.callTool({ name: 'calculate', arguments: { expression: '0.1 + 0.2' } }))).toBe('0.3');
  });

  it('fetch refuses a loopback address, as over initialize', async () => {
    const client = await modernClient(builtin('fetch'));
    const refused = await client.callTool({ name: 'fetch', arguments: { url: 'http://127.0.0.1:9/' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/private|loopback/i);
  });
});
