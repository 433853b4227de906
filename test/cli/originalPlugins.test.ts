import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestHost, trustPlugin } from '../helpers/gatewayHost.js';
import { originalPlugins } from '../helpers/originalPlugins.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Plugins written for the original ChatOS run unmodified (issue 18): their
 * server and backend import @modelcontextprotocol/sdk and zod without
 * bundling them, and get the host's copies through the --import hook the
 * run plan shows. Installed into a data home outside the repository, so
 * nothing but the hook can find those packages.
 */
const version = (name: string) => (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe.each(originalPlugins())('$label, unmodified', ({ dir, pluginId }) => {
  it('installs, shows the hook and the versions it gets in the run plan, trusts, and its hello tool answers through the gateway', async () => {
    const home = tempDir('chatos-original-');
    const installed = await runCli(['install', dir, '--home', home, '--json']);
    expect(installed.code, installed.stderr).toBe(0);
    const plan = installed.json().runPlan;
    const hook = `file://${path.join(repoRoot, 'runtime', 'host-modules.mjs')}`;
    expect(plan.servers[0].command.slice(0, 3)).toEqual(['node', '--import', hook]);
    expect(plan.backendNodeArgs).toEqual(['--import', hook]);
    expect(plan.hostModules).toEqual([
      { name: '@modelcontextprotocol/sdk', version: version('@modelcontextprotocol/sdk') },
      { name: '@modelcontextprotocol/server', version: version('@modelcontextprotocol/server') },
      { name: 'zod', version: version('zod') },
    ]);
    const trusted = await runCli(['trust', pluginId, '--home', home]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(
      `from the host, without bundling: @modelcontextprotocol/sdk@${version('@modelcontextprotocol/sdk')}, @modelcontextprotocol/server@${version('@modelcontextprotocol/server')}, zod@${version('zod')}`,
    );

    const tools = await runCli(['tools', '--app', pluginId, '--home', home, '--json']);
    expect(tools.code, tools.stderr).toBe(0);
    const hello = (tools.json().tools as { name: string; rawName: string }[]).find((t) => t.rawName === 'hello');
    expect(hello, tools.stdout).toBeDefined();
    const called = await runCli(['call', hello!.name, '--app', pluginId, '--args', '{"name":"Ada"}', '--home', home]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('Hello, Ada!');
  });

  it('its backend answers, importing what it imports from the host', async () => {
    const { host } = await startTestHost(({ pluginRoot }) => fs.cpSync(dir, path.join(pluginRoot, pluginId), { recursive: true }));
    trustPlugin(host, pluginId);
    const reply = await host.plugins.backends.invoke(pluginId, 'ping', { hello: 'world' });
    expect(reply).toMatchObject({ ok: true, result: { ok: true, pluginId, params: { hello: 'world' } } });
    await host.dispose();
  });
});

describe('the host-modules hook maps those two names and nothing else', () => {
  const server = (imports: string) => `${imports}\nprocess.stdout.write('imported\\n');\n`;
  const plugin = (root: string, id: string, source: string, files: Record<string, string> = {}) =>
    writePlugin(
      root,
      id,
      { manifestVersion: 1, id, name: id, version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true } } }] },
      { 'index.mjs': 'export function mount() {}\n', 'server.mjs': source, ...files },
    );
  const runServer = (pluginDir: string) => {
    const hook = path.join(repoRoot, 'runtime', 'host-modules.mjs');
    return spawnSync(process.execPath, ['--import', `file://${hook}`, path.join(pluginDir, 'server.mjs')], { encoding: 'utf8', cwd: pluginDir });
  };

  it('another package of the host (ajv, a dependency of the SDK) stays out of reach, for import and require', () => {
    const root = tempDir('chatos-hook-');
    const esm = runServer(plugin(root, 'esm', server("await import('ajv');")));
    expect(esm.status).not.toBe(0);
    expect(esm.stderr).toContain("Cannot find package 'ajv'");
    const cjs = runServer(plugin(root, 'cjs', server("import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('ajv');")));
    expect(cjs.status).not.toBe(0);
    expect(cjs.stderr).toContain("Cannot find module 'ajv'");
  });

  it('require() of the SDK and zod works too, and a plugin that bundles its own zod gets its own', () => {
    const root = tempDir('chatos-hook-');
    const cjs = runServer(
      plugin(root, 'cjs', server("import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nrequire('zod'); require('@modelcontextprotocol/sdk/server/mcp.js');")),
    );
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout).toBe('imported\n');
    const own = runServer(
      plugin(root, 'own', "import { mine } from 'zod';\nprocess.stdout.write(mine + '\\n');\n", {
        'node_modules/zod/package.json': JSON.stringify({ name: 'zod', version: '0.0.1', type: 'module', exports: './index.js' }),
        'node_modules/zod/index.js': "export const mine = 'the plugin\\'s own zod';\n",
      }),
    );
    expect(own.stdout).toBe("the plugin's own zod\n");
  });
});
