import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

const GIT_SERVER = 'vcs_app::com.example.git.main';

function world() {
  const home = tempDir();
  const root = tempDir('chatos-root-');
  writeProviderPlugin(root, 'com.example.git', 'vcs_app');
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  return { home, root, cli };
}

const serverIds = (run: { json(): any }) => run.json().servers.map((s: { id: string }) => s.id);

describe('chatos roots: plugin roots remembered for every process', () => {
  it('add remembers a root in the data home, so later commands without --plugins scan it', async () => {
    const { home, root, cli } = world();
    const added = await cli('roots', 'add', root);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`remembered ${root}`);
    expect(added.stdout).toContain('plugins found there: com.example.git');
    expect(JSON.parse(fs.readFileSync(path.join(home, 'chatos', 'plugin-roots.json'), 'utf8'))).toEqual({ version: 1, roots: [root] });

    expect(serverIds(await cli('registry', 'servers', '--json'))).toContain(GIT_SERVER);
    expect((await cli('grant', 'aide', GIT_SERVER)).code).toBe(0);
    const listed = (await cli('roots', 'list', '--json')).json();
    expect(listed.roots).toEqual([
      { dir: path.join(repoRoot, 'plugins'), source: 'builtin', remembered: false, exists: true },
      { dir: path.join(home, 'chatos', 'ui_apps', 'plugins'), source: 'user', remembered: false, exists: false },
      { dir: root, source: 'extra', remembered: true, exists: true },
    ]);
    const text = (await cli('roots', 'list', '--plugins', tempDir('chatos-once-'))).stdout;
    expect(text).toContain(`${root}  [remembered]`);
    expect(text).toContain('[this run only (--plugins)]');
    expect((await cli('roots', 'add', root)).stdout).toContain(`${root} was already remembered`);
  });

  it('refuses what is not a folder of plugin folders, naming the fix', async () => {
    const { root, cli } = world();
    const plugin = await cli('roots', 'add', path.join(root, 'com.example.git'));
    expect(plugin.code).toBe(1);
    expect(plugin.stderr).toContain('is a plugin folder (it holds plugin.json), not a folder of plugins');
    expect(plugin.stderr).toContain(`chatos roots add ${root}`);
    const missing = await cli('roots', 'add', path.join(root, 'nope'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is not a folder');
    expect((await cli('roots', 'add', path.join(repoRoot, 'plugins'))).stderr).toContain('is always scanned');
    const notRemembered = await cli('roots', 'remove', root);
    expect(notRemembered.code).toBe(1);
    expect(notRemembered.stderr).toContain('is not a remembered plugin root');
  });

  it('remove forgets the root and marks its registrations missing, grants kept, until prune', async () => {
    const { root, cli } = world();
    await cli('roots', 'add', root);
    expect((await cli('grant', 'aide', GIT_SERVER)).code).toBe(0);
    const removed = await cli('roots', 'remove', root);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`forgot ${root}`);
    expect(removed.stdout).toContain(GIT_SERVER);
    expect(fs.existsSync(path.join(root, 'com.example.git', 'plugin.json'))).toBe(true);
    const registry = (await cli('registry', '--json')).json();
    expect(registry.servers.find((s: { id: string }) => s.id === GIT_SERVER).missing.reason).toBe(`its plugin root ${root} is no longer remembered`);
    expect(registry.grants.servers.map((g: { targetId: string }) => g.targetId)).toEqual([GIT_SERVER]);
    expect(serverIds(await cli('registry', 'servers', '--for', 'aide', '--json'))).not.toContain(GIT_SERVER);
    // Added again: back, with its grant.
    await cli('roots', 'add', root);
    expect(serverIds(await cli('registry', 'servers', '--for', 'aide', '--json'))).toContain(GIT_SERVER);
  });

  it('a broken roots file is reported with the fix and is never overwritten', async () => {
    const { home, root, cli } = world();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    const file = path.join(home, 'chatos', 'plugin-roots.json');
    fs.writeFileSync(file, '{ "version": 1, "roots": [');
    const listed = await cli('roots', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain('is not valid JSON');
    expect(listed.stderr).toContain('PLUGIN_ROOTS_INVALID');
    const added = await cli('roots', 'add', root);
    expect(added.code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "version": 1, "roots": [');
  });
});
