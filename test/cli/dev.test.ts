import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos dev`: a plugin folder linked in place is trusted once, stays
 * trusted through edits (the next call runs the edited server, with no
 * `chatos trust`), is marked as a development plugin, and unlinking takes
 * its trust and registrations away while leaving the folder.
 */
describe('chatos dev', () => {
  it('links the folder chatos init made, runs its edits without trusting again, and unlinks it', async () => {
    const home = tempDir('chatos-dev-home-');
    const dir = path.join(tempDir('chatos-dev-'), 'greeter');
    const cli = (...args: string[]) => runCli([...args, '--home', home]);
    const init = await cli('init', dir);
    expect(init.code, init.stderr).toBe(0);
    // The hint names this folder, not its parent (which --plugins would scan as a root of plugins).
    expect(init.stdout).toContain(`next: chatos dev ${dir}`);
    expect(init.stdout).not.toContain('--plugins');

    const linked = await cli('dev', dir);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`linked greeter at ${dir} (a development plugin); trusted to run:`);
    expect(linked.stdout).toContain(`server greeter.main: node --import`);
    expect((await cli('dev', 'list')).stdout).toContain(`greeter  ${dir}  [loaded]`);
    const apps = (await cli('apps', '--json')).json();
    const plugin = apps.plugins.find((p: { id: string }) => p.id === 'greeter');
    expect({ source: plugin.source, trust: plugin.trust.state }).toEqual({ source: 'dev', trust: 'trusted' });

    const call = () => cli('call', 'mcp_greeter_main_hello', '--app', 'greeter', '--args', '{"name":"Ada"}');
    const before = await call();
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain('Hello, Ada!');
    const server = path.join(dir, 'mcp', 'server.mjs');
    fs.writeFileSync(server, fs.readFileSync(server, 'utf8').replace('Hello, ${args.name}!', 'Howdy, ${args.name}!'));
    const after = await call();
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('Howdy, Ada!');

    const unlinked = await cli('dev', '--unlink', 'greeter');
    expect(unlinked.code, unlinked.stderr).toBe(0);
    expect(unlinked.stdout).toContain('removed its registrations');
    expect(fs.existsSync(path.join(dir, 'plugin.json'))).toBe(true);
    expect((await cli('dev', 'list')).stdout).toContain('no plugin folder is linked');
    const servers = (await cli('registry', 'servers', '--json')).json();
    expect(JSON.stringify(servers)).not.toContain('greeter');
    expect((await call()).code).toBe(1);
  }, 300_000);

  it('refuses a folder that is not there, one scanned from a plugin root, an unknown unlink, and a folder with --unlink, each with the fix', async () => {
    const home = tempDir('chatos-dev-home-');
    const cli = (...args: string[]) => runCli([...args, '--home', home]);
    const gone = path.join(tempDir('chatos-dev-'), 'not-there');
    const missing = await cli('dev', gone);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${gone} is not a folder`);
    expect(missing.stderr).toContain('give the plugin folder (the one with plugin.json)');

    // A plugin in a root given with --plugins is scanned from there already: linking it too would register it twice.
    const root = tempDir('chatos-dev-root-');
    const inRoot = path.join(root, 'greeter');
    expect((await cli('init', inRoot)).code).toBe(0);
    const scanned = await cli('dev', inRoot, '--plugins', root);
    expect(scanned.code).toBe(1);
    expect(scanned.stderr).toContain(`${inRoot} is already scanned from its plugin root ${root}`);
    expect(scanned.stderr).toContain('move it out of that root to link it');

    const unknown = await cli('dev', '--unlink', 'com.example.nothing');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('com.example.nothing is not a linked plugin folder or id');
    expect(unknown.stderr).toContain('chatos dev list');

    const both = await cli('dev', inRoot, '--unlink', 'greeter');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give either a folder to link or --unlink, not both');
    expect((await cli('dev', 'list')).stdout).toContain('no plugin folder is linked');
  });

  it('a folder whose plugin id is installed already: the linked copy is the one loaded (as npm link does), and the warning names both folders', async () => {
    const home = tempDir('chatos-dev-home-');
    const cli = (...args: string[]) => runCli([...args, '--home', home]);
    const installed = path.join(tempDir('chatos-dev-'), 'greeter');
    expect((await cli('init', installed)).code).toBe(0);
    expect((await cli('install', installed)).code).toBe(0);
    const copy = path.join(tempDir('chatos-dev-'), 'greeter');
    expect((await cli('init', copy)).code).toBe(0);
    const linked = await cli('dev', copy);
    expect(linked.code).toBe(0);
    expect(linked.stderr).toContain('PLUGIN_ID_DUPLICATE');
    expect(linked.stderr).toContain(
      `${path.join(copy, 'plugin.json')} id: plugin id "greeter" is also used by ${path.join(home, 'chatos', 'ui_apps', 'plugins', 'greeter', 'plugin.json')} (user); this copy is the one loaded`,
    );
    const apps = (await cli('apps', '--json')).json();
    expect(apps.plugins.filter((p: { id: string }) => p.id === 'greeter').map((p: { source: string }) => p.source)).toEqual(['dev', 'user']);
  });

  it('refuses a folder without plugin.json, with the fix', async () => {
    const home = tempDir('chatos-dev-home-');
    const run = await runCli(['dev', tempDir('chatos-dev-empty-'), '--home', home]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('has no plugin.json');
    expect(run.stderr).toContain('chatos init DIR');
  });
});
