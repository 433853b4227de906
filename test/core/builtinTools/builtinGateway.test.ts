import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { startTestHost, textOf } from '../../helpers/gatewayHost.js';

/** mcp.yaml with the built-in tools switched as given (docs/using/mcp-servers.md#built-in-tools). */
function writeBuiltins(home: string, builtins: Record<string, unknown>): void {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ version: 1, servers: {}, builtins }, null, 2)}\n`);
}

const hostEntry = (mcpServerIds: string[]) => ({ ...HOST_UI_APP, mcp: true, mcpServerIds });
const ALL_ON = { time: { enabled: true }, calculator: { enabled: true }, fetch: { enabled: true } };

describe('the built-in tools behind the gateway', () => {
  it('registers nothing on a fresh home: every built-in tool is off', async () => {
    const { host } = await startTestHost();
    const ids = host.registry.listServers().map((s) => s.id);
    expect(ids).not.toContain('chatos::time');
    expect(ids).not.toContain('chatos::calculator');
    expect(ids).not.toContain('chatos::fetch');
  });

  it('serves each switched-on tool in process to a granted agent and refuses an agent without it, with no uvx, npx or node on PATH', async () => {
    const { host } = await startTestHost(({ home }) => writeBuiltins(home, ALL_ON), { env: { ...process.env, PATH: '' } });
    expect(host.registry.getServer('chatos::time')).toMatchObject({ providerAppId: 'chatos', url: 'inproc://time', source: { kind: 'builtin' }, description: expect.stringContaining('time zones') });
    const granted = host.agents.create({ id: 'helper', name: 'Helper', uiApps: [hostEntry(['chatos::time', 'chatos::calculator', 'chatos::fetch'])] });
    const resolved = host.agents.resolve(granted);
    expect(resolved.problems).toEqual([]);
    const caller = resolved.callerFor('main', 'conv-builtin');
    const offered = (await host.tools.list(caller)).tools;
    expect(offered.map((t) => `${t.name} ${t.permission}`).sort()).toEqual([
      'mcp_calculator_calculate read',
      'mcp_fetch_fetch read',
      'mcp_time_convert_time read',
      'mcp_time_get_current_time read',
      'mcp_time_list_time_zones read',
    ]);

    const sum = await host.tools.call(caller, 'mcp_calculator_calculate', { expression: '0.1 + 0.2' });
    expect(textOf(sum.result)).toBe('0.3');
    const now = await host.tools.call(caller, 'mcp_time_get_current_time', { timezone: 'UTC' });
    expect(JSON.parse(textOf(now.result))).toMatchObject({ timezone: 'UTC', utcOffset: '+00:00' });
    expect(host.audit.query({ agentId: 'helper' }).map((e) => `${e.tool} ${e.outcome}`)).toEqual(expect.arrayContaining(['mcp_calculator_calculate ok', 'mcp_time_get_current_time ok']));

    const other = host.agents.create({ id: 'other', name: 'Other', uiApps: [hostEntry([])] });
    const otherCaller = host.agents.resolve(other).callerFor('main', 'conv-other');
    expect((await host.tools.list(otherCaller)).tools.map((t) => t.name)).not.toContain('mcp_calculator_calculate');
    await expect(host.tools.call(otherCaller, 'mcp_calculator_calculate', { expression: '1 + 1' })).rejects.toMatchObject({ code: 'NOT_GRANTED' });
  });

  it('is switched through host.mcp.builtins: on registers it, off removes it, the file keeps its comments, and a name your server has is refused', async () => {
    const { host, home } = await startTestHost(({ home }) => {
      const file = path.join(home, 'chatos', 'mcp.yaml');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '# my servers, by hand\nversion: 1\nservers:\n  time:  # the old uvx template\n    command: uvx\n    args: [mcp-server-time]\n');
    });
    expect(host.mcp.builtins.list().map((b) => `${b.name} ${b.enabled}`)).toEqual(['time false', 'fetch false', 'calculator false']);

    const on = await host.mcp.builtins.set('calculator', { enabled: true });
    expect(on).toMatchObject({ name: 'calculator', enabled: true, serverId: 'chatos::calculator', tools: ['calculate'] });
    expect(host.registry.getServer('chatos::calculator')).toMatchObject({ source: { kind: 'builtin' } });
    const text = fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8');
    expect(text).toContain('# my servers, by hand');
    expect(text).toContain('# the old uvx template');

    await expect(host.mcp.builtins.set('time', { enabled: true })).rejects.toMatchObject({ code: 'MCP_BUILTIN_NAME_TAKEN' });
    await expect(host.mcp.builtins.set('weather', { enabled: true })).rejects.toMatchObject({ code: 'MCP_BUILTIN_UNKNOWN' });
    await expect(host.mcp.builtins.set('calculator', { allowPrivateAddresses: true })).rejects.toMatchObject({ code: 'MCP_SERVER_INVALID' });

    // fetch's private-address choice is part of its definition: changing it gives the runtime a new one.
    await host.mcp.builtins.set('fetch', { enabled: true });
    const before = host.mcp.definition('chatos::fetch')!;
    expect(before.transport).toEqual({ kind: 'in-process', server: 'fetch', options: { allowPrivateAddresses: false } });
    expect((await host.mcp.builtins.set('fetch', { allowPrivateAddresses: true })).allowPrivateAddresses).toBe(true);
    expect(host.mcp.definition('chatos::fetch')!.transport).toEqual({ kind: 'in-process', server: 'fetch', options: { allowPrivateAddresses: true } });

    await host.mcp.builtins.set('calculator', { enabled: false });
    expect(host.registry.getServer('chatos::calculator')).toBeUndefined();
    expect(host.mcp.definition('chatos::calculator')).toBeUndefined();
  });
});
