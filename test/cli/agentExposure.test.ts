import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { fixtureServer, writeGatewayPlugin, writeMcpYaml } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Way B (docs/rules/names-and-exposure.md#exposure): what an app exposes (`ai.mcpServers` / `ai.prompts`)
 * bounds what an agent may select under it. Enforced in the core, so an
 * agent made through the CLI, the API or the settings server is refused at
 * create and update, and what a stored agent selects outside an app's
 * exposure now is left out when it is resolved.
 *
 * The built-in Workbench panel exposes, from its default list, the servers
 * project_files and memory and the prompts default, mcp_project_files and
 * mcp_memory (of aide); the Notes server is not among them.
 */

const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

const panel = (mcpServerIds: string[], promptIds: string[] = []) => ({ pluginId: 'chatos.workbench', appId: 'panel', mcp: true, prompt: true, mcpServerIds, promptIds });

function agentFile(content: unknown): string {
  const file = path.join(tempDir('chatos-agent-files-'), 'agent.json');
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('agents may select only what an app exposes', () => {
  it('chatos agents create and update refuse ids outside the exposure, each at its JSON path; ids inside it (a prompt pair included) are saved', async () => {
    const home = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--home', home]);

    const outside = await cli(
      'agents',
      'create',
      '--file',
      agentFile({ id: 'wide', name: 'Wide', uiApps: [panel(['aide::memory', NOTES_SERVER], ['aide::mcp_memory__en', 'aide::default', 'chatos.notes::mcp_chatos_notes_notes'])] }),
    );
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('uiApps[0].mcpServerIds[1]');
    expect(outside.stderr).toContain(`server "${NOTES_SERVER}" is not exposed by app "panel" of plugin "chatos.workbench": it exposes only "project_files", "memory"`);
    expect(outside.stderr).toContain('uiApps[0].promptIds[2]');
    expect(outside.stderr).not.toContain('uiApps[0].mcpServerIds[0]');
    expect(outside.stderr).not.toContain('uiApps[0].promptIds[0]');
    expect((await cli('agents', 'list', '--json')).json().agents).toEqual([]);

    const inside = await cli('agents', 'create', '--file', agentFile({ id: 'narrow', name: 'Narrow', uiApps: [panel(['aide::memory'], ['aide::mcp_memory__en'])] }), '--json');
    expect(inside.code, inside.stderr).toBe(0);
    expect(inside.json().serverIds).toEqual(['aide::memory']);

    const widened = await cli('agents', 'update', 'narrow', '--file', agentFile({ name: 'Narrow', uiApps: [panel(['aide::memory', NOTES_SERVER])] }));
    expect(widened.code).toBe(1);
    expect(widened.stderr).toContain('uiApps[0].mcpServerIds[1]');
    expect((await cli('agents', 'show', 'narrow', '--json')).json().agent.uiApps[0].mcpServerIds).toEqual(['aide::memory']);
  }, 300_000);

  it('the settings server refuses the same, through the gateway', async () => {
    const home = tempDir();
    const args = JSON.stringify({ name: 'Sneaky', uiApps: [panel([NOTES_SERVER])] });
    const created = await runCli(['call', 'mcp_settings_create_agent', '--app', 'chatos', '--yes', '--args', args, '--home', home], { timeoutMs: 60_000 });
    expect(created.code).toBe(1);
    expect(created.stdout).toContain(`server "${NOTES_SERVER}" is not exposed by app "panel"`);
    expect((await runCli(['agents', 'list', '--json', '--home', home])).json().agents).toEqual([]);
  }, 300_000);

  it('the API (agents.save of a running chatos serve) refuses the same with a field error', async () => {
    const home = tempDir();
    const serve = await startServe(['--home', home]);
    serves.push(serve);
    const res = await fetch(new URL('/api', serve.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'agents.save', params: { agent: { name: 'Via API', uiApps: [panel(['aide::project_files', NOTES_SERVER])] } } }),
    });
    const reply = await res.json();
    expect(reply.ok).toBe(false);
    expect(reply.error.code).toBe('INVALID');
    expect(reply.error.fields).toEqual([{ path: 'uiApps.0.mcpServerIds.1', message: expect.stringContaining(`server "${NOTES_SERVER}" is not exposed`) }]);
  }, 300_000);

  it("an app that is not installed exposes nothing: create refuses any server under it, the host's own too, and a stored one is offered none of them", async () => {
    const home = tempDir();
    const root = tempDir();
    writeMcpYaml(home, { fx: fixtureServer() });
    // Another provider with a real server (ten tools), and a way-B hub that exposes everything.
    writeGatewayPlugin(root, 'com.example.tools', [{ appId: 'main', allowMain: true }]);
    const hubDir = writePlugin(
      root,
      'hub',
      { manifestVersion: 1, id: 'com.example.hub', name: 'Hub', version: '1.0.0', apps: [{ id: 'hub', name: 'Hub', entry: 'index.mjs', ai: { mcpServers: true } }] },
      { 'index.mjs': 'export function mount() {}\n' },
    );
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', root], { timeoutMs: 60_000 });
    expect((await cli('trust', 'com.example.tools')).code).toBe(0);
    const PROVIDER_SERVER = 'com.example.tools::com.example.tools.main';
    const ghost = { pluginId: 'com.example.ghost', appId: 'main', mcp: true };

    const refused = await cli('agents', 'create', '--file', agentFile({ id: 'ghost', name: 'Ghost', uiApps: [{ ...ghost, mcpServerIds: [PROVIDER_SERVER, 'chatos::fx'] }] }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`uiApps[0].mcpServerIds[0]: server "${PROVIDER_SERVER}" is not offered: app "main" of plugin "com.example.ghost" is not installed, so it exposes nothing`);
    expect(refused.stderr).toContain('install the plugin (chatos install DIR)');
    // Your own server is no exception: it goes under ChatOS's own entry.
    expect(refused.stderr).toContain('uiApps[0].mcpServerIds[1]: server "chatos::fx" is not offered');

    // Saved while its app was installed; the app is gone now, the provider's server is not.
    const wide = await cli(
      'agents',
      'create',
      '--file',
      agentFile({ id: 'wide', name: 'Wide', uiApps: [{ pluginId: 'com.example.hub', appId: 'hub', mcp: true, mcpServerIds: [PROVIDER_SERVER, 'chatos::fx'] }] }),
      '--json',
    );
    expect(wide.json().serverIds).toEqual([PROVIDER_SERVER, 'chatos::fx']);
    fs.rmSync(hubDir, { recursive: true });
    const shown = (await cli('agents', 'show', 'wide', '--json')).json();
    expect(shown.serverIds).toEqual([]);
    expect(shown.problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`)).toEqual([
      'AGENT_APP_MISSING uiApps[0]',
      'AGENT_ID_NOT_EXPOSED uiApps[0].mcpServerIds[0]',
      'AGENT_ID_NOT_EXPOSED uiApps[0].mcpServerIds[1]',
    ]);
    expect(shown.problems[1].message).toContain('is not installed, so it exposes nothing');
    // None of the provider's ten tools is offered, and nothing of the host's own server selected under the app that is gone.
    expect((await cli('tools', '--agent', 'wide', '--json')).json().tools).toEqual([]);
    // Kept in the stored agent, as other ids that no longer resolve are.
    expect(shown.agent.uiApps[0].mcpServerIds).toEqual([PROVIDER_SERVER, 'chatos::fx']);
  }, 300_000);

  it('a stored agent whose app stopped exposing a server has it left out, with a problem at its path', async () => {
    const home = tempDir();
    const root = tempDir();
    const manifest = (mcpServers: boolean | string[]) => ({
      manifestVersion: 1,
      id: 'com.example.board',
      name: 'Board',
      version: '1.0.0',
      apps: [{ id: 'board', name: 'Board', entry: 'index.mjs', ai: { mcpServers } }],
    });
    const dir = writePlugin(root, 'board', manifest(['memory']), { 'index.mjs': 'export function mount() {}\n' });
    const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', root]);
    const board = { pluginId: 'com.example.board', appId: 'board', mcp: true, mcpServerIds: ['aide::memory'] };
    expect((await cli('agents', 'create', '--file', agentFile({ id: 'boarder', name: 'Boarder', uiApps: [board] }))).code).toBe(0);
    expect((await cli('agents', 'show', 'boarder', '--json')).json().serverIds).toEqual(['aide::memory']);

    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifest(false)));
    const shown = (await cli('agents', 'show', 'boarder', '--json')).json();
    expect(shown.serverIds).toEqual([]);
    expect(shown.problems).toContainEqual(expect.objectContaining({ code: 'AGENT_ID_NOT_EXPOSED', path: 'uiApps[0].mcpServerIds[0]', message: expect.stringContaining('it exposes none') }));
    // Kept in the stored agent, as other ids that no longer resolve are.
    expect(shown.agent.uiApps[0].mcpServerIds).toEqual(['aide::memory']);
  }, 300_000);
});
