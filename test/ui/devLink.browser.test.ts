import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRoute, openServedUi, screenshot, type ServeProcess } from '../helpers/browser.js';
import { runCli } from '../helpers/runCli.js';

/**
 * A development link from the Apps page, in Chromium against `chatos serve`
 * (watching, as it does by default): the folder is linked after its run plan
 * is shown, tagged as a development plugin, and an edit of its page reloads
 * the open page with the new code and a notice of what changed, with no
 * "Trust again".
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let serve: ServeProcess;
let page: Page;
let home: string;
let dir: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-dev-home-'));
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-dev-')), 'sketch');
  expect((await runCli(['init', dir])).code).toBe(0);
  ui = await openServedUi(['--home', home]);
  ({ serve, page } = ui);
  // The window opens on Chat; links are made on the Apps page.
  await openRoute(page, '#/apps', 'page-apps');
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe('a development link', () => {
  it('is linked from the Apps page after showing what it runs, and tagged as one', async () => {
    await page.getByTestId('dev-link').click();
    await page.getByTestId('dev-link-dir').fill(dir);
    await page.getByTestId('dev-link-look').click();
    const plan = page.getByTestId('dev-link-plan');
    await plan.waitFor();
    expect(await plan.textContent()).toContain(path.join(dir, 'mcp', 'server.mjs'));
    await screenshot(page, 'dev-link-01-plan');
    await page.getByTestId('dev-link-ok').click();
    const card = page.getByTestId('plugin-sketch');
    await card.waitFor({ timeout: 20_000 });
    await card.getByTestId('plugin-source-dev').waitFor();
    expect(await card.getByTestId('plugin-trust').textContent()).toMatch(/trusted/i);
    // Every process sees the link: the CLI lists it.
    expect((await runCli(['dev', 'list', '--home', home])).stdout).toContain(dir);
  });

  it('reloads its open page on an edit, says what changed, and needs no trust again', async () => {
    await page.goto(`${serve.url}#/apps/sketch/main`);
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    await expect.poll(() => frame.locator('body').textContent(), { timeout: 20_000 }).toContain('Edit app/index.mjs to build this page.');
    const entry = path.join(dir, 'app', 'index.mjs');
    fs.writeFileSync(entry, fs.readFileSync(entry, 'utf8').replace('Edit app/index.mjs to build this page.', 'Edited while linked.'));
    await expect.poll(() => frame.locator('body').textContent(), { timeout: 30_000 }).toContain('Edited while linked.');
    const notice = page.getByTestId('dev-reloaded');
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain('app/index.mjs');
    // Still trusted: no "Trust again" block, and the backend answers the reloaded page.
    expect(await page.getByTestId('trust-block-sketch').count()).toBe(0);
    await expect.poll(() => frame.locator('body').textContent(), { timeout: 30_000 }).toContain('This is visit');
    await screenshot(page, 'dev-link-02-reloaded');
    const apps = (await runCli(['apps', '--json', '--home', home])).json();
    expect(apps.plugins.find((p: { id: string }) => p.id === 'sketch').trust.state).toBe('trusted');
  });
});
