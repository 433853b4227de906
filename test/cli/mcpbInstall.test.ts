import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileZip, packBundle, signBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/** MCP Bundles (.mcpb) built by @anthropic-ai/mcpb's own pack and sign, installed by `chatos install` (docs/using/bundles.md). */

function setup() {
  const home = tempDir();
  const cli = (args: string[], input?: string) => runCli([...args, '--home', home], input === undefined ? {} : { input });
  const pluginsDir = path.join(home, 'chatos', 'ui_apps', 'plugins');
  const installedDir = path.join(pluginsDir, 'mcpb.weather');
  return { home, cli, pluginsDir, installedDir };
}

/** The bundle's one tool through the gateway: what its server was started with. */
async function forecast(cli: ReturnType<typeof setup>['cli']) {
  const listed = await cli(['tools', '--app', 'chatos', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const tools = listed.json();
  const name = (tools.tools as { name: string }[]).map((t) => t.name).find((n) => n.endsWith('forecast'));
  expect(name).toBeDefined();
  const called = await cli(['call', name!, '--app', 'chatos', '--json']);
  expect(called.code, called.stderr).toBe(0);
  return JSON.parse(called.json().result.content[0].text) as { sky: string; units: string; key: string | null };
}

describe('chatos install FILE.mcpb', () => {
  it('shows the bundle, keeps the sensitive setting in the key store, runs its server, and an update keeps the settings', async () => {
    const { cli, installedDir } = setup();
    const bundle = await packBundle();

    const install = await cli(['install', bundle, '--config', 'units=imperial', '--secret-stdin', 'api_key', '--json'], 'sk-test-123');
    expect(install.code, install.stderr).toBe(0);
    const result = install.json();
    expect(result).toMatchObject({ pluginId: 'mcpb.weather', dir: installedDir, trust: 'untrusted' });
    expect(result.bundle).toMatchObject({
      name: 'Weather',
      author: { name: 'Test Author', email: 'author@example.com' },
      signature: { status: 'unsigned' },
      command: ['node', path.join(installedDir, 'server', 'index.mjs'), '${user_config.units}'],
      tools: [{ name: 'forecast', description: 'the forecast' }],
    });
    expect(result.bundle.userConfig.map((f: { key: string; sensitive: boolean }) => [f.key, f.sensitive])).toEqual([
      ['units', false],
      ['api_key', true],
    ]);
    // The run plan trust pins: the exact command, and the key only by the name of its stored value.
    const server = result.runPlan.servers[0];
    expect(server.command.at(-2)).toBe(path.join(installedDir, 'server', 'index.mjs'));
    expect(server.command.at(-1)).toBe('imperial');
    expect(server.env.set).toEqual([{ name: 'WEATHER_KEY', value: '(stored value mcpb.weather.api_key)' }]);
    const written = fs.readdirSync(installedDir, { recursive: true }).map(String);
    for (const file of written.filter((f) => fs.statSync(path.join(installedDir, f)).isFile())) expect(fs.readFileSync(path.join(installedDir, file), 'utf8')).not.toContain('sk-test-123');

    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect(await forecast(cli)).toEqual({ sky: 'clear', units: 'imperial', key: 'sk-test-123' });

    // A new version updates in place and asks nothing again: the units are kept, and the stored key by the user's word
    // (neither copy is signed, so nothing but the user vouches that they come from the same maker).
    const next = await packBundle(weatherManifest({ version: '1.1.0' }));
    const again = await cli(['install', next, '--yes', '--keep-secrets', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ updated: true, trust: 'changed' });
    expect((await cli(['trust', 'mcpb.weather'])).code).toBe(0);
    expect(await forecast(cli)).toEqual({ sky: 'clear', units: 'imperial', key: 'sk-test-123' });

    expect((await cli(['uninstall', 'mcpb.weather', '--yes'])).code).toBe(0);
    expect(fs.existsSync(installedDir)).toBe(false);
  });

  it('refuses a bundle without its required sensitive setting, naming it, and installs nothing', async () => {
    const { cli, pluginsDir } = setup();
    const refused = await cli(['install', await packBundle()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('user_config.api_key: API key is required');
    expect(fs.readdirSync(pluginsDir)).toEqual([]);
  });

  it('shows who signed a signed bundle, and refuses one changed after signing', async () => {
    const { cli, pluginsDir } = setup();
    const bundle = await packBundle();
    signBundle(bundle, 'Weather Publisher');
    const shown = await cli(['install', bundle, '--secret-stdin', 'api_key'], 'k');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/signature: self-signed by Weather Publisher \(valid until 2036-01-01, SHA-256 [0-9A-F:]{23}…\)/);

    const tampered = await packBundle(weatherManifest(), 'tampered');
    signBundle(tampered, 'Weather Publisher');
    const bytes = fs.readFileSync(tampered);
    // A byte of the archive (before the signature block) changed: the signed digest no longer matches.
    bytes[40] = bytes[40]! ^ 0xff;
    fs.writeFileSync(tampered, bytes);
    const home2 = setup();
    const refused = await home2.cli(['install', tampered, '--secret-stdin', 'api_key'], 'k');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('does not match its signature');
    expect(fs.existsSync(home2.pluginsDir) ? fs.readdirSync(home2.pluginsDir) : []).toEqual([]);
    expect(fs.readdirSync(pluginsDir)).toEqual(['mcpb.weather']);
  });

  it('refuses a manifest with an unknown field or a wrong manifest_version, naming the field', async () => {
    const { cli, pluginsDir } = setup();
    const unknown = path.join(tempDir(), 'unknown.mcpb');
    hostileZip(unknown, 'plain', weatherManifest({ run_as_root: true }));
    const refusedUnknown = await cli(['install', unknown]);
    expect(refusedUnknown.code).toBe(1);
    expect(refusedUnknown.stderr).toContain('run_as_root');
    const version = path.join(tempDir(), 'version.mcpb');
    hostileZip(version, 'plain', weatherManifest({ manifest_version: '9.9' }));
    const refusedVersion = await cli(['install', version]);
    expect(refusedVersion.code).toBe(1);
    expect(refusedVersion.stderr).toContain('manifest_version "9.9" is not one this host reads');
    expect(fs.readdirSync(pluginsDir)).toEqual([]);
  });

  it.each([
    ['traversal', 'escapes the plugin folder'],
    ['symlink', 'symbolic link'],
    ['bomb', 'unpacks to more than 200 MiB'],
  ] as const)('refuses an archive holding a %s before writing anything', async (kind, reason) => {
    const { cli, pluginsDir, home } = setup();
    const file = path.join(tempDir(), `${kind}.mcpb`);
    hostileZip(file, kind);
    const refused = await cli(['install', file, '--secret-stdin', 'api_key'], 'k');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(reason);
    expect(fs.readdirSync(pluginsDir)).toEqual([]);
    expect(fs.readdirSync(path.dirname(pluginsDir)).filter((name) => name.startsWith('.bundle-'))).toEqual([]);
    expect(fs.existsSync(path.join(home, 'escaped.txt'))).toBe(false);
  });

  it('refuses an entry point outside the bundle, a bare ".." too, naming the field', async () => {
    for (const entry of ['../server/index.mjs', '..']) {
      const { cli, pluginsDir } = setup();
      const manifest = weatherManifest();
      const server = manifest.server as { entry_point: string; mcp_config: { args: string[] } };
      const bundle = await packBundle({ ...manifest, server: { ...server, entry_point: entry, mcp_config: { ...server.mcp_config, args: [`\${__dirname}/${entry}`] } } });
      const refused = await cli(['install', bundle, '--secret-stdin', 'api_key'], 'k');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`server.entry_point: entry_point "${entry}" is outside the bundle`);
      expect(fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []).toEqual([]);
    }
  });

  it('states no issuer as fact for a certificate no authority vouches for: it only claims one', async () => {
    const { cli } = setup();
    const bundle = await packBundle();
    signBundle(bundle, 'Anthropic PBC', 'DigiCert Trusted G4 Code Signing RSA4096 SHA384 2021 CA1');
    const shown = await cli(['install', bundle, '--secret-stdin', 'api_key'], 'k');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      /signature: signed by Anthropic PBC, whom no certificate authority vouches for \(claims to be issued by DigiCert Trusted G4 Code Signing RSA4096 SHA384 2021 CA1; valid until 2036-01-01, SHA-256 [0-9A-F:]{23}…\)/,
    );
    expect(shown.stdout).not.toContain('(issued by DigiCert');
  });
});
