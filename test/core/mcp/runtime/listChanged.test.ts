import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../../src/api/hostApiService.js';
import type { Host } from '../../../../src/core/host.js';
import type { HostEventMessage } from '../../../../src/shared/hostApi.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { until } from '../../../helpers/until.js';

/**
 * A running server's notifications/tools/list_changed reaches what is
 * offered without a reload (docs/rules/mcp-yaml.md#tool-list-changes): the
 * catalog the model gets, the Servers page's event, and a flood of changes
 * is coalesced into a few re-lists whose last list is the one kept.
 */

const SERVER = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers', 'changingToolsServer.mjs');
const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => file };

async function startWithChangingServer() {
  const t = await startTestHost(({ home }) => writeMcpYaml(home, { chg: { transport: 'stdio', command: process.execPath, args: [SERVER] } }));
  const api = createHostApiService(t.host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
  const events: HostEventMessage[] = [];
  api.onEvent((event) => events.push(event));
  return { ...t, events };
}

/** Resolves once the offered tools of `who` include `name`, checked after each tools change the host announces (never on a clock). */
function offered(host: Host, name: string, who = caller('conv-lc')): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = async () => {
      try {
        if ((await host.tools.list(who)).tools.some((tool) => tool.name === name)) {
          stop();
          clearTimeout(giveUp);
          resolve();
        }
      } catch (error) {
        reject(error as Error);
      }
    };
    const stop = host.events.on((event) => void (event.kind === 'mcp-tools-changed' && check()));
    // Only so a broken build fails with a message instead of hanging the run.
    const giveUp = setTimeout(() => {
      stop();
      reject(new Error(`tool ${name} was never offered`));
    }, 30_000);
    void check();
  });
}

describe('tool list changes (real stdio server)', () => {
  it('a tool the server adds is offered to the model and announced to the Servers page, with no reload', async () => {
    const { host, events } = await startWithChangingServer();
    const who = caller('conv-lc');
    const before = (await host.tools.list(who)).tools.map((tool) => tool.name);
    expect(before).toContain('mcp_chg_add_tool');
    expect(before).not.toContain('mcp_chg_fresh');
    const version = host.mcp.version;

    const seen = offered(host, 'mcp_chg_fresh');
    await host.tools.call(who, 'mcp_chg_add_tool', { name: 'fresh' });
    await seen;
    expect(textOf((await host.tools.call(who, 'mcp_chg_fresh', {})).result)).toBe('I am fresh');
    expect(events).toContainEqual({ type: 'server.tools', serverId: 'chatos::chg' });
    // No reload made it so.
    expect(host.mcp.version).toBe(version);
    expect(events.some((event) => event.type === 'mcp.reloaded')).toBe(false);
  });

  it('a list that changes 100 times a second is re-listed a few times, one at a time, and the last list is the one offered', async () => {
    const { host } = await startWithChangingServer();
    const who = caller('conv-lc');
    await host.tools.list(who);
    const seen = offered(host, 'mcp_chg_flood_100');
    expect(textOf((await host.tools.call(who, 'mcp_chg_flood', { count: 100, everyMs: 10 })).result)).toBe('changed 100 times');
    await seen;
    const names = (await host.tools.list(who)).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('mcp_chg_flood_'))).toEqual(['mcp_chg_flood_100']);
    // 100 notifications: at most one re-list in flight and a pause between them, so far fewer lists than changes (1 is the start's).
    const lists = Number(textOf((await host.tools.call(who, 'mcp_chg_lists', {})).result));
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThan(30);
  });

  it("a change announced before a call does not hold the call's result back until its re-list ends", async () => {
    // The server never answers the re-list its change asks for: that re-list is under way for as long as the test runs.
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { chg: { transport: 'stdio', command: process.execPath, args: [SERVER], env: { CHANGING_TOOLS_HOLD_RELISTS: '1' } } }));
    const who = caller('conv-early');
    expect(textOf((await host.tools.call(who, 'mcp_chg_lists', {})).result)).toBe('1');
    const pid = host.mcp.servers.snapshots().find((server) => server.serverId === 'chatos::chg')?.leases[0]?.pid;
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGUSR2');
    await until('the re-list the change asked for to be under way', () => host.mcp.servers.log('chatos::chg').some((line) => line.includes('holding a re-list')) || undefined);
    // Not this call's change (a server announcing its tools as it starts is the common case): its result does not wait
    // for that re-list, which the server holds past this deadline (the SDK gives up on it after 60 s).
    let answer: string | undefined;
    void host.tools.call(who, 'mcp_chg_lists', {}).then(({ result }) => (answer = textOf(result)));
    expect(await until('the call answered while the re-list is under way', () => answer, 30_000)).toBe('1');
  });
});
