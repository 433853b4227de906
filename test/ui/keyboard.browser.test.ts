import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pageReady, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The keyboard (docs/using/keyboard.md) in a real `chatos serve` and
 * Chromium, driven by keys only: the command palette (found in both
 * languages, a 10,000-character query), the shortcuts sheet, a shortcut
 * pressed while a modal is open, and on the Chat page focus, regenerate,
 * Esc to stop a streaming answer and ↑ to edit the last message; keys
 * typed in the composer stay text. Then the same on a Mac (⌘, not Ctrl),
 * in Chinese and dark, at 1440×900.
 */

let serve: ServeProcess;
let provider: ProviderServer;
let home: string;
const closers: (() => Promise<void>)[] = [];

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

/** A page on the served window, its language, theme and platform set before the first load. */
async function openWindow(options: { width: number; height: number; locale: 'en' | 'zh'; theme: 'light' | 'dark'; mac: boolean }): Promise<Page> {
  const chromium = await launchChromium();
  closers.push(chromium.close);
  const page = await chromium.context.newPage();
  await page.addInitScript(
    ({ locale, theme, mac }) => {
      localStorage.setItem('chatos.locale', locale);
      localStorage.setItem('chatos.theme', theme);
      // What a Mac's Chromium reports: the window reads the platform from these.
      if (mac) {
        Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' });
        Object.defineProperty(navigator, 'userAgentData', { get: () => ({ platform: 'macOS' }) });
      }
    },
    { locale: options.locale, theme: options.theme, mac: options.mac },
  );
  await page.setViewportSize({ width: options.width, height: options.height });
  await page.emulateMedia({ colorScheme: options.theme });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
  await pageReady(page, '/chat');
  // The keyboard's listener loads just after the first screen: keys are pressed once it listens.
  await page.locator('html[data-keys-ready]').waitFor({ state: 'attached' });
  return page;
}

const palette = (page: Page) => page.locator('[data-keys-dialog="palette"] .ant-modal');
const sheet = (page: Page) => page.locator('[data-keys-dialog="sheet"] .ant-modal');
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
/** Nothing focused (the page itself has the keys), as after a click on empty space. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const route = (page: Page) => page.evaluate(() => window.location.hash);

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-keys-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-keys' });
  await api('agents.save', { agent: { id: 'helper', name: 'Helper', modelId: 'local' } });
}, 120_000);

let current: Page | undefined;
afterEach(async (context) => screenshotOnFailure(current, 'keyboard', context));

afterAll(async () => {
  for (const close of closers) await close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the keyboard', { timeout: 90_000 }, () => {
  it('opens pages and actions from the palette, shows the sheet, and drives a chat (Ctrl, English, light, 1280×800)', async () => {
    const page = (current = await openWindow({ width: 1280, height: 800, locale: 'en', theme: 'light', mac: false }));

    // Ctrl+K; a Chinese word finds the page in the English window; Enter opens it.
    await page.keyboard.press('Control+K');
    await palette(page).waitFor();
    expect(await focused(page)).toBe('command-palette-input');
    await page.keyboard.type('模型');
    await expect.poll(() => page.locator('[role="option"]').allTextContents()).toEqual([expect.stringContaining('Models')]);
    await page.keyboard.press('Enter');
    await pageReady(page, '/models');
    await palette(page).waitFor({ state: 'hidden' });

    // A query of 10,000 characters finds nothing and breaks nothing; cleared, the list is whole again.
    await page.keyboard.press('Control+K');
    await palette(page).waitFor();
    await page.keyboard.insertText('x'.repeat(10_000));
    await page.getByTestId('command-palette-empty').waitFor();
    expect(await page.getByTestId('command-palette-input').inputValue()).toHaveLength(10_000);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await expect.poll(() => page.locator('[role="option"]').count()).toBeGreaterThan(12);
    // Arrows move the choice; the chosen line is the one Enter runs.
    await page.keyboard.type('chat');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('[role="option"][aria-selected="true"]').textContent()).toContain('New chat');
    await screenshot(page, 'keyboard-01-palette-en-light-1280');
    await page.keyboard.press('Enter');
    await pageReady(page, '/chat');

    // `?` opens the sheet; while it is open, other shortcuts do nothing (no palette, no page change); Esc closes it.
    await page.getByTestId('chat-new-pane').waitFor();
    await blur(page);
    await page.keyboard.press('?');
    await sheet(page).waitFor();
    await expect.poll(() => sheet(page).getByTestId('shortcut-keys-palette').textContent()).toBe('CtrlK');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+Shift+F');
    expect(await palette(page).isVisible()).toBe(false);
    expect(await route(page)).toBe('#/chat');
    await screenshot(page, 'keyboard-02-sheet-en-light-1280');
    await page.keyboard.press('Escape');
    await sheet(page).waitFor({ state: 'hidden' });

    // Shift+Esc focuses the composer; what is typed there stays text (`?` opens nothing).
    await page.keyboard.press('Shift+Escape');
    expect(await focused(page)).toBe('chat-input');
    await page.keyboard.type('Why? ');
    expect(await sheet(page).isVisible()).toBe(false);
    provider.enqueue({ kind: 'reply', text: ['Because.'] });
    await page.keyboard.type('Say hello');
    expect(await page.getByTestId('chat-input').inputValue()).toBe('Why? Say hello');
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-pane').waitFor();
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase')).not.toBe('running');
    await page.getByText('Because.').waitFor();

    // Ctrl+Shift+G regenerates from the composer; the new answer hangs, and Esc in the composer stops it.
    provider.enqueue({ kind: 'hang' });
    await page.keyboard.press('Shift+Escape');
    await page.keyboard.press('Control+Shift+G');
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase')).toBe('running');
    await provider.waitForRequests(2);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase')).not.toBe('running');
    await provider.requests.at(-1)!.closed;

    // ↑ in the empty composer opens the last message's editor, focused, with its text.
    expect(await focused(page)).toBe('chat-input');
    await page.keyboard.press('ArrowUp');
    await page.getByTestId('message-edit-input').waitFor();
    expect(await focused(page)).toBe('message-edit-input');
    expect(await page.getByTestId('message-edit-input').inputValue()).toBe('Why? Say hello');
    // An editor that did not opt in keeps every key but the palette's: no sheet, no new chat, its text as typed.
    await page.keyboard.press('Control+/');
    await page.keyboard.press('Control+Shift+O');
    await page.keyboard.type('?');
    expect(await sheet(page).isVisible()).toBe(false);
    expect(await page.getByTestId('message-edit-input').inputValue()).toBe('Why? Say hello?');
    expect(await route(page)).toMatch(/^#\/chat\/./);

    // Ctrl+Shift+O from anywhere outside an editor: a new chat. Ctrl+Shift+F: the conversations' search box.
    await blur(page);
    await page.keyboard.press('Control+Shift+O');
    await page.getByTestId('chat-new-pane').waitFor();
    await page.keyboard.press('Control+Shift+F');
    await expect.poll(() => focused(page)).toBe('chat-search');
  });

  it('uses ⌘ on a Mac and finds English words in the Chinese window (dark, 1440×900)', async () => {
    const page = (current = await openWindow({ width: 1440, height: 900, locale: 'zh', theme: 'dark', mac: true }));
    // Ctrl+K is a Mac text field's own key (and not the palette's).
    await page.keyboard.press('Control+K');
    expect(await palette(page).count()).toBe(0);
    await page.keyboard.press('Meta+K');
    await palette(page).waitFor();
    await page.keyboard.type('knowledge');
    await expect.poll(() => page.locator('[role="option"]').allTextContents()).toEqual([expect.stringContaining('知识库')]);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('新对话');
    await expect.poll(() => page.getByTestId('shortcut-keys-newChat').textContent()).toBe('⌘⇧O');
    await screenshot(page, 'keyboard-03-palette-zh-dark-1440-mac');
    // The palette's key closes it again.
    await page.keyboard.press('Meta+K');
    await palette(page).waitFor({ state: 'hidden' });
    await page.keyboard.press('Meta+/');
    await sheet(page).waitFor();
    await expect.poll(() => sheet(page).textContent()).toContain('键盘快捷键');
    await screenshot(page, 'keyboard-04-sheet-zh-dark-1440-mac');
    await page.keyboard.press('Escape');
    await sheet(page).waitFor({ state: 'hidden' });
    await page.keyboard.press('Meta+Shift+O');
    await pageReady(page, '/chat');
  });
});
