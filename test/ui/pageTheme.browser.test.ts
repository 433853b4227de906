import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_THEME_TOKENS } from '../../src/shared/pageTheme.js';
import { openServedUi, screenshot, type ServeProcess } from '../helpers/browser.js';

/**
 * A plugin page sees the window's design tokens as CSS variables, and they
 * follow a theme switch with no reload: the built-in Workbench page (styled
 * only with them) in Chromium against chatos serve. Screenshots:
 * test-output/screenshots/page-theme-{light,dark}.png.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let serve: ServeProcess;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-theme-'));
  ui = await openServedUi(['--home', home, '--no-watch']);
  ({ serve, page } = ui);
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('theme tokens in a plugin page', () => {
  it('are CSS variables of the page that change with the theme', async () => {
    await page.goto(`${serve.url}#/apps/chatos.workbench/panel`);
    await page.getByTestId('page-uiapp').waitFor({ timeout: 20_000 });
    const body = page.frameLocator('[data-testid="uiapp-frame"]').locator('body');
    await expect.poll(() => body.textContent(), { timeout: 20_000 }).toContain('What it may use');
    const seen = () =>
      body.evaluate((node) => {
        const root = getComputedStyle(node.ownerDocument.documentElement);
        const style = getComputedStyle(node);
        return {
          theme: node.ownerDocument.documentElement.dataset.theme,
          primary: root.getPropertyValue('--chatos-color-primary').trim(),
          bg: root.getPropertyValue('--chatos-color-bg').trim(),
          radius: root.getPropertyValue('--chatos-radius').trim(),
          font: style.fontFamily,
          background: style.backgroundColor,
        };
      });
    await expect.poll(async () => (await seen()).theme, { timeout: 20_000 }).toBe('light');
    expect(await seen()).toMatchObject({ primary: PAGE_THEME_TOKENS.light.colorPrimary, bg: PAGE_THEME_TOKENS.light.colorBgContainer, radius: '8px', background: 'rgb(255, 255, 255)' });
    expect((await seen()).font).toContain('Segoe UI');
    await expect.poll(() => body.textContent(), { timeout: 20_000 }).toContain('No server yet');
    await screenshot(page, 'page-theme-light');

    await page.getByTestId('theme-switch').click();
    await expect.poll(async () => (await seen()).theme, { timeout: 20_000 }).toBe('dark');
    expect(await seen()).toMatchObject({ primary: PAGE_THEME_TOKENS.dark.colorPrimary, bg: PAGE_THEME_TOKENS.dark.colorBgContainer, background: 'rgb(20, 20, 20)' });
    // The page's own theme label follows host.theme.onChange.
    await expect.poll(() => body.textContent()).toMatch(/themedark/);
    await screenshot(page, 'page-theme-dark');
  });
});
