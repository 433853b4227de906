import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../src/core/store/recordsStore.js';
import { startServe, type ServeProcess } from '../helpers/browser.js';
import { writePlugin, writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { serveApi } from '../helpers/serveApi.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';

/**
 * Issue 14, "Registrations and grants are lost between processes": a real
 * `chatos serve` runs with a plugin root and a grant made in it, while the
 * CLI runs beside it as a user does, with other plugin roots and an
 * environment that lacks a variable mcp.yaml copies. Nothing the host
 * registered or granted may be lost, and it keeps serving the tool.
 */

const TOOLS_SERVER = 'tools_app::com.example.tools.main';
const TOOLS_TOOL = 'mcp_com_example_tools_main_ping';
const YAML_SERVER = 'chatos::yamlsrv';
const YAML_TOOL = 'mcp_yamlsrv_ping';
const TOKEN_VAR = 'CHATOS_CROSS_TOKEN';

const serves: ServeProcess[] = [];
afterEach(async () => {
  for (const serve of serves.splice(0)) await serve.stop();
}, 300_000);

/** A real stdio MCP server, importing the SDK from this checkout by absolute URL (the plugin lives in a temp folder). */
function serverSource(): string {
  const sdk = (file: string) => pathToFileURL(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', file)).href;
  return `import { McpServer } from ${JSON.stringify(sdk('mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(sdk('stdio.js'))};
const server = new McpServer({ name: 'cross-process', version: '1.0.0' });
server.registerTool('ping', { description: 'Answers pong, with the token it was given.', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: 'pong' + (process.env.TOKEN ? ' with token ' + process.env.TOKEN : '') }],
}));
await server.connect(new StdioServerTransport());
`;
}

function writeToolsPlugin(root: string): string {
  return writePlugin(
    root,
    'tools',
    {
      manifestVersion: 1,
      id: 'com.example.tools',
      name: 'Tools',
      version: '1.0.0',
      providerAppId: 'tools_app',
      apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true }, mcpServers: true } }],
    },
    { 'index.mjs': 'export function mount() {}\n', 'server.mjs': serverSource() },
  );
}

const api = serveApi;

const textOf = (outcome: { isError: boolean; content: { type: string; text?: string }[] }) => outcome.content.map((c) => c.text ?? '').join('');

describe('a running chatos serve and the CLI beside it', () => {
  it('20 CLI commands of every kind, with other plugin roots and without an mcp.yaml variable, leave the host its registrations and grants, and it still serves the tools', async () => {
    const home = tempDir();
    const rootA = tempDir('chatos-root-a-');
    const rootB = tempDir('chatos-root-b-');
    const elsewhere = tempDir('chatos-elsewhere-');
    const toolsDir = writeToolsPlugin(rootA);
    writeProviderPlugin(rootB, 'com.example.other', 'other_app');
    const installable = writeProviderPlugin(elsewhere, 'com.example.installme', 'install_app');
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'chatos', 'mcp.yaml'),
      `version: 1\nservers:\n  yamlsrv:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(path.join(toolsDir, 'server.mjs'))}]\n    env:\n      TOKEN: { env: ${TOKEN_VAR} }\n`,
    );
    const withToken = { [TOKEN_VAR]: 'tok-42' };
    expect((await runCli(['trust', 'com.example.tools', '--home', home, '--plugins', rootA])).code).toBe(0);

    const serve = await startServe(['--home', home, '--plugins', rootA], withToken);
    serves.push(serve);
    // The grants and the agent are made in the running host, through its API.
    await api(serve, 'registry.grant', { appId: 'aide', id: TOOLS_SERVER });
    await api(serve, 'registry.grant', { appId: 'aide', id: YAML_SERVER });
    await api(serve, 'agents.save', { agent: { id: 'cross', name: 'Cross', hostAppId: 'aide', uiApps: [{ pluginId: 'com.example.tools', appId: 'main', mcp: true, mcpServerIds: [YAML_SERVER] }] } });
    const call = (tool: string, conversationId: string) => api(serve, 'tools.call', { agentId: 'cross', conversationId, tool, args: {} });
    expect(textOf(await call(TOOLS_TOOL, 'before'))).toBe('pong');
    expect(textOf(await call(YAML_TOOL, 'before'))).toBe('pong with token tok-42');

    const agentFile = path.join(tempDir(), 'agent.json');
    fs.writeFileSync(agentFile, JSON.stringify({ id: 'passing', name: 'Passing', uiApps: [] }));
    const commands: string[][] = [
      ['registry'],
      ['registry', 'grants', '--json'],
      ['registry', 'servers', '--for', 'aide'],
      ['registry', 'prune'],
      ['apps', '--json'],
      ['tools', '--app', 'other_app'], // other_app's server is untrusted: not offered, and it says so (a warning)
      ['agents', 'list'],
      ['agents', 'show', 'cross'],
      ['audit'],
      ['validate', path.join(rootB, 'com.example.other')],
      ['roots', 'list'],
      ['trust', 'com.example.other'],
      ['untrust', 'com.example.other'],
      ['install', installable],
      ['grant', 'other_app', 'aide::memory'],
      ['revoke', 'other_app', 'aide::memory'],
      ['agents', 'create', '--file', agentFile],
      ['agents', 'delete', 'passing'],
      ['call', 'mcp_settings_list_agents', '--app', 'chatos'],
      ['uninstall', 'com.example.installme'],
      ['registry', 'prune', '--yes'],
    ];
    for (const args of commands) {
      const run = await runCli([...args, '--home', home, '--plugins', rootB], { [TOKEN_VAR]: undefined });
      expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
      if (args[0] === 'tools') expect(run.stderr).toContain('plugin com.example.other is not trusted, so its server does not run: its tools are not offered [PLUGIN_UNTRUSTED]');
      expect(run.stderr, `chatos ${args.join(' ')}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    }

    const overview = await api(serve, 'registry.overview');
    const row = (id: string) => overview.servers.find((s: { id: string }) => s.id === id);
    expect(row(TOOLS_SERVER)).toMatchObject({ source: { kind: 'plugin', pluginDir: toolsDir } });
    expect(row(TOOLS_SERVER).missing).toBeUndefined();
    expect(row(YAML_SERVER)).toMatchObject({ source: { kind: 'mcp-yaml' } });
    expect(row(YAML_SERVER).missing).toBeUndefined();
    expect(
      overview.grants
        .filter((g: { appId: string }) => g.appId === 'aide')
        .map((g: { targetId: string }) => g.targetId)
        .sort(),
    ).toEqual([YAML_SERVER, TOOLS_SERVER].sort());
    expect(overview.visible.aide.servers).toEqual(expect.arrayContaining([TOOLS_SERVER, YAML_SERVER]));
    // The host still serves both, on the lease it had and on a new one.
    for (const conversationId of ['before', 'after']) {
      expect(textOf(await call(TOOLS_TOOL, conversationId))).toBe('pong');
      expect(textOf(await call(YAML_TOOL, conversationId))).toBe('pong with token tok-42');
    }
    // And the CLI, as the granted app, sees the same registry.
    const cliGrants = (await runCli(['registry', 'grants', '--for', 'aide', '--json', '--home', home])).json().grants.servers.map((g: { targetId: string }) => g.targetId);
    expect(cliGrants.sort()).toEqual([YAML_SERVER, TOOLS_SERVER].sort());
  }, 300_000);

  it('a row that fails its schema, written by another process, is a problem in the running host at once, and goes when the row is fixed', async () => {
    const home = tempDir();
    const serve = await startServe(['--home', home]);
    serves.push(serve);
    const invalidRows = async () => ((await api(serve, 'problems.list')).problems as { code: string; path: string; source: string }[]).filter((p) => p.code === 'RECORD_INVALID');
    expect(await invalidRows()).toEqual([]);

    const Loose = defineTable('serverSettings', z.unknown());
    const other = await RecordsStore.open(path.join(home, 'chatos', 'admin.db'));
    other.put(Loose, 'chatos::settings', { serverId: 'chatos::settings', disabled: 'sometimes' });
    await other.flush();
    const reported = await until('the host to report the row', async () => ((await invalidRows()).length ? invalidRows() : undefined));
    expect(reported).toEqual([expect.objectContaining({ path: 'serverSettings["chatos::settings"].disabled', source: 'registry' })]);

    other.delete(Loose, 'chatos::settings');
    await other.close();
    await until('the problem to go', async () => ((await invalidRows()).length ? undefined : true));
  }, 300_000);

  it('a root remembered by the CLI is scanned by the running host at once; forgetting it marks its plugins missing there, grants kept', async () => {
    const home = tempDir();
    const rootC = tempDir('chatos-root-c-');
    writeToolsPlugin(rootC);
    const serve = await startServe(['--home', home]);
    serves.push(serve);
    const toolsPlugin = async () => ((await api(serve, 'apps.list')).plugins as { id: string; dir: string }[]).find((p) => p.id === 'com.example.tools');

    const added = await runCli(['roots', 'add', rootC, '--home', home]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`remembered ${rootC}`);
    await until('the host to scan the remembered root', async () => ((await toolsPlugin()) ? true : undefined));
    expect((await api(serve, 'roots.list')).roots).toContainEqual({ dir: rootC, source: 'extra', remembered: true, exists: true });
    await api(serve, 'registry.grant', { appId: 'aide', id: TOOLS_SERVER });
    // Every process sees the root now, with no --plugins.
    expect((await runCli(['registry', 'servers', '--json', '--home', home])).json().servers.map((s: { id: string }) => s.id)).toContain(TOOLS_SERVER);

    const removed = await runCli(['roots', 'remove', rootC, '--home', home]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`marked missing (their grants kept; remove them with: chatos registry prune --yes): ${TOOLS_SERVER}`);
    await until('the host to stop scanning the root', async () => ((await toolsPlugin()) ? undefined : true));
    // The CLI's mark reaches the host through the registry file: the host may rescan (roots.json changed) before it sees the mark.
    const overview = await until('the host to see the mark', async () => {
      const read = await api(serve, 'registry.overview');
      return read.servers.find((s: { id: string; missing?: unknown }) => s.id === TOOLS_SERVER)?.missing ? read : undefined;
    });
    expect(overview.servers.find((s: { id: string }) => s.id === TOOLS_SERVER).missing.reason).toBe(`its plugin root ${rootC} is no longer remembered`);
    expect(overview.visible.aide.servers).not.toContain(TOOLS_SERVER);
    expect(overview.grants.map((g: { targetId: string }) => g.targetId)).toContain(TOOLS_SERVER);
    const missingProblem = await until('the missing registration to be a problem', async () =>
      ((await api(serve, 'problems.list')).problems as { code: string; message: string }[]).find((p) => p.code === 'REGISTRATION_MISSING'),
    );
    expect(missingProblem.message).toContain(TOOLS_SERVER);
  }, 300_000);
});
