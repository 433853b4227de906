import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writePlugin } from '../helpers/plugins.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Issue 19, "Runtime": a server whose command is `node` runs under the app's
 * own Node (in the CLI the Node running it) when PATH has none or the user
 * chooses it, and a `system` choice with no node on PATH says what to do.
 * Through `chatos call` and a real stdio server that answers with its own
 * environment.
 */

const SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'processTestServer.mjs');

/** A folder with a `node` of its own: it marks the processes it starts, then runs the real Node. */
function pathWithMarkedNode(): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'node'), `#!/bin/sh\nCHATOS_TEST_NODE=from-path exec ${JSON.stringify(process.execPath)} "$@"\n`);
  fs.chmodSync(path.join(dir, 'node'), 0o755);
  return dir;
}

function homeWith(yaml: string): string {
  const home = tempDir();
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), yaml);
  return home;
}

const nodeServer = (name: string, extra = '') => `  ${name}:\n    command: node\n    args: [${JSON.stringify(SERVER)}]\n${extra}`;

function call(tool: string, home: string, pathValue: string, more: string[] = []) {
  return runCliProcess(['call', tool, '--app', 'chatos', '--json', '--home', home, ...more], { env: { PATH: pathValue }, timeoutMs: 60_000 });
}

function envOf(tool: string, home: string, pathValue: string, more: string[] = []): Record<string, string> {
  const run = call(tool, home, pathValue, more);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.json().result.content[0].text);
}

describe.skipIf(process.platform === 'win32')('which Node runs a `node` server', () => {
  it('with PATH emptied, a command: node server runs under the bundled Node (auto, the default)', () => {
    const home = homeWith(`version: 1\nservers:\n${nodeServer('plain')}`);
    const env = envOf('mcp_plain_env', home, '');
    // Nothing on PATH could have started it: the CLI's own Node did.
    expect(env.PATH).toBe('');
    expect(env.CHATOS_TEST_NODE).toBeUndefined();
  }, 300_000);

  it("auto takes node from PATH when there is one; bundled (the entry's own, or the nodeRuntime block) takes the app's", () => {
    const marked = pathWithMarkedNode();
    const home = homeWith(
      `version: 1\nnodeRuntime:\n  servers:\n    "chatos::byblock": bundled\nservers:\n${nodeServer('auto')}${nodeServer('own', '    nodeRuntime: bundled\n')}${nodeServer('byblock')}`,
    );
    expect(envOf('mcp_auto_env', home, marked).CHATOS_TEST_NODE).toBe('from-path');
    expect(envOf('mcp_own_env', home, marked).CHATOS_TEST_NODE).toBeUndefined();
    expect(envOf('mcp_byblock_env', home, marked).CHATOS_TEST_NODE).toBeUndefined();
  }, 300_000);

  it('system with no node on PATH: the error names the command, the PATH searched and both fixes', () => {
    const empty = tempDir();
    const home = homeWith(`version: 1\nnodeRuntime:\n  default: system\nservers:\n${nodeServer('strict')}`);
    const run = call('mcp_strict_env', home, empty);
    expect(run.code).not.toBe(0);
    const said = run.stdout + run.stderr;
    expect(said).toContain('"node" was not found on PATH');
    expect(said).toContain(empty);
    expect(said).toContain('install Node.js');
    expect(said).toContain('nodeRuntime: bundled');
  }, 300_000);

  it('a broken nodeRuntime block is an error on its path, and the servers still load', async () => {
    const home = homeWith(`version: 1\nnodeRuntime:\n  default: sometimes\nservers:\n${nodeServer('plain')}`);
    const run = await runCli(['mcp', 'list', '--json', '--home', home]);
    expect(run.stdout + run.stderr).toContain('MCP_NODE_RUNTIME_INVALID');
    expect(envOf('mcp_plain_env', home, '').PATH).toBe('');
  }, 300_000);

  it('a plugin server with command node runs with PATH emptied, and its run plan says which Node runs it', async () => {
    const root = tempDir();
    const home = tempDir();
    const dir = writePlugin(
      root,
      'noded',
      { manifestVersion: 1, id: 'com.example.noded', name: 'Noded', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', allowMain: true } } }] },
      { 'index.mjs': 'export function mount() {}\n', 'server.mjs': `import ${JSON.stringify(pathToFileURL(SERVER).href)};\n` },
    );
    expect((await runCli(['trust', 'com.example.noded', '--home', home, '--plugins', root])).code).toBe(0);
    const env = envOf('mcp_com_example_noded_main_env', home, '', ['--plugins', root]);
    expect(env.PATH).toBe('');
    const plan = (await runCli(['apps', '--json', '--home', home, '--plugins', root])).json().plugins.find((p: { id: string }) => p.id === 'com.example.noded').runPlan;
    expect(plan.servers[0]).toMatchObject({ command: expect.arrayContaining(['node']), nodeRuntime: 'auto' });
    expect(fs.existsSync(dir)).toBe(true);
  }, 300_000);
});
