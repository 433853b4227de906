import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { brokenWorld, PLUGIN } from '../helpers/brokenServers.js';
import { serveApi } from '../helpers/serveApi.js';

/**
 * Broken servers in the UI, in Chromium against `chatos serve`: a server
 * whose command is missing and one that crashes as it starts are red error
 * cards with the reason (not grey "stopped" ones), Problems lists them, and
 * the plugin whose server cannot start is tagged on the Apps page.
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const made: string[] = [];

const open = (route: string, root: string) => openRoute(page, route, root);

beforeAll(async () => {
  // Folders for the whole file: the plugin root must outlive the first test.
  const { home, root } = await brokenWorld((prefix) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  });
  serve = await startServe(['--home', home, '--plugins', root, '--no-watch'], { LANG: 'en_US.UTF-8' });
  // The crash is known once something tried to start it.
  await serveApi(serve, 'servers.tools', { serverId: 'chatos::crashy' }).catch(() => undefined);
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ state: 'visible', timeout: 20_000 });
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('broken servers in the UI', () => {
  it('are error cards with the reason and the fix on the MCP servers page', async () => {
    await open('#/servers', 'page-servers');
    const missing = page.getByTestId('server-state-chatos::missing');
    await expect.poll(() => missing.textContent(), { timeout: 20_000 }).toContain('not found on PATH');
    const crashy = page.getByTestId('server-row-chatos::crashy');
    await expect.poll(() => crashy.getByTestId('server-state-chatos::crashy').textContent(), { timeout: 20_000 }).toContain('exited with code 3 as it started');
    expect(await crashy.textContent()).toContain('boom: config missing');
    expect(await crashy.textContent()).toContain('run its command yourself to see why');
    await crashy.scrollIntoViewIfNeeded();
    await screenshot(page, 'broken-01-servers');
  });

  it('are errors on the Problems page, and the plugin is tagged on the Apps page', async () => {
    await open('#/problems', 'page-problems');
    await expect.poll(() => page.getByTestId('page-problems').textContent(), { timeout: 20_000 }).toContain('SERVER_COMMAND_NOT_FOUND');
    expect(await page.getByTestId('page-problems').textContent()).toContain('SERVER_START_FAILED');
    await screenshot(page, 'broken-02-problems');
    await open('#/apps', 'page-apps');
    const card = page.getByTestId(`plugin-${PLUGIN}`);
    await card.getByTestId('plugin-server-broken').waitFor({ timeout: 20_000 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'broken-03-apps');
  });
});
