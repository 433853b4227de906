import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolSource } from '../../../../src/core/tools/mcpToolSource.js';
import { ToolGateway } from '../../../../src/core/tools/toolGateway.js';
import { McpRuntime } from '../../../../src/core/mcp/mcpRuntime.js';
import { GATEWAY_SERVER, caller, fixtureServer, isAlive, pidOf, pidsOf, startTestHost, textOf, waitUntil, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';

const STATEFUL = 'chatos::echo';
const PID = 'mcp_echo_pid';

/** This test process's children running the fixture server (servers are spawned directly, never through a shell). */
const fixtureChildren = () =>
  execFileSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(GATEWAY_SERVER) && !/^\s*\d+\s+Z/.test(line));

const pidOfLine = (line: string) => line.trim().split(/\s+/)[0];

const runtimes: McpRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.dispose();
});

describe('per-conversation leases (docs/rules/mcp-yaml.md#leases), real stdio servers', () => {
  it('one conversation keeps one server process; two conversations get two', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const a1 = pidOf((await host.tools.call(caller('conv-a'), PID, {})).result);
    const a2 = pidOf((await host.tools.call(caller('conv-a'), PID, {})).result);
    const b1 = pidOf((await host.tools.call(caller('conv-b'), PID, {})).result);
    expect(a2).toBe(a1);
    expect(b1).not.toBe(a1);
    expect(pidsOf(host, STATEFUL).sort()).toEqual([a1, b1].sort());
    const leases = host.mcp.servers.snapshots().find((s) => s.serverId === STATEFUL)!.leases;
    expect(leases.map((l) => l.conversationId).sort()).toEqual(['conv-a', 'conv-b']);
  });

  it('a truely-stateless server shares one process between conversations, and asks for no release', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { shared: fixtureServer({ 'truely-stateless': true }) }));
    const first = await host.tools.call(caller('conv-a'), 'mcp_shared_pid', {});
    const second = await host.tools.call(caller('conv-b'), 'mcp_shared_pid', {});
    expect(pidOf(second.result)).toBe(pidOf(first.result));
    expect(first.reminders).toEqual([]);
    expect(second.reminders).toEqual([]);
    expect(pidsOf(host, 'chatos::shared')).toEqual([pidOf(first.result)]);
  });

  it('the first lease of a stateful server reminds the agent of mcp_release; mcp_release ends it and the next call gets a new process', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const who = caller('conv-r');
    const first = await host.tools.call(who, PID, {});
    expect(first.reminders).toHaveLength(1);
    expect(first.reminders[0]).toContain(`mcp_release({"serverId":"${STATEFUL}"})`);
    const again = await host.tools.call(who, PID, {});
    expect(again.reminders).toEqual([]);
    // Another conversation's first lease is its own first lease.
    expect((await host.tools.call(caller('conv-other'), PID, {})).reminders).toHaveLength(1);

    const oldPid = pidOf(first.result);
    const released = await host.tools.call(who, 'mcp_release', { serverId: STATEFUL });
    expect(textOf(released.result)).toContain('Released');
    expect(isAlive(oldPid)).toBe(false); // release waits for the process tree to end
    expect(
      host.mcp.servers
        .snapshots()
        .find((s) => s.serverId === STATEFUL)!
        .leases.map((l) => l.conversationId),
    ).toEqual(['conv-other']);

    const after = await host.tools.call(who, PID, {});
    expect(pidOf(after.result)).not.toBe(oldPid);
    expect(after.reminders).toHaveLength(1);

    const none = await host.tools.call(caller('conv-never'), 'mcp_release', { serverId: STATEFUL });
    expect(textOf(none.result)).toContain('held no instance');
  });

  it('20 calls in flight at once on one client all complete with their own results', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const who = caller('conv-par');
    // Each barrier call returns only when all twenty are inside the server at once.
    const held = Array.from({ length: 20 }, () => host.tools.call(who, 'mcp_echo_barrier', { parties: 20 }));
    const echoes = Array.from({ length: 20 }, (_, i) => host.tools.call(who, 'mcp_echo_echo', { text: `message ${i}` }));
    const [heldResults, echoResults] = await Promise.all([Promise.all(held), Promise.all(echoes)]);
    expect(heldResults.map((r) => textOf(r.result))).toEqual(Array.from({ length: 20 }, () => 'met 20'));
    expect(echoResults.map((r) => textOf(r.result))).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i}`));
    // One lease, one process, one reminder among all forty first calls.
    expect(pidsOf(host, STATEFUL)).toHaveLength(1);
    expect([...heldResults, ...echoResults].flatMap((r) => r.reminders)).toHaveLength(1);
    expect(textOf((await host.tools.call(who, 'mcp_echo_count', {})).result)).toBe('40');
    expect(host.mcp.servers.snapshots()[0]!.leases[0]!.inFlight).toBe(0);
  });

  it('endConversation releases every lease the conversation held, ending their processes', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer(), other: fixtureServer() }));
    const who = caller('conv-end');
    const echoPid = pidOf((await host.tools.call(who, PID, {})).result);
    const otherPid = pidOf((await host.tools.call(who, 'mcp_other_pid', {})).result);
    const keptPid = pidOf((await host.tools.call(caller('conv-keep'), PID, {})).result);

    expect(await internalsOf(host).mcp.runtime.connections.endConversation('conv-end')).toBe(2);
    expect(isAlive(echoPid)).toBe(false);
    expect(isAlive(otherPid)).toBe(false);
    expect(isAlive(keptPid)).toBe(true);
    expect(pidsOf(host, STATEFUL)).toEqual([keptPid]);

    const next = pidOf((await host.tools.call(who, PID, {})).result);
    expect([echoPid, keptPid]).not.toContain(next);
  });

  it('sweepIdle releases leases unused for idleMs, but not one with a call in flight', async () => {
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    let now = 1_000_000;
    // A runtime of our own, with a short idle time and a clock the test moves.
    const configFile = path.join(home, 'chatos', 'mcp.yaml');
    const runtime = new McpRuntime({
      configFile,
      runDir: path.join(home, 'chatos', 'run-sweep'),
      hostEnv: process.env,
      registry: internalsOf(host).registry.center,
      now: () => now,
      runGate: host.plugins.runGate,
      idleMs: 1_000,
    });
    runtimes.push(runtime);
    await runtime.start();
    const servers = new McpToolSource({
      runtime,
      runGate: host.plugins.runGate,
      registry: internalsOf(host).registry.center,
      artifactsDir: path.join(home, 'chatos', 'artifacts'),
      mcpConfigFile: configFile,
      defaultWorkdir: home,
      now: () => now,
    });
    const gateway = new ToolGateway({ now: () => now, sources: [servers] });

    const idlePid = pidOf((await gateway.callTool(caller('conv-idle'), PID, {})).result);
    const busyPid = pidOf((await gateway.callTool(caller('conv-busy'), PID, {})).result);
    now += 500;
    expect(await runtime.connections.sweepIdle()).toBe(0);

    // conv-busy starts a long call that is in flight when its lease passes idleMs.
    const busyCall = gateway.callTool(caller('conv-busy'), 'mcp_echo_slow', { ms: 1_500 });
    await waitUntil(() => runtime.connections.snapshot()[0]?.leases.some((l) => l.conversationId === 'conv-busy' && l.inFlight > 0) ?? false, 'the slow call to be in flight');
    now += 5_000;
    expect(await runtime.connections.sweepIdle()).toBe(1);
    expect(isAlive(idlePid)).toBe(false);
    expect(isAlive(busyPid)).toBe(true);
    expect(textOf((await busyCall).result)).toBe('waited 1500');
    expect(runtime.connections.snapshot()[0]!.leases.map((l) => l.conversationId)).toEqual(['conv-busy']);

    // The swept conversation simply gets a new process on its next call.
    const fresh = pidOf((await gateway.callTool(caller('conv-idle'), PID, {})).result);
    expect(fresh).not.toBe(idlePid);
  });

  it('once the host closed its connections, no call starts a server: one arriving then, or one starting then, leaves no process', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    const { connections } = internalsOf(host).mcp.runtime;
    const def = host.mcp.definition(STATEFUL)!;
    const earlier = new Set(fixtureChildren().map(pidOfLine));
    const ours = () => fixtureChildren().filter((line) => !earlier.has(pidOfLine(line)));
    const before = pidOf((await host.tools.call(caller('conv-c'), PID, {})).result);
    const starting = connections.acquire(def, 'conv-d'); // a new process is spawning while the host closes
    const startingOutcome = starting.then(
      () => 'started',
      (error: Error) => error.message,
    );
    // This host's two (a file's earlier hosts may still be stopping theirs).
    await waitUntil(() => ours().length === 2, 'the second server process to spawn');
    await connections.closeAll();
    // closeAll waited for the one that was starting: neither it nor the running server is left.
    expect(ours()).toEqual([]);
    expect(isAlive(before)).toBe(false);
    expect(await startingOutcome).toMatch(/shutting down/);
    await expect(connections.acquire(def, 'conv-c')).rejects.toThrow(/shutting down/);
    expect(connections.snapshot()).toEqual([]);
  });
});
