import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, pageReady, screenshot, startServe, type ServeProcess } from '../helpers/browser.js';
import { writeProviderPlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';

/**
 * The Apps page's plugin folders, in Chromium against `chatos serve`: adding
 * a folder remembers it for every process (the CLI sees it after), removing
 * one marks its registrations missing, and Prune removes them with their
 * grants. Each step is checked in the data home too, not only on screen.
 */

const GIT_SERVER = 'vcs_app::com.example.git.main';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
let root: string;

const cli = (...args: string[]) => runCli([...args, '--home', home]);

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-roots-home-'));
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-roots-'));
  writeProviderPlugin(root, 'com.example.git', 'vcs_app');
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ state: 'visible', timeout: 20_000 });
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

describe('plugin folders on the Apps page', () => {
  it('adds a folder: its plugin appears, and every process now scans it', async () => {
    await openRoute(page, '#/apps', 'page-apps');
    const card = page.getByTestId('plugin-roots');
    await card.waitFor();
    await page.getByTestId('plugin-root-input').fill(root);
    await page.getByTestId('plugin-root-add').click();
    await card.locator(`[data-testid="plugin-root"][data-dir="${root}"]`).waitFor();
    await page.getByTestId('plugin-com.example.git').waitFor({ timeout: 20_000 });
    expect(JSON.parse(fs.readFileSync(path.join(home, 'chatos', 'plugin-roots.json'), 'utf8')).roots).toEqual([root]);
    // Another process, with no --plugins, sees the plugin and may grant its server.
    expect((await cli('grant', 'aide', GIT_SERVER)).code).toBe(0);
    await screenshot(page, 'roots-01-added');
    // Registered, but untrusted: the Registry page lists it, marked as offered to no one.
    await page.evaluate(() => (window.location.hash = '#/registry'));
    await pageReady(page, '#/registry');
    await page.getByTestId('page-registry').waitFor();
    expect(await page.getByTestId(`not-runnable-${GIT_SERVER}`).first().textContent()).toBe('plugin not trusted');
    expect(await page.getByTestId(`missing-${GIT_SERVER}`).count()).toBe(0);
    await page.evaluate(() => (window.location.hash = '#/apps'));
    await pageReady(page, '#/apps');
    await page.getByTestId('plugin-roots').waitFor();
  });

  it('shows a bad folder as the host refuses it, with the fix', async () => {
    await page.getByTestId('plugin-root-input').fill(path.join(root, 'com.example.git'));
    await page.getByTestId('plugin-root-add').click();
    const error = page.getByTestId('plugin-root-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('is a plugin folder');
  });

  it('removes the folder: its registration is shown missing with its grant kept, and Prune removes both', async () => {
    await page.getByTestId('plugin-root-input').fill('');
    await page.locator(`[data-testid="plugin-root"][data-dir="${root}"]`).getByTestId('plugin-root-remove').click();
    await page.getByTestId('plugin-root-remove-ok').click();
    await page.locator(`[data-testid="plugin-root"][data-dir="${root}"]`).waitFor({ state: 'detached' });
    const missing = page.getByTestId('registrations-missing');
    await missing.waitFor();
    expect(await missing.textContent()).toContain(GIT_SERVER);
    expect((await cli('registry', 'grants', '--json')).json().grants.servers.map((g: { targetId: string }) => g.targetId)).toEqual([GIT_SERVER]);
    await screenshot(page, 'roots-02-missing');
    // The Registry page shows it with that state.
    await page.evaluate(() => (window.location.hash = '#/registry'));
    await pageReady(page, '#/registry');
    await page.getByTestId('page-registry').waitFor();
    await page.getByTestId(`missing-${GIT_SERVER}`).first().waitFor(); // antd renders a fixed table header twice
    // Missing says it all: not also marked as a plugin that may not run.
    expect(await page.getByTestId(`not-runnable-${GIT_SERVER}`).count()).toBe(0);
    await page.evaluate(() => (window.location.hash = '#/apps'));
    await pageReady(page, '#/apps');
    await page.getByTestId('plugin-roots').waitFor();

    await page.getByTestId('prune').click();
    await page.getByTestId('prune-ok').click();
    await missing.waitFor({ state: 'detached' });
    const registry = (await cli('registry', '--json')).json();
    expect(registry.grants.servers).toEqual([]);
    expect(registry.servers.map((s: { id: string }) => s.id)).not.toContain(GIT_SERVER);
  });
});
