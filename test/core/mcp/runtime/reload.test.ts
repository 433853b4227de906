import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host } from '../../../../src/core/host.js';
import { caller, fixtureServer, isAlive, pidOf, pidsOf, startTestHost, textOf, waitUntil, writeMcpYaml } from '../../../helpers/gatewayHost.js';

const A = 'chatos::a';
const B = 'chatos::b';
const ALL_TOOLS = ['barrier', 'count', 'crash', 'crash_once_idempotent', 'crash_once_read', 'crash_once_write', 'dangerous', 'echo', 'echo_meta', 'images', 'odd_images', 'pid', 'slow', 'until_file'];

async function toolsBy(host: Host, prefix: string): Promise<string[]> {
  const { tools } = await host.tools.list(caller('conv-list'));
  return tools
    .map((t) => t.name)
    .filter((n) => n.startsWith(prefix))
    .map((n) => n.slice(prefix.length))
    .sort();
}

/** Two mcp.yaml servers, both started by a call in conv-1; returns their pids. */
async function twoServersInUse() {
  const setup = await startTestHost(({ home }) => writeMcpYaml(home, { a: fixtureServer(), b: fixtureServer() }));
  const { host } = setup;
  const aPid = pidOf((await host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).result);
  const bPid = pidOf((await host.tools.call(caller('conv-1'), 'mcp_b_pid', {})).result);
  expect(await toolsBy(host, 'mcp_a_')).toEqual(ALL_TOOLS);
  return { ...setup, aPid, bPid };
}

describe('mcp.yaml hot reload (docs/rules/mcp-yaml.md#hot-reload: compute, then swap per server)', () => {
  it('a changed server offers its new tools; an unchanged one keeps its process; the version goes up', async () => {
    const { host, home, aPid, bPid } = await twoServersInUse();
    const before = host.mcp.version;

    writeMcpYaml(home, { a: fixtureServer({ tools: { whitelist: ['echo*'] } }), b: fixtureServer() });
    const report = await host.mcp.reload();
    expect(report.changed).toEqual([A]);
    expect(report.added).toEqual([]);
    expect(report.removed).toEqual([]);
    expect(report.version).toBe(before + 1);
    expect(host.mcp.version).toBe(before + 1);

    expect(await toolsBy(host, 'mcp_a_')).toEqual(['echo', 'echo_meta']);
    expect(await toolsBy(host, 'mcp_b_')).toEqual(ALL_TOOLS);
    expect(pidOf((await host.tools.call(caller('conv-1'), 'mcp_b_pid', {})).result)).toBe(bPid);
    // The old process of a is let go; its next call runs on a new one with the new definition.
    await waitUntil(() => !isAlive(aPid), `old pid ${aPid} of a to end`);
    expect(textOf((await host.tools.call(caller('conv-1'), 'mcp_a_echo', { text: 'new a' })).result)).toBe('new a');
    expect(pidsOf(host, A)).not.toContain(aPid);
    await expect(host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });

    // Reloading an unchanged file changes nothing.
    const again = await host.mcp.reload();
    expect(again).toMatchObject({ added: [], changed: [], removed: [], version: before + 1 });
  });

  it('a server added to the file is offered after reload', async () => {
    const { host, home } = await twoServersInUse();
    const before = host.mcp.version;
    writeMcpYaml(home, { a: fixtureServer(), b: fixtureServer(), c: fixtureServer({ env: { GATEWAY_TOOLS: 'echo' } }) });
    const report = await host.mcp.reload();
    expect(report.added).toEqual(['chatos::c']);
    expect(report.version).toBe(before + 1);
    expect(await toolsBy(host, 'mcp_c_')).toEqual(['echo']);
  });

  it('a per-server error keeps that server at its last good definition and tools, with a problem; the others still update', async () => {
    const { host, home, aPid, bPid } = await twoServersInUse();
    const goodA = host.mcp.definition(A);
    const before = host.mcp.version;

    writeMcpYaml(home, { a: fixtureServer({ transport: 'sse' }), b: fixtureServer({ tools: { blacklist: ['crash'] } }) });
    const report = await host.mcp.reload();
    expect(report.changed).toEqual([B]);
    expect(host.mcp.definition(A)).toBe(goodA);
    const problem = host.mcp.problems.find((p) => p.code === 'MCP_TRANSPORT_UNSUPPORTED');
    expect(problem).toMatchObject({ severity: 'error', path: 'servers.a.transport' });
    expect(report.keptLastGood).toEqual([A]);
    expect(report.problems.map((p) => p.code)).toContain('MCP_TRANSPORT_UNSUPPORTED');
    expect(report.version).toBe(before + 1);

    expect(await toolsBy(host, 'mcp_a_')).toEqual(ALL_TOOLS);
    expect(await toolsBy(host, 'mcp_b_')).toEqual(ALL_TOOLS.filter((t) => t !== 'crash'));
    expect(pidOf((await host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).result)).toBe(aPid);
    await waitUntil(() => !isAlive(bPid), `old pid ${bPid} of b to end`);

    // Fixing the file clears the problem.
    writeMcpYaml(home, { a: fixtureServer(), b: fixtureServer({ tools: { blacklist: ['crash'] } }) });
    const fixed = await host.mcp.reload();
    expect(fixed.changed).toEqual([]);
    expect(host.mcp.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('a changed server in use whose new definition fails to start keeps running its last good one', async () => {
    const { host, home, aPid } = await twoServersInUse();
    const before = host.mcp.version;
    writeMcpYaml(home, { a: fixtureServer({ args: [`${home}/no-such-server.mjs`] }), b: fixtureServer() });
    const report = await host.mcp.reload();
    expect(report.changed).toEqual([]);
    expect(report.keptLastGood).toEqual([A]);
    const problem = report.problems.find((p) => p.code === 'SERVER_RELOAD_FAILED');
    expect(problem?.file).toBe(A);
    expect(problem?.message).toContain('the previous configuration keeps running');
    expect(report.version).toBe(before);
    expect(host.mcp.problems.map((p) => p.code)).toContain('SERVER_RELOAD_FAILED');
    expect(await toolsBy(host, 'mcp_a_')).toEqual(ALL_TOOLS);
    expect(pidOf((await host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).result)).toBe(aPid);
  });

  it('a workspace error (bad YAML) keeps every server as it was', async () => {
    const { host, home, aPid, bPid } = await twoServersInUse();
    const before = host.mcp.version;
    const file = writeMcpYaml(home, { a: fixtureServer(), b: fixtureServer() });
    fs.writeFileSync(file, 'version: 1\nservers:\n  a: [unclosed\n');

    const report = await host.mcp.reload();
    expect(report).toMatchObject({ added: [], changed: [], removed: [], version: before });
    expect(host.mcp.problems.some((p) => p.severity === 'error' && p.file === file)).toBe(true);
    expect(report.problems.some((p) => p.severity === 'error' && p.file === file)).toBe(true);
    expect(host.mcp.definition(A)).toBeDefined();
    expect(host.mcp.definition(B)).toBeDefined();
    expect(await toolsBy(host, 'mcp_a_')).toEqual(ALL_TOOLS);
    expect(pidOf((await host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).result)).toBe(aPid);
    expect(pidOf((await host.tools.call(caller('conv-1'), 'mcp_b_pid', {})).result)).toBe(bPid);

    fs.writeFileSync(file, 'version: 2\nservers: {}\n');
    expect(await host.mcp.reload()).toMatchObject({ removed: [], version: before });
    expect(host.mcp.problems.map((p) => p.code)).toContain('MCP_VERSION_UNSUPPORTED');
    expect(host.mcp.definition(A)).toBeDefined();
  });

  it('deleting mcp.yaml removes its servers: not offered, registrations marked missing, processes ended', async () => {
    const { host, home, aPid, bPid } = await twoServersInUse();
    const before = host.mcp.version;
    fs.rmSync(writeMcpYaml(home, {}));

    const report = await host.mcp.reload();
    expect(report.removed.sort()).toEqual([A, B]);
    expect(report.version).toBe(before + 1);
    expect(host.mcp.definition(A)).toBeUndefined();
    // Only the built-in settings server (in-process) is left.
    expect((await host.tools.list(caller('conv-1'))).tools.filter((t) => t.serverId !== 'chatos::settings').map((t) => t.name)).toEqual([]);
    expect(host.registry.listServers().filter((s) => s.source.kind === 'mcp-yaml' && !s.missing)).toEqual([]);
    expect(host.registry.getMcpServersForApp('chatos').filter((s) => s.source.kind === 'mcp-yaml')).toEqual([]);
    await waitUntil(() => !isAlive(aPid) && !isAlive(bPid), 'both servers to end');
    expect(host.mcp.servers.snapshots().filter((s) => s.serverId !== 'chatos::settings')).toEqual([]);
    expect(host.mcp.problems).toEqual([]);
  });

  it('a call in flight on a server being replaced completes before the old process ends', async () => {
    const { host, home, aPid } = await twoServersInUse();
    // In flight until the test lets it go: the checks below run while it is, however slow the machine.
    const gate = path.join(home, 'release-the-call');
    const slow = host.tools.call(caller('conv-1'), 'mcp_a_until_file', { file: gate });
    await waitUntil(() => host.mcp.servers.snapshots().some((s) => s.serverId === A && s.leases.some((l) => l.inFlight > 0)), 'the slow call to be in flight');

    writeMcpYaml(home, { a: fixtureServer({ tools: { blacklist: ['crash'] } }), b: fixtureServer() });
    const report = await host.mcp.reload();
    expect(report.changed).toEqual([A]);
    // New calls already go to a new process...
    const newPid = pidOf((await host.tools.call(caller('conv-1'), 'mcp_a_pid', {})).result);
    expect(newPid).not.toBe(aPid);
    // ...while the old one still serves the call it had.
    expect(isAlive(aPid)).toBe(true);
    fs.writeFileSync(gate, '');
    expect(textOf((await slow).result)).toBe('released');
    await waitUntil(() => !isAlive(aPid), `old pid ${aPid} to end after its last call`);
    expect(isAlive(newPid)).toBe(true);
  });
});
