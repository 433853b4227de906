import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packBundle, signBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * What an MCP Bundle's update keeps, and from whom (review finding F5, docs/using/bundles.md#updates): the settings
 * are the host's record, not a file the bundle can write; a new signer gets no stored secret unless the user says so;
 * uninstalling deletes the bundle's stored values, and a fresh install adopts nothing left behind. Real bundles packed
 * and signed by @anthropic-ai/mcpb, installed and run by the real CLI.
 */

function setup() {
  const home = tempDir();
  const cli = (args: string[], input?: string) => runCli([...args, '--home', home], input === undefined ? {} : { input });
  const dataDir = path.join(home, 'chatos', 'ui_apps', 'data', 'mcpb.weather');
  const secretsFile = path.join(home, 'chatos', 'secrets.json');
  return { home, cli, dataDir, secretsFile };
}

/** The bundle's one tool through the gateway: what its server was started with. */
async function forecast(cli: ReturnType<typeof setup>['cli']) {
  const listed = await cli(['tools', '--app', 'chatos', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const name = (listed.json().tools as { name: string }[]).map((t) => t.name).find((n) => n.endsWith('forecast'))!;
  const called = await cli(['call', name, '--app', 'chatos', '--json']);
  expect(called.code, called.stderr).toBe(0);
  return JSON.parse(called.json().result.content[0].text) as { sky: string; units: string; key: string | null };
}

const storedNames = (file: string): string[] => (fs.existsSync(file) ? Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets) : []);

describe('an MCP Bundle update keeps what the host recorded', () => {
  it('ignores settings the bundle wrote into its own data folder', async () => {
    const { cli, dataDir } = setup();
    const install = await cli(['install', await packBundle(), '--config', 'units=imperial', '--secret-stdin', 'api_key'], 'sk-kept-1');
    expect(install.code, install.stderr).toBe(0);
    // The running bundle owns its data folder: what it writes there is not the host's bookkeeping.
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'bundle-config.json'), JSON.stringify({ values: { units: 'set-by-the-bundle' }, secrets: ['api_key'] }));

    const update = await cli(['install', await packBundle(weatherManifest({ version: '1.1.0' })), '--yes', '--keep-secrets', '--json']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.json().runPlan.servers[0].command.at(-1)).toBe('imperial');
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect(await forecast(cli)).toEqual({ sky: 'clear', units: 'imperial', key: 'sk-kept-1' });
  });

  it('carries no stored secret to a bundle of another signer unless --keep-secrets says so', async () => {
    const { cli } = setup();
    const first = await packBundle();
    signBundle(first, 'Weather Publisher');
    expect((await cli(['install', first, '--secret-stdin', 'api_key'], 'sk-publisher')).code).toBe(0);

    // Same name, a new version, signed by someone else: warned about, and the stored key is not theirs to have.
    const other = await packBundle(weatherManifest({ version: '1.1.0' }));
    signBundle(other, 'Someone Else');
    const refused = await cli(['install', other, '--yes']);
    expect(refused.stdout).toMatch(/signed by another publisher than the installed copy/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('user_config.api_key: API key is required');

    // The user's word carries it over.
    const kept = await cli(['install', other, '--yes', '--keep-secrets']);
    expect(kept.code, kept.stderr).toBe(0);
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect((await forecast(cli)).key).toBe('sk-publisher');

    // Unsigned after signed is a change of signer too; a key given anew is the new one's.
    const unsigned = await packBundle(weatherManifest({ version: '1.2.0' }));
    const given = await cli(['install', unsigned, '--yes', '--secret-stdin', 'api_key'], 'sk-new');
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toMatch(/signed by another publisher than the installed copy/);
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect((await forecast(cli)).key).toBe('sk-new');
  });

  it('gives an unsigned update the stored secrets of an unsigned copy only if it is the same bundle and the user says so', async () => {
    const { cli } = setup();
    expect((await cli(['install', await packBundle(), '--secret-stdin', 'api_key'], 'sk-unsigned')).code).toBe(0);

    // Same name and author, still unsigned: nothing proves the same maker, so the key waits for the user's word.
    const same = await packBundle(weatherManifest({ version: '1.1.0' }));
    const unasked = await cli(['install', same, '--yes']);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain('user_config.api_key: API key is required');
    expect(unasked.stdout).toMatch(/neither this copy nor the installed one is signed, so nothing shows they come from the same maker; its stored secrets \(api_key\)/);
    const kept = await cli(['install', same, '--yes', '--keep-secrets']);
    expect(kept.code, kept.stderr).toBe(0);
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect((await forecast(cli)).key).toBe('sk-unsigned');

    // Another author's unsigned bundle of that name installs as the same plugin: it never gets the key, asked or not.
    const other = await packBundle(weatherManifest({ version: '1.2.0', author: { name: 'Someone Else' } }));
    const refused = await cli(['install', other, '--yes', '--keep-secrets']);
    expect(refused.stdout).toMatch(/unsigned, and not the same bundle \(name and author\) as the installed copy; its stored secrets \(api_key\) are not given to this one/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('user_config.api_key: API key is required');
    const given = await cli(['install', other, '--yes', '--secret-stdin', 'api_key'], 'sk-other');
    expect(given.code, given.stderr).toBe(0);
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect((await forecast(cli)).key).toBe('sk-other');
  });

  it('uninstall deletes its stored values, and a fresh install adopts nothing left behind', async () => {
    const { cli, secretsFile, dataDir } = setup();
    expect((await cli(['install', await packBundle(), '--config', 'units=imperial', '--secret-stdin', 'api_key'], 'sk-gone')).code).toBe(0);
    expect(storedNames(secretsFile)).toContain('mcp:mcpb.weather.api_key');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'the data folder stays without --purge');

    expect((await cli(['uninstall', 'mcpb.weather', '--yes'])).code).toBe(0);
    expect(storedNames(secretsFile)).not.toContain('mcp:mcpb.weather.api_key');
    expect(fs.existsSync(path.join(dataDir, 'notes.txt'))).toBe(true);

    // Another bundle of that name starts from nothing: no key, no settings.
    const fresh = await cli(['install', await packBundle()]);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain('user_config.api_key: API key is required');
    const given = await cli(['install', await packBundle(), '--secret-stdin', 'api_key', '--json'], 'sk-fresh');
    expect(given.code, given.stderr).toBe(0);
    expect(given.json().runPlan.servers[0].command.at(-1)).toBe('metric');
  });
});
