import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../helpers/gatewayHost.js';
import { makeZip, writeHugePlugin, writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** A data home and an extra plugin root, and the CLI run against both. */
function world() {
  const home = tempDir();
  const extra = tempDir('chatos-extra-');
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);
  const pluginOf = async (id: string) => (await cli('apps', '--json')).json().plugins.find((p: { id?: string }) => p.id === id);
  return { home, extra, cli, pluginOf };
}

/** A plugin whose MCP server runs the gateway fixture from `entry`, with `files` beside it. */
function serverPlugin(root: string, id: string, entry: string, files: Record<string, string> = {}, mcp: Record<string, unknown> = {}): string {
  return writePlugin(
    root,
    id,
    { manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry, allowMain: true, ...mcp } } }] },
    { 'index.mjs': 'export function mount() {}\n', [entry]: `import ${JSON.stringify(GATEWAY_SERVER)};\n`, ...files },
  );
}

const echo = (id: string) => `mcp_${id.replace(/\./g, '_')}_main_echo`;

describe('trust pins .git like every other folder (issue 13 item 2)', () => {
  it('code under .git is fingerprinted: editing it makes the plugin changed, and its server no longer runs', async () => {
    const { extra, cli, pluginOf } = world();
    const dir = serverPlugin(extra, 'com.example.vcs', '.git/hooks/server.mjs');
    expect((await cli('trust', 'com.example.vcs')).code).toBe(0);
    const ran = await cli('call', echo('com.example.vcs'), '--app', 'chatos', '--args', '{"text":"hi"}');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('hi');

    fs.appendFileSync(path.join(dir, '.git', 'hooks', 'server.mjs'), 'process.stderr.write("rewritten by git\\n");\n');
    const changed = (await pluginOf('com.example.vcs')).trust;
    expect(changed).toMatchObject({ state: 'changed', changes: { added: [], removed: [], modified: ['.git/hooks/server.mjs'] } });
    const refused = await cli('call', echo('com.example.vcs'), '--app', 'chatos', '--args', '{"text":"hi"}');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('changed since you trusted it');
  });

  it('install leaves .git out of a folder and of a zip, and says so', async () => {
    const { home, cli } = world();
    const manifest = (id: string) => JSON.stringify({ manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'm', entry: 'index.mjs' }] });

    const folder = writePlugin(tempDir(), 'com.example.folder', JSON.parse(manifest('com.example.folder')), {
      'index.mjs': 'export function mount() {}\n',
      '.git/config': '[core]\n',
      '.git/hooks/post-checkout': '#!/bin/sh\n',
    });
    const fromFolder = await cli('install', folder);
    expect(fromFolder.code).toBe(0);
    expect(fromFolder.stdout).toContain('left out .git: version-control history, not plugin code');
    expect(fs.existsSync(path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.folder', '.git'))).toBe(false);

    const zip = path.join(tempDir(), 'zipped.zip');
    makeZip(zip, [
      { name: 'zipped/plugin.json', text: manifest('com.example.zipped') },
      { name: 'zipped/index.mjs', text: 'export function mount() {}\n' },
      { name: 'zipped/.git/config', text: '[core]\n' },
      { name: 'zipped/.git/objects/ab/cdef', text: 'blob' },
      { name: 'zipped/lib/.git', text: 'gitdir: ../.git/modules/lib\n' },
    ]);
    const fromZip = await cli('install', zip, '--json');
    expect(fromZip.code).toBe(0);
    expect(fromZip.json().leftOut).toEqual(['.git', 'lib/.git']);
    const installed = path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.zipped');
    expect(fs.existsSync(path.join(installed, 'index.mjs'))).toBe(true);
    expect(fs.existsSync(path.join(installed, '.git'))).toBe(false);
    expect(fs.existsSync(path.join(installed, 'lib', '.git'))).toBe(false);
  });
});

describe('links that leave a plugin folder block it, in every root (issue 13 item 3)', () => {
  it('a module linked to a file outside: the plugin cannot be trusted and nothing of it runs, before or after the outside file is rewritten', async () => {
    const { extra, cli, pluginOf } = world();
    const outside = tempDir('chatos-outside-');
    const marker = path.join(outside, 'ran.log');
    const lib = path.join(outside, 'lib.mjs');
    fs.writeFileSync(lib, `import * as fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(marker)}, 'v1\\n');\n`);
    const dir = serverPlugin(extra, 'com.example.linked', 'server.mjs', {}, {});
    fs.writeFileSync(path.join(dir, 'server.mjs'), `import './lib.mjs';\nimport ${JSON.stringify(GATEWAY_SERVER)};\n`);
    fs.symlinkSync(lib, path.join(dir, 'lib.mjs'));

    const trust = await cli('trust', 'com.example.linked');
    expect(trust.code).toBe(1);
    expect(trust.stderr).toContain(`"lib.mjs" is a link to ${fs.realpathSync(lib)}, outside the plugin folder`);
    expect(trust.stderr).toContain('copy the file into the plugin folder instead of linking to it');
    const listed = await pluginOf('com.example.linked');
    expect(listed.trust.state).toBe('blocked');
    expect(listed.problems).toContainEqual(expect.objectContaining({ code: 'PLUGIN_LINK_ESCAPES', file: path.join(dir, 'lib.mjs') }));

    const refused = await cli('call', echo('com.example.linked'), '--app', 'chatos', '--args', '{"text":"hi"}');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be trusted');
    fs.writeFileSync(lib, `import * as fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(marker)}, 'v2\\n');\n`);
    expect((await cli('call', echo('com.example.linked'), '--app', 'chatos', '--args', '{"text":"hi"}')).code).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a link that stays inside is pinned by what it resolves to; a plugin.json linked from outside is invalid', async () => {
    const { extra, cli, pluginOf } = world();
    const dir = serverPlugin(extra, 'com.example.inner', 'server.mjs', { 'lib/a.mjs': 'export const a = 1;\n', 'lib/b.mjs': 'export const b = 2;\n' });
    fs.symlinkSync(path.join('lib', 'a.mjs'), path.join(dir, 'alias.mjs'));
    expect((await cli('trust', 'com.example.inner')).code).toBe(0);
    expect((await pluginOf('com.example.inner')).trust.state).toBe('trusted');
    fs.rmSync(path.join(dir, 'alias.mjs'));
    fs.symlinkSync(path.join('lib', 'b.mjs'), path.join(dir, 'alias.mjs'));
    expect((await pluginOf('com.example.inner')).trust).toMatchObject({ state: 'changed', changes: { modified: ['alias.mjs'] } });

    const manifest = path.join(tempDir('chatos-outside-'), 'plugin.json');
    fs.writeFileSync(manifest, JSON.stringify({ manifestVersion: 1, id: 'com.example.remote', name: 'r', version: '1.0.0', apps: [{ id: 'main', name: 'm', entry: 'index.mjs' }] }));
    const remote = path.join(extra, 'remote');
    fs.mkdirSync(remote);
    fs.writeFileSync(path.join(remote, 'index.mjs'), 'export function mount() {}\n');
    fs.symlinkSync(manifest, path.join(remote, 'plugin.json'));
    const validated = await cli('validate', remote);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain(`plugin.json is a link to ${fs.realpathSync(manifest)}, outside the plugin folder`);
    const apps = (await cli('apps', '--json')).json();
    expect(apps.plugins.find((p: { dir: string }) => p.dir === remote)).toMatchObject({ status: 'invalid', problems: [expect.objectContaining({ code: 'MANIFEST_LINK_ESCAPES' })] });
  });
});

describe('a plugin with more files than trust pins (issue 13 item 9)', () => {
  it('is a problem on that plugin alone: chatos apps lists every plugin, the others run, and it cannot be trusted', async () => {
    const { extra, cli } = world();
    const huge = writeHugePlugin(extra, 'com.example.huge', 20_001);
    serverPlugin(extra, 'com.example.small', 'server.mjs');
    expect((await cli('trust', 'com.example.small')).code).toBe(0);

    const apps = await cli('apps', '--json');
    expect(apps.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const listed = apps.json();
    const big = listed.plugins.find((p: { id?: string }) => p.id === 'com.example.huge');
    expect(big.status).toBe('loaded');
    expect(big.trust.state).toBe('blocked');
    const problem = big.problems.find((p: { code: string }) => p.code === 'PLUGIN_TOO_MANY_FILES');
    expect(problem).toMatchObject({ severity: 'error', file: huge });
    // 20,001 files, one index.mjs and plugin.json, node_modules and its 21 folders.
    expect(problem.message).toContain('holds 20025 files and folders; trust pins at most 20000, so this plugin cannot be trusted until it is smaller');
    expect(listed.problems).toContainEqual(problem);
    expect(apps.code).toBe(1); // a problem the user must fix, said as a problem
    expect(listed.plugins.find((p: { id?: string }) => p.id === 'com.example.small').trust.state).toBe('trusted');
    expect(listed.plugins.find((p: { id?: string }) => p.id === 'chatos.notes').trust).toEqual({ state: 'builtin' });

    const trust = await cli('trust', 'com.example.huge');
    expect(trust.code).toBe(1);
    expect(trust.stderr).toContain('cannot be trusted until it is smaller');

    const ran = await cli('call', echo('com.example.small'), '--app', 'chatos', '--args', '{"text":"still runs"}');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('still runs');
  });
});

describe('the run plan shows the environment and flags what runs code from outside (issue 13 item 4)', () => {
  it('lists each server environment, warns about NODE_OPTIONS, LD_PRELOAD, PATH and a command outside the folder, and an env edit un-trusts', async () => {
    const { extra, cli, pluginOf } = world();
    const dir = writePlugin(
      extra,
      'env',
      {
        manifestVersion: 1,
        id: 'com.example.env',
        name: 'Env',
        version: '1.0.0',
        apps: [
          {
            id: 'main',
            name: 'Main',
            entry: 'index.mjs',
            ai: { mcp: { entry: 'server.mjs', env: { FLAVOUR: 'plain', NODE_OPTIONS: '--require /tmp/evil.cjs', LD_PRELOAD: '/tmp/evil.so', PATH: '/tmp/evil-bin' } } },
          },
          { id: 'tool', name: 'Tool', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', command: '/opt/elsewhere/node' } } },
        ],
      },
      { 'index.mjs': 'export function mount() {}\n', 'server.mjs': '// server\n' },
    );
    const plan = (await pluginOf('com.example.env')).runPlan;
    expect(plan.servers[0].env).toEqual({
      set: [
        { name: 'FLAVOUR', value: 'plain' },
        { name: 'NODE_OPTIONS', value: '--require /tmp/evil.cjs' },
        { name: 'LD_PRELOAD', value: '/tmp/evil.so' },
        { name: 'PATH', value: '/tmp/evil-bin' },
      ],
      // The host's own PATH is not passed on: the plugin's replaces it.
      inherited: [
        'HOME',
        'LOGNAME',
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
    });
    expect(plan.warnings.map((w: { code: string; variable?: string; subject: string }) => [w.code, w.variable ?? null, w.subject])).toEqual([
      ['ENV_CHANGES_CODE', 'NODE_OPTIONS', 'server com.example.env.main'],
      ['ENV_CHANGES_CODE', 'LD_PRELOAD', 'server com.example.env.main'],
      ['ENV_CHANGES_CODE', 'PATH', 'server com.example.env.main'],
      ['COMMAND_OUTSIDE_PLUGIN', null, 'server com.example.env.tool'],
    ]);

    // Said before trusting (chatos apps), and again by chatos trust.
    const listing = (await cli('apps')).stdout;
    expect(listing).toContain('WARNING: server com.example.env.main is started with NODE_OPTIONS="--require /tmp/evil.cjs", which changes which code runs');
    expect(listing).toContain('WARNING: server com.example.env.tool runs /opt/elsewhere/node, a program outside the plugin folder');
    const trusted = await cli('trust', 'com.example.env');
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('environment: FLAVOUR=plain NODE_OPTIONS="--require /tmp/evil.cjs" LD_PRELOAD=/tmp/evil.so PATH=/tmp/evil-bin; from the host: HOME, LOGNAME, SHELL, TERM, USER');
    expect(trusted.stdout).toContain('WARNING: server com.example.env.main is started with LD_PRELOAD=/tmp/evil.so');
    expect((await pluginOf('com.example.env')).trust.state).toBe('trusted');

    // The environment is part of what is pinned: editing it (even a harmless variable) un-trusts the plugin.
    const manifestFile = path.join(dir, 'plugin.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    manifest.apps[0].ai.mcp.env.FLAVOUR = 'spicy';
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const after = await pluginOf('com.example.env');
    expect(after.trust).toMatchObject({ state: 'changed', changes: { modified: ['plugin.json'] } });
    expect(after.runPlan.servers[0].env.set[0]).toEqual({ name: 'FLAVOUR', value: 'spicy' });
  });
});
