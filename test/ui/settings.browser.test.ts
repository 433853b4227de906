import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchChromium, openRoute, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The Settings page (docs/using/settings.md) in a real `chatos serve`:
 * searched in either language (and with a 10,000-character query), font
 * size, defaults and the memory model stored in the core; the language and
 * theme chosen in one window followed by a new one that had other values
 * of its own (English light at 1280×800, then Chinese dark at 1440×900).
 */

let serve: ServeProcess;
let home: string;
const closers: (() => Promise<void>)[] = [];
let current: Page | undefined;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const settings = async () => (await api<{ settings: Record<string, unknown> }>('settings.get')).settings;

/** A window whose own copy (localStorage) says English and light, whatever the core says. */
async function openSettings(width: number, height: number): Promise<Page> {
  const chromium = await launchChromium();
  closers.push(chromium.close);
  const page = await chromium.context.newPage();
  await page.addInitScript(() => {
    localStorage.setItem('chatos.locale', 'en');
    localStorage.setItem('chatos.theme', 'light');
  });
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
  await openRoute(page, '#/settings', 'page-settings');
  return page;
}

const visibleItems = (page: Page) => page.locator('[data-testid^="setting-"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-testid')));

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-settings-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'embed-model' } });
  await api('models.save', { model: { id: 'claude', name: 'Claude', api: 'anthropic', baseUrl: 'http://127.0.0.1:9', model: 'claude' } });
  await api('agents.save', { agent: { id: 'helper', name: 'Helper', modelId: 'local' } });
}, 120_000);

afterEach(async (context) => screenshotOnFailure(current, 'settings', context));

afterAll(async () => {
  for (const close of closers) await close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Settings page', { timeout: 90_000 }, () => {
  it('finds settings in either language and stores them in the core (English, light, 1280×800)', async () => {
    const page = (current = await openSettings(1280, 800));
    await page.getByTestId('settings-home').getByText(home).waitFor();
    await page.getByTestId('settings-privacy').getByText('Chats with model "Local": messages, attachments and tool results go to 127.0.0.1:9').waitFor();
    await screenshot(page, 'settings-01-en-light-1280');

    const search = page.getByTestId('settings-search').locator('input');
    await search.fill('字号');
    await expect.poll(() => visibleItems(page)).toEqual(['setting-fontSize']);
    await search.fill('x'.repeat(10_000));
    await page.getByTestId('settings-none').waitFor();
    await search.fill('');
    await expect.poll(async () => (await visibleItems(page)).length).toBeGreaterThan(8);

    // Font size: stored in the core, and the window's text follows.
    await chooseOption(page, page.getByTestId('settings-font-size'), '16 px');
    await expect.poll(settings).toMatchObject({ fontSize: 16 });
    await expect
      .poll(() =>
        page
          .getByTestId('setting-language')
          .locator('.ant-typography')
          .first()
          .evaluate((el) => getComputedStyle(el).fontSize),
      )
      .toBe('16px');

    // Defaults and the memory model: only a model that can embed is offered for memories.
    await chooseOption(page, page.getByTestId('settings-defaultAgentId'), 'Helper');
    await chooseOption(page, page.getByTestId('settings-defaultModelId'), 'Claude');
    await page.getByTestId('settings-memoryEmbeddingModel').click();
    const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => offered.allTextContents()).toEqual(['Local (local)']);
    await offered.first().click();
    await expect.poll(settings).toMatchObject({ fontSize: 16, defaultAgentId: 'helper', defaultModelId: 'claude', memoryEmbeddingModel: 'local' });

    // Language and theme from this page: the core has them.
    await page.getByTestId('settings-language').getByText('中文').click();
    await page.getByTestId('settings-theme').getByText('深色').click();
    await expect.poll(settings).toMatchObject({ language: 'zh', theme: 'dark' });
  });

  it('is followed by a new window whose own copy said otherwise (Chinese, dark, 1440×900)', async () => {
    const page = (current = await openSettings(1440, 900));
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await expect.poll(() => page.getByTestId('settings-section-appearance').locator('.ant-card-head-title').textContent()).toBe('外观');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // English words find settings in the Chinese window.
    await page.getByTestId('settings-search').locator('input').fill('memory');
    await expect.poll(() => visibleItems(page)).toEqual(['setting-memoryModel']);
    await page.getByTestId('settings-search').locator('input').fill('');
    await screenshot(page, 'settings-02-zh-dark-1440');
    // Back to the defaults: unset in the core.
    await chooseOption(page, page.getByTestId('settings-font-size'), '14 px');
    await expect.poll(settings).not.toHaveProperty('fontSize');
  });
});
