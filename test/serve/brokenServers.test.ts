import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { brokenWorld, PLUGIN, PLUGIN_SERVER } from '../helpers/brokenServers.js';
import { fixtureServer, writeMcpYaml } from '../helpers/gatewayHost.js';
import { runCli } from '../helpers/runCli.js';
import { serveApi } from '../helpers/serveApi.js';
import { until } from '../helpers/until.js';

/**
 * Issue 14, "Broken servers must look broken": a server whose command is
 * missing, and one that crashes as it starts, used to stay grey "stopped"
 * cards with no problem anywhere. Here they are run for real, beside a
 * trusted plugin whose server command is missing and an agent that uses it.
 */

interface ServerRow {
  id: string;
  state: { kind: string; message?: string };
  leases: unknown[];
  problems: { code: string; message: string; hint?: string }[];
}

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

describe('broken servers look broken, through a real chatos serve and the CLI', () => {
  it('a missing command and a crash at start are error states with the reason, problems of their apps and agents, and their log says each line once with a count', async () => {
    const { home, root, yaml } = await brokenWorld();
    const serve = await startServe(['--home', home, '--plugins', root]);
    serves.push(serve);
    const server = async (id: string) => (await serveApi<{ servers: ServerRow[] }>(serve, 'servers.list')).servers.find((s) => s.id === id)!;

    // Known before any start: the command is not on PATH.
    const missing = await server('chatos::missing');
    expect(missing.state.kind).toBe('error');
    expect(missing.state.message).toContain('its command "chatos-no-such-command" was not found on PATH (searched: ');
    expect(missing.problems).toContainEqual(
      expect.objectContaining({ code: 'SERVER_COMMAND_NOT_FOUND', hint: `install chatos-no-such-command (so that it is on that PATH), or set servers.missing.command in ${yaml} to its full path` }),
    );

    // A crash shows once it was started, and stays when its failed instance is gone.
    await expect(serveApi(serve, 'servers.tools', { serverId: 'chatos::crashy' })).rejects.toThrow(/exited with code 3 as it started/);
    const crashy = await server('chatos::crashy');
    expect(crashy.leases).toEqual([]);
    expect(crashy.state.kind).toBe('error');
    expect(crashy.state.message).toContain('exited with code 3 as it started; its stderr began:\n  boom: config missing\n  second line');
    expect(crashy.problems).toContainEqual(expect.objectContaining({ code: 'SERVER_START_FAILED', hint: expect.stringContaining('run its command yourself to see why') }));

    const { problems } = await serveApi<{ problems: { code: string; file: string; severity: string; source: string }[] }>(serve, 'problems.list');
    const errors = problems.filter((p) => p.source === 'servers' && p.severity === 'error').map((p) => `${p.code} ${p.file}`);
    expect(errors).toEqual(expect.arrayContaining(['SERVER_COMMAND_NOT_FOUND chatos::missing', 'SERVER_START_FAILED chatos::crashy', `SERVER_COMMAND_NOT_FOUND ${PLUGIN_SERVER}`]));

    // The plugin is loaded and trusted, and its app says its server cannot start.
    const apps = await serveApi<{ apps: { pluginId: string; problems: { code: string; path: string }[] }[] }>(serve, 'apps.list');
    expect(apps.apps.find((a) => a.pluginId === PLUGIN)!.problems).toContainEqual(expect.objectContaining({ code: 'SERVER_COMMAND_NOT_FOUND', path: 'apps[0].ai.mcp' }));

    // An agent that uses it is warned.
    const preview = await serveApi(serve, 'agents.preview', { agent: { name: 'x', uiApps: [{ pluginId: PLUGIN, appId: 'main', mcp: true }] } });
    expect(preview.problems).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'AGENT_SERVER_BROKEN', path: 'uiApps[0].mcp' }));

    // Every failed start of the missing command says so once, with a count.
    for (let i = 0; i < 3; i++) await expect(serveApi(serve, 'servers.tools', { serverId: 'chatos::missing' })).rejects.toThrow(/not found on PATH/);
    const { lines } = await serveApi<{ lines: string[] }>(serve, 'servers.log', { serverId: 'chatos::missing' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\[fault\] could not start MCP server "chatos::missing" .* \(×3\)$/);

    // Fixed (a new definition), it is no longer broken.
    writeMcpYaml(home, { missing: { command: 'chatos-no-such-command' }, crashy: fixtureServer() });
    await until('the fixed server to lose its error', async () => ((await server('chatos::crashy')).state.kind === 'stopped' ? true : undefined));
  }, 300_000);

  it('chatos apps names the missing command on the app and exits 1; chatos agents show warns the agent that uses it', async () => {
    const { home, root } = await brokenWorld();
    const apps = await runCli(['apps', '--json', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    expect(apps.code).toBe(1);
    const app = apps.json().apps.find((a: { pluginId: string }) => a.pluginId === PLUGIN);
    expect(app.problems).toContainEqual(
      expect.objectContaining({ code: 'SERVER_COMMAND_NOT_FOUND', path: 'apps[0].ai.mcp', message: expect.stringContaining('"chatos-no-such-runtime" was not found on PATH') }),
    );
    const text = await runCli(['apps', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    expect(text.stderr).toContain(`server "${PLUGIN_SERVER}" cannot start: its command "chatos-no-such-runtime" was not found on PATH`);

    const agent = await runCli(['agents', 'show', 'uses-broken', '--json', '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    expect(agent.json().problems).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'AGENT_SERVER_BROKEN', hint: expect.stringContaining('"command" in ai.mcp of app "main"') }));
  }, 300_000);
});
