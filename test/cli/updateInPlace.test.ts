import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeZip, writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

const ID = 'com.example.git';
const SERVER = 'vcs_app::com.example.git.main';

/** A provider plugin with one server; `version` goes into its env and a file, so each version runs something else. */
function manifest(version: string) {
  return {
    manifestVersion: 1,
    id: ID,
    name: 'Git',
    version,
    providerAppId: 'vcs_app',
    apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', env: { GIT_APP_VERSION: version }, allowMain: true } } }],
  };
}
const files = (version: string) => ({ 'index.mjs': 'export function mount() {}\n', 'server.mjs': `// server ${version}\n` });

function setup() {
  const home = tempDir();
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  const installedDir = path.join(home, 'chatos', 'ui_apps', 'plugins', ID);
  const trustOf = async () => (await cli('apps', '--json')).json().plugins.find((p: { id?: string; source: string }) => p.id === ID && p.source === 'user').trust.state;
  const serverGrants = async () => (await cli('registry', '--json')).json().grants.servers.map((g: { appId: string; targetId: string }) => `${g.appId} ${g.targetId}`);
  return { cli, installedDir, trustOf, serverGrants };
}

describe('install over an installed plugin updates it in place', () => {
  it('shows the diff and refuses without --yes and a terminal; with --yes keeps the grants and needs trust again', async () => {
    const { cli, installedDir, trustOf, serverGrants } = setup();
    const parent = tempDir();
    const source = writePlugin(parent, 'git', manifest('1.0.0'), files('1.0.0'));
    expect((await cli('install', source)).code).toBe(0);
    expect((await cli('grant', 'aide', SERVER)).code).toBe(0);
    expect((await cli('trust', ID)).code).toBe(0);
    expect(await trustOf()).toBe('trusted');

    writePlugin(parent, 'git', manifest('2.0.0'), { ...files('2.0.0'), 'notes.md': 'new\n' });
    const asked = await cli('install', source);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(`${ID} is installed at ${installedDir}; installing this copy updates it in place`);
    expect(asked.stdout).toContain('files added: notes.md; modified: plugin.json, server.mjs');
    expect(asked.stdout).toContain('what it runs changes (- before, + after):');
    expect(asked.stdout).toMatch(/^- {3}environment: GIT_APP_VERSION=1\.0\.0/m);
    expect(asked.stdout).toMatch(/^\+ {3}environment: GIT_APP_VERSION=2\.0\.0/m);
    // The new copy's command names the folder it goes to, not the staging copy: the line is unchanged.
    expect(asked.stdout.split('\n').filter((line) => line.includes(`server ${ID}.main: node `))).toEqual([expect.stringMatching(new RegExp(`^  server .* ${path.join(installedDir, 'server.mjs')}$`))]);
    expect(asked.stderr).toContain(`chatos install ${source} --yes`);
    // Nothing changed: the old copy is in place, still trusted.
    expect(fs.readFileSync(path.join(installedDir, 'server.mjs'), 'utf8')).toBe('// server 1.0.0\n');
    expect(await trustOf()).toBe('trusted');

    const updated = await cli('install', source, '--yes', '--json');
    expect(updated.code).toBe(0);
    expect(updated.json()).toMatchObject({ pluginId: ID, dir: installedDir, updated: true, trust: 'changed', update: { runPlanChanged: true, wasTrusted: true, files: { added: ['notes.md'] } } });
    expect(fs.readFileSync(path.join(installedDir, 'server.mjs'), 'utf8')).toBe('// server 2.0.0\n');
    expect(await serverGrants()).toEqual([`aide ${SERVER}`]);
    expect(await trustOf()).toBe('changed');
    expect((await cli('trust', ID)).code).toBe(0);
    expect(await trustOf()).toBe('trusted');
    // Ten CLI runs: on a loaded machine well over vitest's default 30 s.
  }, 300_000);

  it('updates from a zip, and says when what it runs stays the same', async () => {
    const { cli, installedDir, serverGrants } = setup();
    const source = writePlugin(tempDir(), 'git', manifest('1.0.0'), files('1.0.0'));
    expect((await cli('install', source)).code).toBe(0);
    expect((await cli('grant', 'aide', SERVER)).code).toBe(0);

    const zip = path.join(tempDir(), 'git.zip');
    const next = files('1.0.0');
    makeZip(zip, [
      { name: 'git/plugin.json', text: JSON.stringify(manifest('1.0.0')) },
      ...Object.entries({ ...next, 'index.mjs': 'export function mount() { /* v1.0.1 */ }\n' }).map(([name, text]) => ({ name: `git/${name}`, text })),
    ]);
    const updated = await cli('install', zip, '--yes');
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('files modified: index.mjs');
    expect(updated.stdout).toContain('what it runs stays the same:');
    expect(updated.stdout).toContain(`updated ${ID} in ${installedDir}; its grants are kept`);
    expect(fs.readFileSync(path.join(installedDir, 'index.mjs'), 'utf8')).toContain('v1.0.1');
    expect(await serverGrants()).toEqual([`aide ${SERVER}`]);
  });

  it('never replaces a folder that holds another plugin', async () => {
    const { cli, installedDir } = setup();
    // Another plugin sits in the folder this id would be installed in.
    writePlugin(path.dirname(installedDir), ID, { ...manifest('1.0.0'), id: 'com.other' }, files('1.0.0'));
    const refused = await cli('install', writePlugin(tempDir(), 'git', manifest('2.0.0'), files('2.0.0')), '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${installedDir} holds another plugin (com.other)`);
    expect(fs.readFileSync(path.join(installedDir, 'server.mjs'), 'utf8')).toBe('// server 1.0.0\n');
  });
});

describe('uninstall says which grants other apps lose', () => {
  it('lists them and needs --yes without a terminal', async () => {
    const { cli, installedDir, serverGrants } = setup();
    expect((await cli('install', writePlugin(tempDir(), 'git', manifest('1.0.0'), files('1.0.0')))).code).toBe(0);
    expect((await cli('grant', 'aide', SERVER)).code).toBe(0);

    const asked = await cli('uninstall', ID);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(`uninstalling ${ID} drops the grants other apps have on it:\n  aide loses server ${SERVER}`);
    expect(asked.stderr).toContain(`chatos uninstall ${ID} --yes`);
    expect(fs.existsSync(installedDir)).toBe(true);
    expect(await serverGrants()).toEqual([`aide ${SERVER}`]);

    const removed = await cli('uninstall', ID, '--yes');
    expect(removed.code).toBe(0);
    expect(fs.existsSync(installedDir)).toBe(false);
    expect(await serverGrants()).toEqual([]);
  });

  it('needs no --yes when no other app has a grant on it', async () => {
    const { cli, installedDir } = setup();
    expect((await cli('install', writePlugin(tempDir(), 'git', manifest('1.0.0'), files('1.0.0')))).code).toBe(0);
    expect((await cli('uninstall', ID)).code).toBe(0);
    expect(fs.existsSync(installedDir)).toBe(false);
  });
});
