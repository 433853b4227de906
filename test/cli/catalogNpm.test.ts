import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installedVersion, startRegistry, type RegistryFixture } from '../helpers/mcpRegistry.js';
import { runCli, type CliRun } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos catalog` with an npm package that really installs (issue 46): the
 * registry's entry for @modelcontextprotocol/server-everything, pinned to
 * the version this repository's lockfile holds, is found, added to mcp.yaml
 * as the exact `npx -y NAME@VERSION ARGS` it shows, and then really started
 * by `chatos mcp test`, which lists the package's own tools. npx runs an
 * exact version the project at the working folder holds from that tree, so
 * the start needs no network; a command written wrong (no pin, another
 * version, arguments out of order) would differ from the plan shown and
 * would not start this server.
 */

const PACKAGE = '@modelcontextprotocol/server-everything';
const ENTRY = 'io.github.modelcontextprotocol/server-everything';

let reg: RegistryFixture;
let home: string;
const cli = (...args: string[]): Promise<CliRun> => runCli(['--home', home, ...args], { timeoutMs: 90_000 });

beforeAll(async () => {
  reg = await startRegistry();
  home = tempDir('chatos-cli-catalog-npm-');
});

afterAll(async () => {
  await reg?.close();
});

describe('chatos catalog with a real npm package', () => {
  it('finds the entry, adds it as the command it shows, and the server starts and lists its tools', async () => {
    const version = installedVersion(PACKAGE);
    const found = await cli('catalog', 'search', 'server-everything', '--registry', reg.url);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain(`1 server(s) from ${reg.url} matching "server-everything":`);
    expect(found.stdout).toContain(`runs: npx -y ${PACKAGE}@${version} stdio`);
    const shown = await cli('catalog', 'show', ENTRY, '--registry', reg.url);
    expect(shown.stdout).toContain(`runs: npx -y ${PACKAGE}@${version} stdio`);
    expect(shown.stdout).toContain(`downloads: the npm package ${PACKAGE} ${version} from https://registry.npmjs.org, by npx when it first starts`);

    const added = await cli('catalog', 'add', ENTRY, '--registry', reg.url);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added server-everything to mcp.yaml (registry id chatos::server-everything)');
    const written = parse(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')) as { servers: Record<string, unknown> };
    expect(written.servers['server-everything']).toEqual({ command: 'npx', args: ['-y', `${PACKAGE}@${version}`, 'stdio'] });

    const tested = await cli('--json', 'mcp', 'test', 'server-everything');
    expect(tested.code, tested.stderr).toBe(0);
    const result = JSON.parse(tested.stdout) as { ok: boolean; tools: { name: string }[] };
    expect(result.ok).toBe(true);
    // The package's own tools, as its dist/tools/ names them: this server, not another that happened to start.
    expect(result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
  });
});
