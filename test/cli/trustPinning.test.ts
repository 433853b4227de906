import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEWAY_SERVER } from '../helpers/gatewayHost.js';
import { makeZip, writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** A data home and an extra plugin root, and the CLI run against both. */
function world() {
  const home = tempDir();
  const extra = tempDir('chatos-extra-');
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', extra]);
  const pluginOf = (id: string) => cli('apps', '--json').json().plugins.find((p: { id?: string }) => p.id === id);
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
  it('code under .git is fingerprinted: editing it makes the plugin changed, and its server no longer runs', () => {
    const { extra, cli, pluginOf } = world();
    const dir = serverPlugin(extra, 'com.example.vcs', '.git/hooks/server.mjs');
    expect(cli('trust', 'com.example.vcs').code).toBe(0);
    const ran = cli('call', echo('com.example.vcs'), '--app', 'chatos', '--args', '{"text":"hi"}');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('hi');

    fs.appendFileSync(path.join(dir, '.git', 'hooks', 'server.mjs'), 'process.stderr.write("rewritten by git\\n");\n');
    const changed = pluginOf('com.example.vcs').trust;
    expect(changed).toMatchObject({ state: 'changed', changes: { added: [], removed: [], modified: ['.git/hooks/server.mjs'] } });
    const refused = cli('call', echo('com.example.vcs'), '--app', 'chatos', '--args', '{"text":"hi"}');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('changed since you trusted it');
  });

  it('install leaves .git out of a folder and of a zip, and says so', () => {
    const { home, cli } = world();
    const manifest = (id: string) => JSON.stringify({ manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'm', entry: 'index.mjs' }] });

    const folder = writePlugin(tempDir(), 'com.example.folder', JSON.parse(manifest('com.example.folder')), { 'index.mjs': 'export function mount() {}\n', '.git/config': '[core]\n', '.git/hooks/post-checkout': '#!/bin/sh\n' });
    const fromFolder = cli('install', folder);
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
    const fromZip = cli('install', zip, '--json');
    expect(fromZip.code).toBe(0);
    expect(fromZip.json().leftOut).toEqual(['.git', 'lib/.git']);
    const installed = path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.zipped');
    expect(fs.existsSync(path.join(installed, 'index.mjs'))).toBe(true);
    expect(fs.existsSync(path.join(installed, '.git'))).toBe(false);
    expect(fs.existsSync(path.join(installed, 'lib', '.git'))).toBe(false);
  });
});
