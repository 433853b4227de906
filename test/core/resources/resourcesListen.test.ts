import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host.js';
import type { HostEvent } from '../../../src/core/hostEvents.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/**
 * A resource subscription on a 2026-07-28 server (docs/using/resources.md#subscriptions): that era has no
 * `resources/subscribe`, so the host opens one `subscriptions/listen` stream naming what it subscribed to, and the
 * updates the server sends on it reach the faces as the same `mcp-resource-changed` events a 2025 server's do.
 * The server is a real one built with the v2 server package (listenServer.mjs), over real stdio.
 */

const LISTEN_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'listenServer.mjs');
const SERVER = 'chatos::listen';
const URI = 'listen://counter';

type ResourceChanged = Extract<HostEvent, { kind: 'mcp-resource-changed' }>;

/** Every resource event of the host, in order, from now on. */
function resourceEvents(host: Host): ResourceChanged[] {
  const seen: ResourceChanged[] = [];
  host.events.on((event) => {
    if (event.kind === 'mcp-resource-changed') seen.push(event);
  });
  return seen;
}

describe('resource subscriptions on a 2026-07-28 server (subscriptions/listen)', { timeout: 60_000 }, () => {
  it("brings the server's updates of a subscribed resource to the faces; unsubscribing is accepted", async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { listen: { transport: 'stdio', command: process.execPath, args: [LISTEN_SERVER] } }));
    const own = caller('conv-listen');
    const listing = await host.tools.resources.list(own, SERVER);
    expect(host.mcp.servers.list().find((server) => server.id === SERVER)?.protocol).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(listing.subscribe).toBe(true);
    expect(listing.resources.map((resource) => resource.uri)).toEqual([URI]);

    const events = resourceEvents(host);
    await host.tools.resources.subscribe(own, SERVER, URI, true);
    expect(textOf((await host.tools.call(own, 'mcp_listen_bump', {})).result)).toBe('counter 1');
    await expect.poll(() => events).toEqual([{ kind: 'mcp-resource-changed', change: 'updated', serverId: SERVER, conversationId: 'conv-listen', uri: URI }]);

    // Unsubscribing closes the stream (the SDK sends its cancel); the server goes on answering calls.
    await host.tools.resources.subscribe(own, SERVER, URI, false);
    expect(textOf((await host.tools.call(own, 'mcp_listen_bump', {})).result)).toBe('counter 2');
  });
});
