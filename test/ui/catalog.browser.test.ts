import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openRoute, openServedUi, serveApi } from '../helpers/browser.js';
import { startHttpEverything } from '../helpers/everythingHttp.js';
import { packBundle, signBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { installedVersion, startRegistry, type RegistryFixture } from '../helpers/mcpRegistry.js';
import { startOAuthServer } from '../helpers/oauthServer.js';

/**
 * The Catalog page of `chatos serve` in Chromium (issue 46): a local MCP
 * Registry's entries listed and searched, each with the exact command or
 * URL it would run, the ones ChatOS cannot add marked so, an invalid entry
 * named; adding one asks for its values (the secret one into the key
 * store) and adds a server that really starts. An mcpb entry installs as
 * a plugin with the plan a dropped bundle gets, its download held to the
 * SHA-256 the entry names. A remote that asks for sign-in (a real OAuth
 * server on this machine) is signed in to from the drawer, through the MCP
 * servers' own sign-in. A real npm package (the everything server, at the
 * version the lockfile installs, so npx runs it from node_modules) is added
 * with the exact command and download its plan shows, and starts from the
 * Servers page with its own tools.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let page: Page;
let home: string;
let reg: RegistryFixture;

beforeAll(async () => {
  const weather = await packBundle();
  signBundle(weather, 'Catalog Publisher');
  const swapped = await packBundle(weatherManifest({ version: '6.6.6' }), 'swapped');
  reg = await startRegistry({
    bundles: new Map([
      ['weather', fs.readFileSync(weather)],
      ['swapped', fs.readFileSync(swapped)],
    ]),
  });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-catalog-home-'));
  ui = await openServedUi(['--home', home]);
  ({ page } = ui);
  await serveApi(ui.serve)('settings.update', { patch: { mcpRegistryUrl: reg.url } });
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  await reg?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Catalog page', () => {
  it('lists and searches the registry, shows what each entry runs, and adds one with its secret in the key store', async () => {
    const port = await startHttpEverything();
    await openRoute(page, '#/catalog', 'page-catalog');
    expect(await page.getByTestId('catalog-registry').textContent()).toContain(reg.url);
    await page.getByTestId('catalog-refused').waitFor();
    const npm = page.getByTestId('catalog-entry-io.github.user/local-weather');
    expect(await npm.textContent()).toContain('Runs: npx -y @modelcontextprotocol/server-weather@1.0.0 <config_path> --port 8080');
    expect(await page.getByTestId('catalog-entry-io.github.evil/shell').textContent()).toContain('is not a valid npm package name; ChatOS will not run it');
    expect(await page.getByTestId('catalog-add-io.github.example/old-sse').isDisabled()).toBe(true);

    await page.getByTestId('catalog-search').locator('input').fill('chatos-test');
    await page.getByTestId('catalog-search').locator('input').press('Enter');
    await page.getByTestId('catalog-entry-io.github.user/local-weather').waitFor({ state: 'detached' });
    const entry = page.getByTestId('catalog-entry-io.github.chatos-test/everything');
    expect(await entry.textContent()).toContain('Connects to: http://127.0.0.1:<port>/mcp');

    await page.getByTestId('catalog-add-io.github.chatos-test/everything').click();
    await page.getByTestId('catalog-add-drawer').waitFor();
    await page.getByTestId('catalog-value-port').fill(String(port));
    await page.getByTestId('catalog-value-X-Api-Key').fill('window-key-77');
    expect(await page.getByTestId('catalog-value-X-Api-Key').getAttribute('type')).toBe('password');
    await page.getByTestId('catalog-server-name').fill('everything');
    await page.getByTestId('catalog-add-confirm').click();
    await page.getByTestId('catalog-add-drawer').waitFor({ state: 'detached' });

    const list = await serveApi(ui.serve)<{ servers: { name: string; url?: string; headers: unknown[] }[] }>('mcpServers.list');
    expect(list.servers).toEqual([expect.objectContaining({ name: 'everything', url: `http://127.0.0.1:${port}/mcp`, headers: [{ key: 'X-Api-Key', value: { kind: 'secret', set: true } }] })]);
    expect(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')).not.toContain('window-key-77');
    const tested = await serveApi(ui.serve)<{ ok: boolean; tools: unknown[] }>('mcpServers.test', { name: 'everything' });
    expect(tested.ok).toBe(true);
    expect(tested.tools.length).toBeGreaterThan(0);
  });

  it('installs an mcpb entry as a plugin: fetched, checked against its SHA-256, shown as a dropped bundle is, its key asked', async () => {
    await openRoute(page, '#/catalog', 'page-catalog');
    const pluginsDir = path.join(home, 'chatos', 'ui_apps', 'plugins');
    const installedOf = () => (fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir) : []);

    // A file that is not the one the entry names: refused with the reason, nothing shown or installed.
    await page.getByTestId('catalog-add-io.github.chatos-test/bundle-swapped').click();
    await page.getByTestId('catalog-bundle-fetch').click();
    await page.getByTestId('catalog-add-error').waitFor();
    expect(await page.getByTestId('catalog-add-error').textContent()).toContain('its catalog entry names: it is not the file the registry lists');
    expect(await page.getByTestId('bundle-preview').count()).toBe(0);
    expect(installedOf()).toEqual([]);
    await page.locator('.ant-drawer-close').click();
    await page.getByTestId('catalog-add-drawer').waitFor({ state: 'detached' });

    await page.getByTestId('catalog-add-io.github.chatos-test/bundle').click();
    expect(await page.getByTestId('catalog-add-drawer').textContent()).toContain(`the MCP bundle ${reg.url}/bundles/weather.mcpb (SHA-256 `);
    expect(await page.getByTestId('catalog-server-name').count()).toBe(0);
    await page.getByTestId('catalog-bundle-fetch').click();
    await page.getByTestId('bundle-preview').waitFor();
    expect(await page.getByTestId('bundle-author').textContent()).toBe('Test Author');
    expect(await page.getByTestId('bundle-signature').textContent()).toMatch(/^Self-signed by Catalog Publisher/);
    expect(await page.getByTestId('bundle-command').textContent()).toBe(`node ${path.join(pluginsDir, 'mcpb.weather', 'server', 'index.mjs')} \${user_config.units}`);
    expect(await page.getByTestId('bundle-tools').textContent()).toBe('forecast');
    await page.getByTestId('bundle-config-api_key').fill('sk-catalog-window');
    await page.getByTestId('catalog-bundle-install').click();
    await page.getByTestId('catalog-add-drawer').waitFor({ state: 'detached' });

    expect(installedOf()).toEqual(['mcpb.weather']);
    const listed = await serveApi(ui.serve)<{ plugins: { id?: string; trust: unknown }[] }>('apps.list');
    expect(listed.plugins.find((p) => p.id === 'mcpb.weather')?.trust).toMatchObject({ state: 'untrusted' });
    expect(fs.readFileSync(path.join(pluginsDir, 'mcpb.weather', 'plugin.json'), 'utf8')).not.toContain('sk-catalog-window');
  });

  it('adds a remote that asks for sign-in, then signs in to it from the drawer', async () => {
    const oauth = await startOAuthServer({ account: 'lin@example.com' });
    await openRoute(page, '#/catalog', 'page-catalog');
    await page.getByTestId('catalog-add-io.github.chatos-test/tracker').click();
    await page.getByTestId('catalog-value-port').fill(new URL(oauth.url).port);
    await page.getByTestId('catalog-add-confirm').click();
    // Added, and the server answered 401 when asked: the drawer stays open on the sign-in.
    await page.getByTestId('catalog-signin-needed').waitFor();
    expect(await page.getByTestId('catalog-signin-needed').textContent()).toContain('It asks for: mcp:read');

    const opened = page.context().waitForEvent('page');
    await page.getByTestId('catalog-signin').click();
    const tab = await opened;
    await tab.getByText('You can close this tab').waitFor();
    await page.getByTestId('catalog-add-drawer').waitFor({ state: 'detached' });
    await tab.close();

    const list = await serveApi(ui.serve)<{ servers: { name: string; signIn?: { kind: string; account?: string } }[] }>('mcpServers.list');
    expect(list.servers.find((s) => s.name === 'tracker')?.signIn).toMatchObject({ kind: 'signed-in', account: 'lin@example.com' });
    const tested = await serveApi(ui.serve)<{ ok: boolean }>('mcpServers.test', { name: 'tracker' });
    expect(tested.ok).toBe(true);
    expect(oauth.accepted.length).toBeGreaterThan(0);
  });

  it('adds a real npm package with the command and download its plan shows, and it starts from the Servers page', async () => {
    const pkg = '@modelcontextprotocol/server-everything';
    const version = installedVersion(pkg);
    const command = `npx -y ${pkg}@${version} stdio`;
    await openRoute(page, '#/catalog', 'page-catalog');
    await page.getByTestId('catalog-search').locator('input').fill('server-everything');
    await page.getByTestId('catalog-search').locator('input').press('Enter');
    await page.getByTestId('catalog-entry-io.github.user/local-weather').waitFor({ state: 'detached' });
    expect(await page.getByTestId('catalog-entry-io.github.modelcontextprotocol/server-everything').textContent()).toContain(`Runs: ${command}`);

    await page.getByTestId('catalog-add-io.github.modelcontextprotocol/server-everything').click();
    await page.getByTestId('catalog-add-drawer').waitFor();
    const plan = await page.getByTestId('catalog-add-drawer').textContent();
    expect(plan).toContain(`Runs: ${command}`);
    expect(plan).toContain(`Downloads on first start: the npm package ${pkg} ${version} from https://registry.npmjs.org, by npx when it first starts`);
    expect(await page.getByTestId('catalog-server-name').inputValue()).toBe('server-everything');
    await page.getByTestId('catalog-add-confirm').click();
    await page.getByTestId('catalog-add-drawer').waitFor({ state: 'detached' });
    // What was written is what the plan showed, word for word.
    const written = parse(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')) as { servers: Record<string, unknown> };
    expect(written.servers['server-everything']).toEqual({ command: 'npx', args: ['-y', `${pkg}@${version}`, 'stdio'] });

    await openRoute(page, '#/servers', 'page-servers');
    await page.getByTestId('server-row-chatos::server-everything').waitFor();
    await page.getByTestId('mcp-test-server-everything').click();
    const result = page.locator('[data-testid="mcp-test-result-server-everything"][data-ok="true"]');
    await result.waitFor({ timeout: 60_000 });
    // The package's own tools (its dist/tools/): this server started, not another.
    expect(await result.locator('li code').allTextContents()).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    await page.keyboard.press('Escape');
    await result.waitFor({ state: 'hidden' });
  });
});
