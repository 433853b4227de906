import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../../src/core/mcp/catalogSource/catalogError.js';
import { McpCatalog } from '../../../../src/core/mcp/catalogSource/mcpCatalog.js';
import { RegistryClient, registryBase } from '../../../../src/core/mcp/catalogSource/registryClient.js';
import type { CatalogEntryView } from '../../../../src/shared/mcpCatalog.js';
import { startTestHost } from '../../../helpers/gatewayHost.js';
import { startHttpsServer } from '../../../helpers/httpsServer.js';
import { startRegistry, type RegistryFixture } from '../../../helpers/mcpRegistry.js';

/**
 * The MCP server catalog against a local MCP Registry that answers as the
 * official one does (test/helpers/mcpRegistry.ts): pages by cursor, search,
 * each way to run an entry spelled out, hostile entries refused with their
 * reason, a broken registry said to be broken, and an add that is the MCP
 * servers' own add (mcp.yaml, secrets in the key store).
 */

const registries: RegistryFixture[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
});

async function registry(): Promise<RegistryFixture> {
  const started = await startRegistry();
  registries.push(started);
  return started;
}

async function refusal(promise: Promise<unknown>): Promise<CatalogError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

const byName = (entries: CatalogEntryView[], name: string) => entries.find((e) => e.name === name)!;

describe('reading a registry', () => {
  it('over https, refuses a redirect down to plain http: the plain hop is never asked', async () => {
    const reg = await registry();
    const secure = await startHttpsServer((request, response) => response.writeHead(302, { location: `${reg.url}${request.url}` }).end());
    try {
      const refused = await refusal(new RegistryClient(registryBase(secure.origin)).list({}));
      expect(refused.code).toBe('CATALOG_UNREACHABLE');
      expect(refused.message).toBe(`the MCP registry at ${secure.origin} is not read: ${secure.origin} redirected to ${new URL(reg.url).origin} over plain http`);
      expect(reg.requests).toEqual([]);
    } finally {
      await secure.close();
    }
  });

  it('pages by the cursor the registry gives, asks for the latest versions, and refuses an entry that is not server.json', async () => {
    const reg = await registry();
    const client = new RegistryClient(registryBase(reg.url));
    const first = await client.list({ limit: 4 });
    expect(first.entries.map((e) => e.server.name)).toEqual(['io.github.user/local-weather', 'io.github.user/remote-weather', 'io.github.example/time-py', 'io.github.example/container']);
    expect(reg.requests[0]!.searchParams.get('version')).toBe('latest');
    expect(reg.requests[0]!.searchParams.get('limit')).toBe('4');
    const names: string[] = [];
    const refused: string[] = [];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.list({ limit: 4, cursor });
      names.push(...page.entries.map((e) => e.server.name));
      refused.push(...page.refused.map((r) => `${r.name}: ${r.reason}`));
      cursor = page.nextCursor;
    }
    expect(names).toEqual([
      'io.github.example/bundle',
      'io.github.example/old-sse',
      'io.github.chatos-test/everything',
      'io.github.evil/shell',
      'io.github.evil/option',
      'io.github.evil/proto',
      'io.github.chatos-test/bundle',
      'io.github.chatos-test/bundle-swapped',
      'io.github.chatos-test/bundle-unpinned',
      'io.github.chatos-test/tracker',
      'io.github.modelcontextprotocol/server-everything',
    ]);
    expect(refused).toEqual([expect.stringMatching(/^\(no name\): server\.name: /)]);
  });

  it('searches by name', async () => {
    const reg = await registry();
    const catalog = new McpCatalog({ registryUrl: () => reg.url, admin: { add: () => Promise.reject(new Error('not here')) } });
    const page = await catalog.search({ search: 'weather' });
    expect(page.entries.map((e) => e.name)).toEqual(['io.github.user/local-weather', 'io.github.user/remote-weather']);
    expect(page.registry).toBe(reg.url);
    expect(reg.requests.at(-1)!.searchParams.get('search')).toBe('weather');
  });

  it('says what is wrong with a registry that answers HTML, loops its cursor, floods, never answers, or is not there', async () => {
    const reg = await registry();
    const html = await refusal(new RegistryClient(registryBase(`${reg.url}/html/`)).list({}));
    expect(html.code).toBe('CATALOG_BAD_ANSWER');
    expect(html.message).toContain('"text/html", not JSON');

    const looping = new RegistryClient(registryBase(`${reg.url}/loop/`));
    const first = await looping.list({});
    expect(first.nextCursor).toBe('c1');
    expect((await refusal(looping.list({ cursor: 'c1' }))).code).toBe('CATALOG_CURSOR_LOOP');

    const flood = await refusal(new RegistryClient(registryBase(`${reg.url}/flood/`), { maxBytes: 256 * 1024 }).list({}));
    expect(flood.code).toBe('CATALOG_BAD_ANSWER');
    expect(flood.message).toContain('larger than 256 KiB');

    const silent = await refusal(new RegistryClient(registryBase(`${reg.url}/silent/`), { timeoutMs: 300 }).list({}));
    expect(silent).toMatchObject({ code: 'CATALOG_UNREACHABLE', message: expect.stringContaining('did not answer in 0.3 s') });

    const port = new URL(reg.url).port;
    await reg.close();
    registries.length = 0;
    const gone = await refusal(new RegistryClient(registryBase(`http://127.0.0.1:${port}`)).list({}));
    expect(gone.code).toBe('CATALOG_UNREACHABLE');
    expect(() => registryBase('file:///etc/passwd')).toThrow(CatalogError);
  });
});

describe('offline', () => {
  it('lists the answer last seen for a search when the registry cannot be reached, marked so; a search never made is still an error', async () => {
    const reg = await registry();
    const { host } = await startTestHost();
    await host.settings.update({ mcpRegistryUrl: reg.url });
    const fresh = await host.catalog.search({ search: 'weather' });
    expect(fresh.offline).toBeUndefined();
    await reg.close();
    registries.length = 0;

    const cached = await host.catalog.search({ search: 'weather' });
    expect(cached.entries.map((e) => e.name)).toEqual(fresh.entries.map((e) => e.name));
    expect(cached.offline).toMatchObject({ savedAt: expect.any(String), reason: expect.stringContaining('could not be reached') });
    expect((await refusal(host.catalog.search({ search: 'time' }))).code).toBe('CATALOG_UNREACHABLE');
  });
});

describe('what an entry would run', () => {
  it('spells out each way to run it: the command, the download, the URL, the values asked (secret ones marked)', async () => {
    const reg = await registry();
    const catalog = new McpCatalog({ registryUrl: () => reg.url, admin: { add: () => Promise.reject(new Error('not here')) } });
    const { entries } = await catalog.search({ limit: 100 });

    const npm = byName(entries, 'io.github.user/local-weather');
    expect(npm.suggestedName).toBe('local-weather');
    expect(npm.options[0]).toMatchObject({
      kind: 'package',
      installable: true,
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-weather@1.0.0', '<config_path>', '--port', '8080'],
      downloads: 'the npm package @modelcontextprotocol/server-weather 1.0.0 from https://registry.npmjs.org, by npx when it first starts',
    });
    expect(npm.options[0]!.inputs).toEqual([
      { name: 'API_KEY', kind: 'env', required: true, secret: true },
      { name: 'config_path', kind: 'argument', required: false, secret: false },
    ]);

    expect(byName(entries, 'io.github.example/time-py').options[0]).toMatchObject({ command: 'uvx', args: ['mcp-server-time==0.6.2', '--local-timezone', '<local-timezone>'] });
    const oci = byName(entries, 'io.github.example/container');
    expect(oci.status).toBe('deprecated');
    expect(oci.options[0]).toMatchObject({ command: 'docker', args: ['run', '-i', '--rm', '-e', 'LOG_LEVEL', 'docker.io/example/mcp-server:1.0.0'] });

    const remote = byName(entries, 'io.github.user/remote-weather');
    expect(remote.options[0]).toMatchObject({ kind: 'remote', installable: true, url: 'https://<host>/mcp' });
    expect(remote.options[0]!.inputs.map((i) => [i.name, i.kind, i.secret, i.default])).toEqual([
      ['host', 'variable', false, 'api.example.com'],
      ['Authorization', 'header', true, undefined],
    ]);

    // A bundle installs as a plugin: its address and the digest its download must have, for the bundle install.
    expect(byName(entries, 'io.github.example/bundle').options[0]).toMatchObject({
      installable: true,
      bundle: { url: 'https://github.com/example/releases/download/v1.0.0/package.mcpb', sha256: 'fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce' },
    });
    expect(byName(entries, 'io.github.example/bundle').options[0]!.command).toBeUndefined();
    expect(byName(entries, 'io.github.example/old-sse').options[0]).toMatchObject({ installable: false, reason: expect.stringContaining('SSE') });
    expect(byName(entries, 'io.github.evil/shell').options[0]).toMatchObject({
      installable: false,
      reason: '"evil; touch /tmp/chatos-catalog-pwned" is not a valid npm package name; ChatOS will not run it',
    });
    expect(byName(entries, 'io.github.evil/option').options[0]).toMatchObject({ installable: false });
    // A variable named __proto__ is a name like any other: kept in a Map, no object's prototype touched.
    expect(byName(entries, 'io.github.evil/proto').options[0]!.inputs).toEqual([{ name: '__proto__', kind: 'variable', required: false, secret: false, default: 'x' }]);
    expect(({} as Record<string, unknown>).default).toBeUndefined();
  });
});

describe('adding an entry', () => {
  it('adds it through the MCP servers add: mcp.yaml gets the command, the secret goes to the key store', async () => {
    const reg = await registry();
    const { host, home } = await startTestHost();
    await host.settings.update({ mcpRegistryUrl: reg.url });

    const missing = await refusal(host.catalog.add({ name: 'io.github.user/local-weather' }));
    expect(missing).toMatchObject({ code: 'CATALOG_VALUES', message: 'a value is needed for API_KEY' });
    const unknown = await refusal(host.catalog.add({ name: 'io.github.user/local-weather', values: [{ name: 'NOPE', value: '1' }] }));
    expect(unknown.code).toBe('CATALOG_VALUES');

    const server = await host.catalog.add({
      name: 'io.github.user/local-weather',
      values: [
        { name: 'API_KEY', value: 'sk-weather-123' },
        { name: 'config_path', value: '/etc/w.json' },
      ],
    });
    expect(server).toMatchObject({ name: 'local-weather', id: 'chatos::local-weather', command: 'npx', args: ['-y', '@modelcontextprotocol/server-weather@1.0.0', '/etc/w.json', '--port', '8080'] });
    expect(server.env).toEqual([{ key: 'API_KEY', value: { kind: 'secret', set: true } }]);
    const yaml = fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8');
    expect(yaml).not.toContain('sk-weather-123');

    // Each refusal names why, and nothing is written.
    for (const name of ['io.github.evil/shell', 'io.github.example/old-sse', 'io.github.example/bundle']) expect((await refusal(host.catalog.add({ name }))).code).toBe('CATALOG_NOT_INSTALLABLE');
    // A bundle is the bundle install's, never a server in mcp.yaml; one with no SHA-256 to check its file against is not offered at all.
    expect(await host.catalog.bundle({ name: 'io.github.example/bundle' })).toEqual({
      url: 'https://github.com/example/releases/download/v1.0.0/package.mcpb',
      sha256: 'fe333e598595000ae021bd27117db32ec69af6987f507ba7a63c90638ff633ce',
    });
    expect(await host.catalog.bundle({ name: 'io.github.user/local-weather' })).toBeUndefined();
    expect((await refusal(host.catalog.add({ name: 'io.github.nobody/none' }))).code).toBe('CATALOG_NOT_FOUND');
    expect((await host.mcp.admin.list()).servers.map((s) => s.name)).toEqual(['local-weather']);
    expect(fs.existsSync('/tmp/chatos-catalog-pwned')).toBe(false);
  });

  it('a remote: the URL with its variables, a secret header in the key store', async () => {
    const reg = await registry();
    const { host } = await startTestHost();
    const server = await host.catalog.add({ registry: reg.url, name: 'io.github.user/remote-weather', serverName: 'weather', values: [{ name: 'Authorization', value: 'Bearer t0k3n' }] });
    expect(server).toMatchObject({ name: 'weather', url: 'https://api.example.com/mcp', headers: [{ key: 'Authorization', value: { kind: 'secret', set: true } }] });
  });
});
