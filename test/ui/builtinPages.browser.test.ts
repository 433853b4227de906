import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_THEME_TOKENS } from '../../src/shared/pageTheme.js';
import { type launchChromium, openChromiumOn, openRoute, openSidePanelItem, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';

/**
 * The built-in app pages in the window's design (issue 45 item 11), in
 * Chromium against a real `chatos serve`: the Git page's native select in
 * the theme's colours, the Notes page on the window's tokens (not a palette
 * of its own), and the Notes side panel listing the newest notes rather than
 * only a count; English and Chinese, light and dark, 1280 and 1440 wide.
 * Screenshots: test-output/screenshots/builtin-pages-*.
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const frameOf = (scope: string) => page.frameLocator(`${scope} [data-testid="uiapp-frame"]`);
/** An rgb() of a #rrggbb token, as getComputedStyle says it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const styleOf = (frame: FrameLocator, testid: string, property: string) => frame.getByTestId(testid).evaluate((node, name) => getComputedStyle(node).getPropertyValue(name), property);

/** The window in `locale` and `theme` at `width`, reloaded on `route`. */
async function look(locale: 'en' | 'zh', theme: 'light' | 'dark', width: number, route: string, root: string): Promise<void> {
  await page.evaluate(({ locale, theme }) => (localStorage.setItem('chatos.locale', locale), localStorage.setItem('chatos.theme', theme)), { locale, theme });
  await page.emulateMedia({ colorScheme: theme });
  await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
  await page.reload();
  await openRoute(page, route, root);
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-builtin-pages-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve));
  await api('agents.save', { agent: { id: 'helper', name: 'Helper', language: 'en' } });
}, 120_000);

afterEach((context) => screenshotOnFailure(page, 'builtin-pages', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the built-in app pages', { timeout: 120_000 }, () => {
  for (const [locale, theme, width] of [
    ['en', 'light', 1280],
    ['zh', 'dark', 1440],
  ] as const) {
    it(`Git's controls and Notes are in the window's colours (${locale}, ${theme}, ${width})`, async () => {
      const tokens = PAGE_THEME_TOKENS[theme];
      await look(locale, theme, width, '#/apps/chatos.git/git', 'page-uiapp');
      const git = frameOf('');
      await git.getByTestId('git-repo').waitFor({ timeout: 20_000 });
      // The repository select was the browser's own control; now the theme's background, border and text.
      await expect.poll(() => styleOf(git, 'git-repo', 'background-color'), { timeout: 20_000 }).toBe(rgb(String(tokens.colorBgContainer)));
      expect(await styleOf(git, 'git-repo', 'border-top-color')).toBe(rgb(String(tokens.colorBorder)));
      expect(await styleOf(git, 'git-repo', 'border-top-left-radius')).toBe(`${tokens.borderRadiusSM}px`);
      await screenshot(page, `builtin-pages-git-${locale}-${theme}-${width}`);

      await openRoute(page, '#/apps/chatos.notes/notes', 'page-uiapp');
      const notes = frameOf('');
      await notes.getByTestId('notes-input').waitFor({ timeout: 20_000 });
      await notes.getByTestId('notes-input').fill(`${locale} ${theme} note`);
      await notes.getByTestId('notes-add').click();
      await notes.locator('[data-testid="notes-item"]', { hasText: `${locale} ${theme} note` }).waitFor({ timeout: 20_000 });
      // Its own GitHub-like palette is gone: the page, its button and its text are the window's.
      const root = notes.locator('#notes-app');
      expect(await root.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe(rgb(String(tokens.colorBgContainer)));
      expect(await styleOf(notes, 'notes-add', 'background-color')).toBe(rgb(String(tokens.colorPrimary)));
      await screenshot(page, `builtin-pages-notes-${locale}-${theme}-${width}`);
    });
  }

  it('the Notes side panel lists the newest notes, not only their count', async () => {
    const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper' });
    await look('en', 'light', 1440, `#/chat/${conversation.id}`, 'chat-pane');
    await openSidePanelItem(page, 'side-panel-app-chatos.notes-notes');
    const panel = frameOf('[data-testid="side-panel"]');
    await expect.poll(() => panel.getByTestId('notes-count').textContent(), { timeout: 20_000 }).toBe('2 notes');
    // The newest first.
    expect(await panel.getByTestId('notes-compact-item').allTextContents()).toEqual(['zh dark note', 'en light note']);
    await screenshot(page, 'builtin-pages-notes-panel-en-light-1440');
  });
});
