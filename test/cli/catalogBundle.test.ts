import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packBundle, signBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { startRegistry, type RegistryFixture } from '../helpers/mcpRegistry.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos catalog add` of a registry's mcpb entry (issue 46): a bundle
 * packed and signed here by @anthropic-ai/mcpb, served by the local
 * registry at the address its entry names with its fileSha256. It installs
 * through `chatos install URL`'s own plan (manifest, signature, exact
 * command, settings asked); a file that is not the one the entry names is
 * refused before it is opened, and nothing is installed.
 */

let reg: RegistryFixture;
let weatherSha: string;

beforeAll(async () => {
  const weather = await packBundle();
  signBundle(weather, 'Catalog Publisher');
  const bytes = fs.readFileSync(weather);
  weatherSha = createHash('sha256').update(bytes).digest('hex');
  // What the swapped entry's address serves now: another bundle than the one its SHA-256 was taken of.
  const swapped = fs.readFileSync(await packBundle(weatherManifest({ version: '6.6.6', description: 'not the published file' }), 'swapped'));
  reg = await startRegistry({
    bundles: new Map([
      ['weather', bytes],
      ['swapped', swapped],
    ]),
  });
});

afterAll(() => reg?.close());

function setup() {
  const home = tempDir('chatos-cli-catalog-bundle-');
  const cli = (args: string[], input?: string) => runCli(['--home', home, ...args, '--registry', reg.url], { timeoutMs: 90_000, ...(input === undefined ? {} : { input }) });
  return { home, cli, pluginsDir: path.join(home, 'chatos', 'ui_apps', 'plugins') };
}

const bundleFetches = () => reg.requests.filter((r) => r.pathname.startsWith('/bundles/')).length;

describe('a catalog entry that is an MCP bundle', () => {
  it('shows the address and digest, then installs it as chatos install does: signature, command and settings shown, the secret asked', async () => {
    const { cli, pluginsDir } = setup();
    const shown = await cli(['catalog', 'show', 'io.github.chatos-test/bundle']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`downloads: the MCP bundle ${reg.url}/bundles/weather.mcpb (SHA-256 ${weatherSha}, checked before it is unpacked)`);

    const added = await cli(['catalog', 'add', 'io.github.chatos-test/bundle', '--set', 'units=imperial', '--secret-stdin', 'api_key'], 'sk-catalog-1');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`fetched ${reg.url}/bundles/weather.mcpb: its SHA-256 is the ${weatherSha} the catalog names`);
    expect(added.stdout).toContain('bundle Weather 1.0.0 by Test Author <author@example.com>: Forecasts from a test bundle');
    expect(added.stdout).toContain('signature: self-signed by Catalog Publisher');
    expect(added.stdout).toMatch(/runs \(node\): node \S+mcpb\.weather\/server\/index\.mjs/);
    expect(added.stdout).toContain('setting api_key (string, required, sensitive: kept in the key store)');
    expect(fs.readdirSync(pluginsDir)).toEqual(['mcpb.weather']);
    const files = fs.readdirSync(path.join(pluginsDir, 'mcpb.weather'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const file of files) expect(fs.readFileSync(path.join(file.parentPath, file.name), 'utf8')).not.toContain('sk-catalog-1');
    // Not a server in mcp.yaml: the MCP servers' add is never asked to write it.
    expect(fs.existsSync(path.join(pluginsDir, '..', '..', 'mcp.yaml'))).toBe(false);
  });

  it('refuses a file whose SHA-256 is not the one the entry names, before opening it: nothing installed', async () => {
    const { cli, pluginsDir } = setup();
    const before = bundleFetches();
    const refused = await cli(['catalog', 'add', 'io.github.chatos-test/bundle-swapped', '--secret-stdin', 'api_key'], 'sk-catalog-2');
    expect(refused.code).toBe(1);
    expect(bundleFetches()).toBe(before + 1);
    expect(refused.stderr).toMatch(new RegExp(`has SHA-256 [0-9a-f]{64}, not the ${weatherSha} its catalog entry names: it is not the file the registry lists`));
    // The preview is shown only once a bundle is unpacked and read: it never was.
    expect(refused.stdout).not.toContain('bundle Weather');
    expect(fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []).toEqual([]);
  });

  it('refuses an entry that names no SHA-256 for its bundle, fetching nothing', async () => {
    const { cli } = setup();
    const before = bundleFetches();
    const refused = await cli(['catalog', 'add', 'io.github.chatos-test/bundle-unpinned']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('names no valid fileSha256 for its bundle');
    expect(bundleFetches()).toBe(before);
  });
});
