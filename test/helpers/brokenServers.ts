import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { writeMcpYaml } from './mcpYaml.js';
import { writePlugin } from './plugins.js';
import { runCli } from './runCli.js';
import { tempDir } from './tempDir.js';

/** A server that dies as it starts, saying why on stderr. */
export const CRASH = "console.error('boom: config missing'); console.error('second line'); process.exit(3)";
export const PLUGIN = 'com.example.broken';
export const PLUGIN_SERVER = `${PLUGIN}::${PLUGIN}.main`;

/**
 * The home and plugin root every broken-server test uses: mcp.yaml's two
 * broken servers, a trusted plugin with a missing command, an agent of it.
 * `makeDir`: folders that outlive one test (tempDir's go after each).
 */
export async function brokenWorld(makeDir: (prefix: string) => string = tempDir): Promise<{ home: string; root: string; yaml: string }> {
  const home = makeDir('chatos-broken-home-');
  const root = makeDir('chatos-broken-plugins-');
  const yaml = writeMcpYaml(home, { missing: { command: 'chatos-no-such-command' }, crashy: { command: process.execPath, args: ['-e', CRASH] } });
  writePlugin(
    root,
    'broken',
    {
      manifestVersion: 1,
      id: PLUGIN,
      name: 'Broken',
      version: '1.0.0',
      apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', command: 'chatos-no-such-runtime', allowMain: true } } }],
    },
    { 'index.mjs': 'export function mount() {}\n', 'server.mjs': '// never runs\n' },
  );
  const cli = (...args: string[]) => runCli([...args, '--home', home, '--plugins', root], { timeoutMs: 60_000 });
  expect((await cli('trust', PLUGIN)).code).toBe(0);
  const agent = path.join(home, 'agent.json');
  fs.writeFileSync(agent, JSON.stringify({ id: 'uses-broken', name: 'Uses broken', uiApps: [{ pluginId: PLUGIN, appId: 'main', mcp: true }] }));
  expect((await cli('agents', 'create', '--file', agent)).code).toBe(0);
  return { home, root, yaml };
}
