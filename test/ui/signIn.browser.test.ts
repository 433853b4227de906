import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchChromium, pageReady, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { startOAuthServer, type OAuthServer } from '../helpers/oauthServer.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * A remote MCP server behind sign-in, in Chromium against a real `chatos
 * serve`: added by url, its card says it needs sign-in; Sign in opens the
 * authorization server's page in a new tab, which (approving at once)
 * comes back to the host's loopback redirect and says the tab may close;
 * the card says who is signed in; its tool works in chat; Sign out, and the
 * next call shows a sign-in card in the conversation, whose Sign in works
 * the same. Screenshots: test-output/screenshots/signin-*.
 */

let provider: ProviderServer;
let oauth: OAuthServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

/** Clicks a Sign in button and follows the tab it opens to the host's "you can close this tab" page. */
async function signInThrough(button: string): Promise<Page> {
  const opened = chromium.context.waitForEvent('page', { timeout: 30_000 });
  await page.getByTestId(button).click();
  const tab = await opened;
  await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/, { timeout: 30_000 });
  await tab.getByText('You can close this tab').waitFor({ timeout: 20_000 });
  return tab;
}

/** A new chat with the Helper agent, asked `text`. */
async function askHelper(text: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
  await pageReady(page, '/chat');
  await chooseOption(page, page.getByTestId('chat-agent'), 'Helper');
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  oauth = await startOAuthServer({ account: 'ada@example.com', shared: true });
  home = folders.make('chatos-ui-signin-');
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-signin-plugins-'),
    server: 'tracker',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-signin-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Uses the tracker' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('page-servers').waitFor({ timeout: 20_000 });
}, 240_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `signin-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  await oauth?.close();
  folders.removeAll();
});

describe('a remote server that needs sign-in', { timeout: 180_000 }, () => {
  it('is added by url and says it needs sign-in; Sign in goes through the browser and says who', async () => {
    await page.evaluate(() => (window.location.hash = '#/servers?tab=external'));
    await pageReady(page, '#/servers?tab=external');
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();
    await page.getByTestId('mcp-name').fill('tracker');
    await page.getByTestId('mcp-transport').getByText('Remote (streamable HTTP)').click();
    await page.getByTestId('mcp-url').fill(oauth.url);
    await page.getByTestId('mcp-save').click();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
    const state = page.getByTestId('signin-state-tracker');
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe('Sign-in needed');
    await screenshot(page, 'signin-01-needed');

    const tab = await signInThrough('mcp-signin-tracker');
    await screenshot(tab, 'signin-02-tab-done');
    await tab.close();
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toContain('Signed in as ada@example.com');
    expect(await state.textContent()).toContain('renewed by itself');
    const authorization = oauth.authorizations.at(-1)!;
    expect(authorization.get('code_challenge_method')).toBe('S256');
    expect(authorization.get('resource')).toBe(oauth.url);
    // The token never reaches the page.
    expect(await page.content()).not.toContain(oauth.accepted[0] ?? 'no-token-yet');
    await screenshot(page, 'signin-03-signed-in');
  });

  it('its tool works in chat with the token', async () => {
    provider.enqueue({ kind: 'reply', text: 'Checking.', toolCalls: [{ id: 'who1', name: 'mcp_tracker_whoami', arguments: {} }] }, { kind: 'reply', text: 'You are user-1.' });
    await askHelper('who am I?');
    const card = page.getByTestId('tool-call-who1');
    await page.locator('[data-testid="tool-call-who1"]:is([data-status="ok"], [data-status="error"])').waitFor({ timeout: 60_000 });
    // Opened with the keyboard: a pointer click as the answer's row comes in below can land while the virtual list moves the card.
    await card.getByTestId('tool-call-toggle').press('Enter');
    await card.getByTestId('tool-call-result').waitFor();
    expect(await card.getByTestId('tool-call-result').textContent()).toContain('hello user-1');
    expect(await card.getAttribute('data-status')).toBe('ok');
    expect(oauth.accepted.length).toBeGreaterThan(0);
  });

  it('signs out; the next call shows a sign-in card in the conversation, and signing in there works', async () => {
    await page.getByTestId('nav-servers').click();
    await page.evaluate(() => (window.location.hash = '#/servers?tab=external'));
    await pageReady(page, '#/servers?tab=external');
    await page.getByTestId('mcp-signout-tracker').click();
    await expect.poll(() => page.getByTestId('signin-state-tracker').textContent(), { timeout: 30_000 }).toBe('Sign-in needed');
    await screenshot(page, 'signin-04-signed-out');

    provider.enqueue({ kind: 'reply', text: 'Again.', toolCalls: [{ id: 'who2', name: 'mcp_tracker_whoami', arguments: {} }] }, { kind: 'reply', text: 'I could not reach it.' });
    await askHelper('who am I now?');
    const ask = page.getByTestId('tool-call-who2').getByTestId('tool-call-signin');
    await ask.waitFor({ timeout: 60_000 });
    expect(await ask.textContent()).toContain('Server tracker needs you to sign in');
    await screenshot(page, 'signin-05-chat-card');
    const before = oauth.authorizations.length;
    const tab = await signInThrough('tool-call-signin-button');
    await tab.close();
    await expect.poll(() => ask.textContent(), { timeout: 30_000 }).toContain('Signed in. Ask the assistant to try again.');
    expect(oauth.authorizations.length).toBe(before + 1);
    await screenshot(page, 'signin-06-chat-signed-in');
  });
});
