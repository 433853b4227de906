import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { caller, fixtureServer, isAlive, pidOf, startTestHost, waitUntil, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { TestScheduler } from '../../../helpers/testScheduler.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';

const ECHO = 'chatos::echo';
const PID = 'mcp_echo_pid';
const MINUTE = 60_000;

/** mcp.yaml with a `leases:` block (JSON is YAML). */
function writeLeases(home: string, leases: Record<string, unknown>): void {
  const file = writeMcpYaml(home, { echo: fixtureServer() });
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(file, JSON.stringify({ ...config, leases }));
}

const leasesOf = (host: Awaited<ReturnType<typeof startTestHost>>['host']) =>
  internalsOf(host)
    .mcp.runtime.connections.snapshot()
    .flatMap((s) => s.leases.map((l) => `${s.serverId} ${l.conversationId}`))
    .sort();

/**
 * Idle release on the host's schedule (docs/rules/mcp-yaml.md#leases: 10 minutes), with real server
 * processes and a scheduler the test moves: no real waiting for the idle
 * time, only for the processes to end.
 */
describe('idle instances are released on a schedule', () => {
  it('after 10 unused minutes by default: a use restarts the count, the process ends, and the release is audited', async () => {
    const scheduler = new TestScheduler();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }), { scheduler });
    const first = pidOf((await host.tools.call(caller('conv-a'), PID, {})).result);
    const other = pidOf((await host.tools.call(caller('conv-b'), PID, {})).result);

    scheduler.advance(6 * MINUTE);
    // conv-a is used again: its 10 minutes start over; conv-b's do not.
    expect(pidOf((await host.tools.call(caller('conv-a'), PID, {})).result)).toBe(first);
    scheduler.advance(5 * MINUTE);
    await waitUntil(() => !isAlive(other), 'the idle instance of conv-b to end');
    expect(leasesOf(host)).toEqual([`${ECHO} conv-a`]);
    expect(isAlive(first)).toBe(true);

    scheduler.advance(6 * MINUTE);
    await waitUntil(() => !isAlive(first), 'the idle instance of conv-a to end');
    expect(leasesOf(host)).toEqual([]);

    const released = host.audit.query({ outcome: 'released' });
    expect(released.map((r) => [r.conversationId, r.serverId, r.reason, r.appId, r.tool, r.decision])).toEqual([
      ['conv-a', ECHO, 'idle', 'chatos', null, 'auto'],
      ['conv-b', ECHO, 'idle', 'chatos', null, 'auto'],
    ]);
    // A later call starts a new instance.
    expect(pidOf((await host.tools.call(caller('conv-a'), PID, {})).result)).not.toBe(first);
  });

  it('the idle time is a host option, and mcp.yaml leases.idleMinutes (read again on reload) wins over it', async () => {
    const scheduler = new TestScheduler();
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }), { scheduler, leaseIdleMs: 5 * MINUTE });
    const pid = pidOf((await host.tools.call(caller('conv-a'), PID, {})).result);
    scheduler.advance(4 * MINUTE);
    expect(isAlive(pid)).toBe(true);
    scheduler.advance(2 * MINUTE);
    await waitUntil(() => !isAlive(pid), 'the instance idle past the host option to end');

    writeLeases(home, { idleMinutes: 60 });
    const report = await host.mcp.reload();
    expect(report.problems).toEqual([]);
    const kept = pidOf((await host.tools.call(caller('conv-b'), PID, {})).result);
    scheduler.advance(59 * MINUTE);
    expect(isAlive(kept)).toBe(true);
    scheduler.advance(2 * MINUTE);
    await waitUntil(() => !isAlive(kept), 'the instance idle past mcp.yaml idleMinutes to end');
  });

  it('a broken leases block is an error on its path; the servers load and the host option stays in effect', async () => {
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    writeLeases(home, { idleMinutes: -1, graceSeconds: 3 });
    const report = await host.mcp.reload();
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['MCP_LEASES_INVALID', 'leases.idleMinutes'],
      ['MCP_LEASES_INVALID', 'leases'],
    ]);
    expect(internalsOf(host).mcp.runtime.leaseSettings).toEqual({});
    expect(host.mcp.definition(ECHO)).toBeDefined();
  });
});
