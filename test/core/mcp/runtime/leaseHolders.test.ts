import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../../src/api/hostApiService.js';
import { caller, fixtureServer, isAlive, pidOf, startTestHost, waitUntil, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { TestScheduler } from '../../../helpers/testScheduler.js';

const PID = 'mcp_echo_pid';
const TAB = 'tab-aaaaaaaa';
const OTHER_TAB = 'tab-bbbbbbbb';

/**
 * Holders (a browser tab) keep the instances of the conversations they use;
 * the grace time runs on the host's scheduler, which the test moves, and the
 * instances are real server processes.
 */
async function setup() {
  const scheduler = new TestScheduler();
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }), { scheduler, leaseGraceMs: 30_000 });
  const api = createHostApiService(host, { face: 'serve', urls: { uiAppUrl: () => '', artifactUrl: () => '' }, version: 'test' });
  const start = async (conversationId: string) => pidOf((await host.tools.call(caller(conversationId), PID, {})).result);
  return { scheduler, host, api, start };
}

describe('lease holders: a tab and its conversations', () => {
  it('a socket back within the grace time keeps the instances; gone for the grace time, they end', async () => {
    const { scheduler, host, api, start } = await setup();
    const pid = await start('page-1');
    host.tools.leases.hold(TAB, 'page-1');
    api.clientConnected(TAB);

    api.clientDisconnected(TAB);
    scheduler.advance(29_000);
    api.clientConnected(TAB); // the tab's socket came back (a dropped connection, a host restart of the network)
    scheduler.advance(60_000);
    expect(isAlive(pid)).toBe(true);

    api.clientDisconnected(TAB);
    scheduler.advance(29_999);
    expect(isAlive(pid)).toBe(true);
    scheduler.advance(1);
    await waitUntil(() => !isAlive(pid), 'the gone tab’s instance to end');
    expect(host.audit.query({ outcome: 'released' }).map((r) => [r.conversationId, r.reason])).toEqual([['page-1', 'holder-gone']]);
  });

  it('a conversation another present tab also uses is kept; two sockets of one tab count as one tab until both are gone', async () => {
    const { scheduler, host, api, start } = await setup();
    const shared = await start('shared');
    const own = await start('own');
    host.tools.leases.hold(TAB, 'shared');
    host.tools.leases.hold(TAB, 'own');
    host.tools.leases.hold(OTHER_TAB, 'shared');
    api.clientConnected(TAB);
    api.clientConnected(TAB);
    api.clientConnected(OTHER_TAB);

    api.clientDisconnected(TAB);
    scheduler.advance(60_000);
    expect(isAlive(own)).toBe(true);
    api.clientDisconnected(TAB);
    scheduler.advance(30_000);
    await waitUntil(() => !isAlive(own), 'the tab’s own conversation to end');
    expect(isAlive(shared)).toBe(true);
  });

  it('an id that is not a plain token is ignored, and a conversation ended by its page is no longer the tab’s', async () => {
    const { scheduler, host, api, start } = await setup();
    await start('page-2');
    const reply = await api.handle({ method: 'conversations.end', params: { conversationId: 'page-2' } }, { client: TAB });
    expect(reply).toEqual({ ok: true, result: { released: 1 } });
    host.tools.leases.hold(TAB, 'page-3');
    await host.tools.leases.end('page-3');
    expect(host.tools.leases.conversationsOf(TAB)).toEqual([]);
    api.clientConnected('../not a token');
    api.clientDisconnected('../not a token');
    scheduler.advance(60_000);
    expect(host.tools.leases.conversationsOf('../not a token')).toEqual([]);
  });
});

describe('mcp_release with bad arguments', () => {
  it('is refused as BAD_ARGUMENTS with the fix, audited as refused, and releases nothing', async () => {
    const { host, start } = await setup();
    const pid = await start('c-bad');
    for (const args of [{}, { serverId: 5 }, { server: 'chatos::echo' }]) {
      await expect(host.tools.call(caller('c-bad'), 'mcp_release', args), JSON.stringify(args)).rejects.toMatchObject({ code: 'BAD_ARGUMENTS', fix: expect.stringContaining('"serverId"') });
    }
    expect(isAlive(pid)).toBe(true);
    expect(host.audit.query({ tool: 'mcp_release' }).map((r) => [r.conversationId, r.decision, r.reason])).toEqual([
      ['c-bad', 'refused', 'BAD_ARGUMENTS'],
      ['c-bad', 'refused', 'BAD_ARGUMENTS'],
      ['c-bad', 'refused', 'BAD_ARGUMENTS'],
    ]);
    expect(host.audit.query({ outcome: 'released' })).toEqual([]);
  });
});
