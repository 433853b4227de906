import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders } from '../helpers/deskHome.js';
import { startOAuthServer, type OAuthServer } from '../helpers/oauthServer.js';

/**
 * Your own servers, added and removed as a new user does (issue 45), in
 * Chromium against a real `chatos serve` and a real OAuth-protected MCP
 * server: Delete says the registration and its grants go with the server,
 * and leaves no problem behind; the add form's Test says a server wants
 * sign-in (not a failure) and offers Save and sign in, which saves, signs
 * in through the browser and closes the form (in Chinese, at 1440×900); the
 * built-in tab counts the built-in tools it lists.
 * Screenshots: test-output/screenshots/daily-servers-*.
 */

let oauth: OAuthServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
/** The servers an agent picked under "Your own servers", as the core stores them. */
const ownPicks = async (id: string) =>
  (await api<{ agents: { id: string; uiApps: { pluginId: string; mcpServerIds: string[] }[] }[] }>('agents.list')).agents.find((a) => a.id === id)!.uiApps.find((u) => u.pluginId === 'chatos')
    ?.mcpServerIds ?? [];

beforeAll(async () => {
  oauth = await startOAuthServer({ account: 'ada@example.com', shared: true });
  home = folders.make('chatos-ui-daily-servers-');
  writeMcpYaml(home, { notes: chatServerEntry(), desk: chatServerEntry() });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  await api('agents.save', { agent: { id: 'aide', name: 'Aide', language: 'en', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::notes', 'chatos::desk'] }] } });
  ({ chromium, page } = await openChromiumOn(serve));
  await page.setViewportSize({ width: 1280, height: 800 });
}, 120_000);

afterEach((context) => screenshotOnFailure(page, 'daily-servers', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await oauth?.close();
  folders.removeAll();
});

describe('your own servers', { timeout: 120_000 }, () => {
  it('Delete says what goes with the server, and leaves no problem behind', async () => {
    await openRoute(page, '#/servers?tab=external', 'page-servers');
    await page.getByTestId('mcp-delete-notes').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Its registration, the grants to other apps on it');
    await screenshot(page, 'daily-servers-01-delete-confirm');
    await page.getByTestId('mcp-delete-ok').click();
    await page.getByTestId('mcp-delete-notes').waitFor({ state: 'detached', timeout: 20_000 });

    const { problems } = await api<{ problems: { code: string }[] }>('problems.list');
    expect(problems.map((p) => p.code)).not.toContain('REGISTRATION_MISSING');
    await openRoute(page, '#/problems', 'page-problems');
    expect(await page.getByTestId('page-problems').textContent()).not.toContain('REGISTRATION_MISSING');
    // The agent that picked it no longer does, in the core; its other pick stays.
    expect(await ownPicks('aide')).toEqual(['chatos::desk']);
  });

  it('an open agent editor drops a server removed meanwhile, so saving does not pick it again', async () => {
    await openRoute(page, '#/agents', 'page-agents');
    await page.getByTestId('agent-edit-aide').click();
    const picks = page.getByTestId('agent-own-servers-select').locator('.ant-select-selection-item');
    await expect.poll(() => picks.allInnerTexts(), { timeout: 20_000 }).toEqual(['desk']);
    await screenshot(page, 'daily-servers-04-editor-before-remove');
    // Removed elsewhere (another window, or `chatos mcp remove`) while the editor is open.
    await api('mcpServers.remove', { name: 'desk' });
    expect(await ownPicks('aide')).toEqual([]);
    await expect.poll(() => picks.allInnerTexts(), { timeout: 20_000 }).toEqual([]);
    await screenshot(page, 'daily-servers-05-editor-after-remove');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden', timeout: 20_000 });
    expect(await ownPicks('aide')).toEqual([]);
  });

  it('the built-in tab counts the built-in tools it lists, on or off', async () => {
    await openRoute(page, '#/servers?tab=builtin', 'page-servers');
    const cards = page.locator('[data-testid="builtin-tools"] [data-testid^="builtin-tool-"]');
    await cards.first().waitFor({ timeout: 20_000 });
    const count = await cards.count();
    expect(count).toBeGreaterThan(2);
    await expect.poll(() => page.getByTestId('servers-tab-builtin').textContent()).toBe(`Built-in tools (${count})`);
  });

  it('the add form says a server wants sign-in, and Save and sign in saves it signed in (zh, 1440×900)', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => localStorage.setItem('chatos.locale', 'zh'));
    await page.reload();
    await openRoute(page, '#/servers?tab=external', 'page-servers');
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();
    await page.getByTestId('mcp-name').fill('tracker');
    await page.getByTestId('mcp-transport').locator('.ant-radio-button-wrapper').nth(1).click();
    await page.getByTestId('mcp-url').fill(oauth.url);
    await page.getByTestId('mcp-test').click();
    const result = page.getByTestId('mcp-test-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getAttribute('data-code')).toBe('SIGN_IN_NEEDED');
    // Said as what it is, in the user's language, not as a red code.
    expect(await result.textContent()).toContain('需要先登录');
    expect(await result.textContent()).not.toContain('SIGN_IN_NEEDED');
    await screenshot(page, 'daily-servers-02-test-wants-sign-in-zh');

    const opened = chromium.context.waitForEvent('page', { timeout: 30_000 });
    await page.getByTestId('mcp-save-signin').click();
    const tab = await opened;
    await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/, { timeout: 30_000 });
    await tab.close();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => page.getByTestId('signin-state-tracker').textContent(), { timeout: 30_000 }).toContain('ada@example.com');
    await screenshot(page, 'daily-servers-03-saved-signed-in-zh');
    await page.evaluate(() => localStorage.setItem('chatos.locale', 'en'));
  });
});
