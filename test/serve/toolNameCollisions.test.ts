import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { GATEWAY_SERVER } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';

/**
 * The collision rule of docs/rules/mcp-yaml.md#tool-names-and-transforms, in a running `chatos serve` whose mcp.yaml is
 * edited while it runs: when a server's transformed tool names collide, that
 * server's update is rejected and its last known good tools stay, with a
 * problem naming both servers; a server that never listed its tools (new)
 * has its colliding tool dropped, and the server that had the name keeps it.
 */

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

interface Listed {
  tools: { name: string; serverId: string }[];
  problems: { code: string; severity: string; message: string; path: string }[];
}

async function api<T = any>(serve: ServeProcess, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(new URL('/api', serve.origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  const reply = (await res.json()) as { ok: boolean; result?: T; error?: { code: string; message: string } };
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.code} ${reply.error?.message}`);
  return reply.result as T;
}

const server = (tools: string, prefix: string) => ({ command: process.execPath, args: [GATEWAY_SERVER], env: { GATEWAY_TOOLS: tools }, 'truely-stateless': true, transform: [{ prefix }] });

function writeYaml(home: string, servers: Record<string, unknown>): void {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole under a new name and renamed over, as editors save: the watcher never sees half a file.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ version: 1, servers }, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

describe('tool name collisions on reload (docs/rules/mcp-yaml.md#tool-names-and-transforms)', () => {
  it('a colliding update is rejected and the server keeps its last good tools; a newcomer’s colliding tool is dropped and the earlier server keeps the name', async () => {
    const home = tempDir();
    const root = tempDir();
    // A way-B panel exposing every server, so an agent may select the mcp.yaml servers.
    writePlugin(
      root,
      'panel',
      { manifestVersion: 1, id: 'com.example.panel', name: 'Panel', version: '1.0.0', apps: [{ id: 'panel', name: 'Panel', entry: 'index.mjs', ai: { mcpServers: true } }] },
      { 'index.mjs': 'export function mount() {}\n' },
    );
    writeYaml(home, { alpha: server('echo,count', 'alpha_'), beta: server('echo,pid', 'beta_') });
    const serve = await startServe(['--home', home, '--plugins', root]);
    serves.push(serve);
    const agent = (ids: string[]) => ({ name: 'Picker', hostAppId: 'chatos', uiApps: [{ pluginId: 'com.example.panel', appId: 'panel', mcp: true, mcpServerIds: ids }] });
    const select = (ids: string[]) => api(serve, 'agents.save', { id: 'picker', agent: agent(ids) });
    await api(serve, 'agents.save', { agent: { id: 'picker', ...agent(['chatos::alpha', 'chatos::beta']) } });
    const list = () => api<Listed>(serve, 'tools.list', { agentId: 'picker', conversationId: 'c1' });
    const names = async () => (await list()).tools.map((t) => `${t.name}@${t.serverId}`).sort();

    expect(await names()).toEqual(['alpha_count@chatos::alpha', 'alpha_echo@chatos::alpha', 'beta_echo@chatos::beta', 'beta_pid@chatos::beta']);

    // beta's new transform would give its echo alpha's name: the update is rejected, beta keeps its tools.
    writeYaml(home, { alpha: server('echo,count', 'alpha_'), beta: server('echo,pid', 'alpha_') });
    const problem = await until('the rejected update to be reported', async () => {
      const { problems } = await api<{ problems: Listed['problems'] }>(serve, 'problems.list');
      return problems.find((p) => p.code === 'TOOL_NAME_COLLISION' && p.severity === 'error');
    });
    expect(problem.path).toBe('servers.beta.transform');
    expect(problem.message).toContain('the new configuration of server "beta" (chatos::beta) was not applied');
    expect(problem.message).toContain('the name of tool "echo" of server "alpha" (chatos::alpha)');
    expect(await names()).toEqual(['alpha_count@chatos::alpha', 'alpha_echo@chatos::alpha', 'beta_echo@chatos::beta', 'beta_pid@chatos::beta']);
    const called = await api(serve, 'tools.call', { agentId: 'picker', conversationId: 'c1', tool: 'beta_pid', args: {} });
    expect(called.isError).toBeFalsy();

    // Fixed: the update goes through, and the problem is gone.
    writeYaml(home, { alpha: server('echo,count', 'alpha_'), beta: server('echo,pid', 'b2_') });
    await until('beta’s fixed update', async () => ((await names()).includes('b2_pid@chatos::beta') ? true : undefined));
    expect(await names()).toEqual(['alpha_count@chatos::alpha', 'alpha_echo@chatos::alpha', 'b2_echo@chatos::beta', 'b2_pid@chatos::beta']);
    expect((await api<{ problems: Listed['problems'] }>(serve, 'problems.list')).problems.filter((p) => p.code === 'TOOL_NAME_COLLISION')).toEqual([]);

    // A new server (it sorts before alpha) whose echo would take alpha's name: it has no last good tools, so its colliding tool is dropped.
    writeYaml(home, { aardvark: server('echo,count', 'alpha_'), alpha: server('echo,count', 'alpha_'), beta: server('echo,pid', 'b2_') });
    await until('the new server to be known', async () => ((await api<{ servers: { id: string }[] }>(serve, 'servers.list')).servers.some((s) => s.id === 'chatos::aardvark') ? true : undefined));
    await select(['chatos::aardvark', 'chatos::alpha', 'chatos::beta']);
    const listed = await list();
    expect(
      listed.tools
        .filter((t) => t.name.startsWith('alpha_'))
        .map((t) => `${t.name}@${t.serverId}`)
        .sort(),
    ).toEqual(['alpha_count@chatos::alpha', 'alpha_echo@chatos::alpha']);
    const dropped = listed.problems.filter((p) => p.code === 'TOOL_NAME_COLLISION');
    expect(dropped.map((p) => p.message).sort()).toEqual([
      'tool "count" of server "aardvark" (chatos::aardvark) is not offered: its name "alpha_count" is already taken by tool "count" of server "alpha" (chatos::alpha)',
      'tool "echo" of server "aardvark" (chatos::aardvark) is not offered: its name "alpha_echo" is already taken by tool "echo" of server "alpha" (chatos::alpha)',
    ]);
  }, 300_000);
});
