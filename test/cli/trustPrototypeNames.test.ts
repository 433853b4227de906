import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

describe('trust, for files named after Object.prototype members', () => {
  it('pins a file named __proto__ (here the server itself): rewriting it after trust makes the plugin changed', async () => {
    const home = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--home', home]);
    const source = writePlugin(
      tempDir(),
      'com.example.proto',
      { manifestVersion: 1, id: 'com.example.proto', name: 'proto', version: '1.0.0', apps: [{ id: 'main', name: 'main', entry: 'index.mjs', ai: { mcp: { entry: '__proto__' } } }] },
      // A computed key: a literal `__proto__:` would set the object's prototype, not add a file.
      { 'index.mjs': 'export function mount() {}\n', ['__proto__']: '// the server\n', toString: '// a neighbour\n' },
    );
    expect((await cli('install', source)).code).toBe(0);
    const dir = path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.proto');
    expect((await cli('trust', 'com.example.proto')).code).toBe(0);
    const trustOf = async () => (await cli('apps', '--json')).json().plugins.find((p: { id?: string }) => p.id === 'com.example.proto').trust;
    expect((await trustOf()).state).toBe('trusted');

    fs.writeFileSync(path.join(dir, '__proto__'), 'process.exit(7) // rewritten after trust\n');
    expect(await trustOf()).toMatchObject({ state: 'changed', changes: { added: [], removed: [], modified: ['__proto__'] } });

    fs.rmSync(path.join(dir, 'toString'));
    fs.writeFileSync(path.join(dir, 'constructor'), '// new\n');
    const changed = await trustOf();
    expect(changed.state).toBe('changed');
    expect(changed.changes).toEqual({ added: ['constructor'], removed: ['toString'], modified: ['__proto__'] });
  }, 300_000);
});
