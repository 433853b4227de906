import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeZip, writePlugin, writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

function setup() {
  const home = tempDir();
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  const pluginOf = async (id: string) => (await cli('apps', '--json')).json().plugins.find((p: { id?: string }) => p.id === id);
  return { home, cli, pluginOf };
}

describe('install, trust, uninstall', () => {
  it('installs a folder untrusted, shows what it would run, trusts it, and a changed file untrusts it', async () => {
    const { home, cli, pluginOf } = setup();
    const source = writeProviderPlugin(tempDir(), 'com.example.git', 'vcs_app');
    const install = await cli('install', source, '--json');
    expect(install.code).toBe(0);
    const installed = install.json();
    const dir = path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.git');
    expect(installed).toMatchObject({ pluginId: 'com.example.git', dir, trust: 'untrusted' });
    expect(installed.runPlan.servers).toEqual([
      {
        appId: 'main',
        serverName: 'com.example.git.main',
        // As spawned: Node gets the hook offering the host's SDK and zod before the entry; the registered url is the plugin's own.
        command: ['node', '--import', pathToFileURL(path.join(repoRoot, 'runtime', 'host-modules.mjs')).href, path.join(dir, 'main', 'server.mjs')],
        url: `cmd://node ${path.join(dir, 'main', 'server.mjs')}`,
        // The host's variables servers inherit (locale, time zone, temp folders, proxies, CA certificates; no secrets), by name.
        env: {
          set: [],
          inherited: [
            'HOME',
            'LOGNAME',
            'PATH',
            'SHELL',
            'TERM',
            'USER',
            'LANG',
            'LANGUAGE',
            'TZ',
            'TMPDIR',
            'TEMP',
            'TMP',
            'XDG_CONFIG_HOME',
            'XDG_DATA_HOME',
            'XDG_STATE_HOME',
            'XDG_CACHE_HOME',
            'XDG_RUNTIME_DIR',
            'XDG_CONFIG_DIRS',
            'XDG_DATA_DIRS',
            'HTTP_PROXY',
            'HTTPS_PROXY',
            'NO_PROXY',
            'ALL_PROXY',
            'http_proxy',
            'https_proxy',
            'no_proxy',
            'all_proxy',
            'NODE_EXTRA_CA_CERTS',
            'SSL_CERT_FILE',
            'SSL_CERT_DIR',
            'REQUESTS_CA_BUNDLE',
            'LC_*',
          ],
        },
        // A bare `node`: PATH's, else the app's own Node, unless mcp.yaml's nodeRuntime chooses (issue 19).
        nodeRuntime: 'auto',
      },
    ]);
    expect(installed.runPlan.warnings).toEqual([]);

    expect((await pluginOf('com.example.git')).trust.state).toBe('untrusted');
    expect((await pluginOf('chatos.notes')).trust).toEqual({ state: 'builtin' });

    const trust = await cli('trust', 'com.example.git');
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain(`server com.example.git.main: node --import ${pathToFileURL(path.join(repoRoot, 'runtime', 'host-modules.mjs')).href} ${path.join(dir, 'main', 'server.mjs')}`);
    expect((await pluginOf('com.example.git')).trust.state).toBe('trusted');

    fs.appendFileSync(path.join(dir, 'main', 'server.mjs'), '// changed\n');
    fs.writeFileSync(path.join(dir, 'main', 'helper.mjs'), '// new\n');
    const changed = (await pluginOf('com.example.git')).trust;
    expect(changed.state).toBe('changed');
    expect(changed.changes).toEqual({ added: ['main/helper.mjs'], removed: [], modified: ['main/server.mjs'] });

    expect((await cli('untrust', 'com.example.git')).code).toBe(0);
    expect((await pluginOf('com.example.git')).trust.state).toBe('untrusted');
  });

  it('refuses to install over an installed plugin, an invalid plugin, or a folder with links', async () => {
    const { cli } = setup();
    const source = writeProviderPlugin(tempDir(), 'com.example.git', 'vcs_app');
    expect((await cli('install', source)).code).toBe(0);
    const again = await cli('install', source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('uninstall com.example.git');

    const invalid = writePlugin(tempDir(), 'bad', { id: 'bad', name: 'bad', version: '1', apps: [] });
    const refused = await cli('install', invalid);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('apps');

    const linked = writeProviderPlugin(tempDir(), 'com.example.linked', undefined);
    fs.symlinkSync('/etc/hostname', path.join(linked, 'hostname'));
    const links = await cli('install', linked);
    expect(links.code).toBe(1);
    expect(links.stderr).toContain('symbolic links');
  });

  it('installs from a zip with one wrapping folder, and refuses zips that escape or hold links', async () => {
    const { cli, pluginOf } = setup();
    const dir = tempDir();
    const manifest = JSON.stringify({ id: 'com.example.zipped', name: 'z', version: '1.0.0', apps: [{ id: 'main', name: 'm', entry: 'index.mjs' }] });
    const good = path.join(dir, 'good.zip');
    makeZip(good, [
      { name: 'zipped/plugin.json', text: manifest },
      { name: 'zipped/index.mjs', text: 'export function mount() {}' },
    ]);
    expect((await cli('install', good)).code).toBe(0);
    expect(await pluginOf('com.example.zipped')).toMatchObject({ source: 'user', status: 'loaded' });

    const escaping = path.join(dir, 'escape.zip');
    makeZip(escaping, [
      { name: 'plugin.json', text: manifest },
      { name: '../../evil.mjs', text: 'x' },
    ]);
    const escaped = await cli('install', escaping);
    expect(escaped.code).toBe(1);
    expect(escaped.stderr).toContain('escapes the plugin folder');
    expect(fs.existsSync(path.join(dir, '..', 'evil.mjs'))).toBe(false);

    const linking = path.join(dir, 'link.zip');
    makeZip(linking, [
      { name: 'plugin.json', text: manifest.replace('zipped', 'linked') },
      { name: 'index.mjs', symlinkTo: '/etc/passwd' },
    ]);
    const linked = await cli('install', linking);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('symbolic link');
    expect(await pluginOf('com.example.linked')).toBeUndefined();
  });

  it('refuses a source that does not exist and a zip over the entry limit', async () => {
    const { cli } = setup();
    const missing = await cli('install', path.join(tempDir(), 'nope'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('does not exist');
    const bomb = path.join(tempDir(), 'many.zip');
    makeZip(
      bomb,
      Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, text: '' })),
    );
    const refused = await cli('install', bomb);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('more than 10000 entries');
  });

  it('uninstall removes the plugin, its registrations and grants, and keeps its data unless --purge', async () => {
    const { home, cli } = setup();
    const source = writeProviderPlugin(tempDir(), 'com.example.git', 'vcs_app');
    await cli('install', source);
    expect((await cli('grant', 'aide', 'vcs_app::com.example.git.main')).code).toBe(0);
    const dataDir = path.join(home, 'chatos', 'ui_apps', 'data', 'com.example.git');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'notes.json'), '[]');

    const removed = await cli('uninstall', 'com.example.git', '--yes');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('revoked its grant to aide');
    expect(fs.existsSync(path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.git'))).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(true);
    const registry = (await cli('registry', '--json')).json();
    expect(registry.servers.map((s: { id: string }) => s.id)).not.toContain('vcs_app::com.example.git.main');
    expect(registry.grants.servers).toEqual([]);

    await cli('install', source);
    expect((await cli('uninstall', 'com.example.git', '--purge')).code).toBe(0);
    expect(fs.existsSync(dataDir)).toBe(false);

    const builtin = await cli('uninstall', 'chatos.notes');
    expect(builtin.code).toBe(1);
    expect(builtin.stderr).toContain('built-in plugins cannot be uninstalled');
    expect((await cli('uninstall', 'com.example.gti')).code).toBe(1);
  });
});
