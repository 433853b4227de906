import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpEverything } from '../helpers/everythingHttp.js';
import { startRegistry, type RegistryFixture } from '../helpers/mcpRegistry.js';
import { runCli, type CliRun } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos catalog …` (issue 46): an MCP Registry's servers from a terminal,
 * against a local registry that answers as the official one does. A search
 * shows what each entry would run; an add writes a typed server into
 * mcp.yaml (its secret in the key store) that then really starts; what
 * ChatOS will not run is refused with the reason, nothing written.
 */

const registries: RegistryFixture[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
});

async function world(): Promise<{ reg: RegistryFixture; home: string; cli: (...args: string[]) => Promise<CliRun> }> {
  const reg = await startRegistry();
  registries.push(reg);
  const home = tempDir('chatos-cli-catalog-');
  return { reg, home, cli: (...args) => runCli(['--home', home, ...args], { timeoutMs: 90_000 }) };
}

describe('chatos catalog', () => {
  it('searches a registry and shows what an entry would run, with the values it asks for', async () => {
    const { reg, cli } = await world();
    const found = await cli('catalog', 'search', 'weather', '--registry', reg.url);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain(`2 server(s) from ${reg.url} matching "weather":`);
    expect(found.stdout).toContain('runs: npx -y @modelcontextprotocol/server-weather@1.0.0 <config_path> --port 8080');

    const paged = await cli('--json', 'catalog', 'search', '--registry', reg.url, '--limit', '3');
    const page = JSON.parse(paged.stdout) as { entries: { name: string }[]; nextCursor?: string };
    expect(page.entries).toHaveLength(3);
    const next = await cli('--json', 'catalog', 'search', '--registry', reg.url, '--limit', '3', '--cursor', page.nextCursor!);
    expect((JSON.parse(next.stdout) as { entries: { name: string }[] }).entries[0]!.name).toBe('io.github.example/container');

    const shown = await cli('catalog', 'show', 'io.github.user/remote-weather', '--registry', reg.url);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('connects to: https://<host>/mcp');
    expect(shown.stdout).toContain('asks Authorization (header, required, secret, kept in the key store)');

    const sse = await cli('catalog', 'show', 'io.github.example/old-sse', '--registry', reg.url);
    expect(sse.stdout).toMatch(/cannot be added: .*SSE/);
  });

  it('adds an entry as a typed server that starts, its secret in the key store; a hostile one is refused and nothing is written', async () => {
    const { reg, home, cli } = await world();
    const port = await startHttpEverything();
    const file = path.join(home, 'chatos', 'mcp.yaml');

    const evil = await cli('catalog', 'add', 'io.github.evil/shell', '--registry', reg.url);
    expect(evil.code).toBe(1);
    expect(evil.stderr).toContain('is not a valid npm package name; ChatOS will not run it');
    const missing = await cli('catalog', 'add', 'io.github.chatos-test/everything', '--registry', reg.url, '--set', `port=${port}`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('a value is needed for X-Api-Key (your key)');
    expect(fs.existsSync(file)).toBe(false);

    const added = await runCli(
      ['--home', home, 'catalog', 'add', 'io.github.chatos-test/everything', '--registry', reg.url, '--as', 'everything', '--set', `port=${port}`, '--secret-stdin', 'X-Api-Key'],
      {
        input: 'key-from-stdin-42\n',
        timeoutMs: 90_000,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added everything to mcp.yaml (registry id chatos::everything)');
    const yaml = fs.readFileSync(file, 'utf8');
    expect(yaml).toContain(`url: http://127.0.0.1:${port}/mcp`);
    expect(yaml).not.toContain('key-from-stdin-42');

    const listed = await cli('mcp', 'list');
    expect(listed.stdout).toContain('header X-Api-Key = •••• (stored)');
    const tested = await cli('mcp', 'test', 'everything');
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/ok: everything started in \d+ ms/);
  });

  it('says so when the registry is not one', async () => {
    const { reg, cli } = await world();
    const html = await cli('catalog', 'search', '--registry', `${reg.url}/html/`);
    expect(html.code).toBe(1);
    expect(html.stderr).toContain('answered wrongly: it answered "text/html", not JSON');
  });
});
