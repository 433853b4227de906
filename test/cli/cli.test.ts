import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

const validManifest = (id: string) => ({
  manifestVersion: 1,
  id,
  name: id,
  version: '1.0.0',
  providerAppId: 'vcs_app',
  apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true, callMeta: { root: '$pluginDir' } } } }],
});

describe('chatos validate', () => {
  it('accepts a valid plugin with exit 0 and prints its derived names', async () => {
    const dir = writePlugin(tempDir(), 'good', validManifest('com.example.good'), { 'index.mjs': '', 'server.mjs': '' });
    const run = await runCli(['validate', dir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ok: com.example.good 1.0.0');
    expect(run.stdout).toContain('mcp_com_example_good_main');
  });

  it('rejects an invalid plugin with exit 1, naming file and JSON path on stderr', async () => {
    const dir = writePlugin(tempDir(), 'bad', { ...validManifest('bad'), apps: [{ id: 'main', name: 'Main', entry: '../outside.mjs' }] });
    const run = await runCli(['validate', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${path.join(dir, 'plugin.json')}`);
    expect(run.stderr).toContain('apps[0].entry');
    expect(run.stderr).toContain('PATH_ESCAPES');
  });

  it('prints one JSON document with --json', async () => {
    const dir = writePlugin(tempDir(), 'good', validManifest('com.example.good'), { 'index.mjs': '', 'server.mjs': '' });
    const run = await runCli(['validate', dir, '--json']);
    expect(run.code).toBe(0);
    const doc = run.json();
    expect(doc.valid).toBe(true);
    expect(doc.apps[0]).toMatchObject({
      pluginId: 'com.example.good',
      appId: 'main',
      providerAppId: 'vcs_app',
      serverName: 'com.example.good.main',
      promptNames: { zh: 'mcp_com_example_good_main', en: 'mcp_com_example_good_main__en' },
      url: `cmd://node ${path.join(dir, 'server.mjs')}`,
      allowMain: true,
      allowSub: true,
      callMeta: { root: dir },
    });
  });

  it('exits 1 for a folder that does not exist', async () => {
    const run = await runCli(['validate', path.join(tempDir(), 'nope')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not a folder');
  });
});

describe('chatos apps', () => {
  it('lists built-in and extra-root apps with every derived field, invalid plugins with their problems, and exits 1 for them', async () => {
    const home = tempDir();
    const extra = tempDir();
    writePlugin(extra, 'good', validManifest('com.example.good'), { 'index.mjs': '', 'server.mjs': '' });
    writePlugin(extra, 'broken', { id: 'broken', name: 'b', version: '1', apps: [] });
    const run = await runCli(['apps', '--json', '--home', home, '--plugins', extra]);
    expect(run.code).toBe(1);
    const doc = run.json();
    const good = doc.apps.find((a: { pluginId: string }) => a.pluginId === 'com.example.good');
    expect(good).toMatchObject({
      providerAppId: 'vcs_app',
      source: 'extra',
      uiApp: { pluginId: 'com.example.good', appId: 'main', dataDir: path.join(home, 'chatos', 'ui_apps', 'data', 'com.example.good') },
      workdir: path.join(home, 'chatos', 'ui_apps', 'data', 'com.example.good'),
      exposure: { mcpServers: { exposure: { mode: 'off' }, source: 'none' } },
      problems: [],
    });
    expect(doc.apps.map((a: { serverName: string }) => a.serverName)).toEqual(expect.arrayContaining(['chatos.notes.notes', 'chatos.workbench.panel']));
    const broken = doc.plugins.find((p: { id?: string }) => p.id === 'broken');
    expect(broken.status).toBe('invalid');
    expect(broken.problems[0]).toMatchObject({ path: 'apps', severity: 'error' });
    expect(run.stderr).toContain('must have at least 1 item');
  });

  it('exits 0 on the built-in plugins alone, and honours CHATOS_HOME', () => {
    const home = tempDir();
    const run = runCliProcess(['apps', '--json'], { env: { CHATOS_HOME: home } });
    expect(run.code).toBe(0);
    const notes = run.json().apps.find((a: { serverName: string }) => a.serverName === 'chatos.notes.notes');
    expect(notes.uiApp.dataDir).toBe(path.join(home, 'chatos', 'ui_apps', 'data', 'chatos.notes'));
  });

  it('picks up plugins in the user root under the data home', async () => {
    const home = tempDir();
    writePlugin(path.join(home, 'chatos', 'ui_apps', 'plugins'), 'mine', validManifest('com.example.mine'), { 'index.mjs': '', 'server.mjs': '' });
    const doc = (await runCli(['apps', '--json', '--home', home])).json();
    expect(doc.apps.find((a: { pluginId: string }) => a.pluginId === 'com.example.mine')?.source).toBe('user');
  });
});

describe('usage errors exit 2', () => {
  it.each([[['no-such-command']], [['validate']], [['apps', '--bogus']], [['init', 'x', '--id', 'not a valid id']], [[]]])('chatos %j', (args) => {
    const run = runCliProcess(args, { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr.length).toBeGreaterThan(0);
  });

  it('--help exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('validate');
  });
});
