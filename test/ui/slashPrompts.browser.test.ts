import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/gatewayHost.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * Slash commands in Chromium against a real `chatos serve`, the MCP
 * reference server over stdio and the local provider server: `/` lists the
 * agent's prompts, a pick opens its argument form, a completion suggestion
 * fills an argument, and the prompt's message is what the model receives.
 * Screenshots: test-output/screenshots/slash-prompts-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-slash-');
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-slash-plugins-'),
    server: 'everything',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-slash-test',
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 900 }));
});

afterEach((context) => screenshotOnFailure(page, 'slash-prompts', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('a slash prompt', () => {
  it('is listed on /, its arguments filled with a suggestion, and its message reaches the model', async () => {
    const { conversation } = await serveApi(serve)<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper' });
    provider.enqueue({ kind: 'reply', text: 'Alice it is.' });
    const before = provider.requests.length;
    await openRoute(page, `#/chat/${conversation.id}`, 'chat-pane');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('/');
    const item = page.locator('[data-testid="slash-prompt-item"][data-name="completable-prompt"]');
    await item.waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="slash-prompt-item"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')))).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']),
    );
    expect(await item.textContent()).toContain('everything');
    expect(await item.textContent()).toContain('First argument choice narrows values for second argument.');
    await screenshot(page, 'slash-prompts-01-menu');

    // Narrowed by what follows the slash.
    await input.fill('/comp');
    await expect.poll(() => page.locator('[data-testid="slash-prompt-item"]').count()).toBe(1);
    await item.click();
    const form = page.getByTestId('slash-prompt-form');
    await form.waitFor();
    expect(await form.locator('.ant-form-item-required').allTextContents()).toEqual(['department', 'name']);

    const department = form.getByTestId('slash-prompt-arg-department').locator('input');
    await department.fill('Eng');
    const engineering = page.locator('.slash-prompt-suggestions .ant-select-item-option', { hasText: 'Engineering' });
    await engineering.waitFor({ timeout: 20_000 });
    await screenshot(page, 'slash-prompts-02-suggestion');
    await engineering.click();
    expect(await department.inputValue()).toBe('Engineering');

    const name = form.getByTestId('slash-prompt-arg-name').locator('input');
    await name.click();
    await name.fill('A');
    const alice = page.locator('.slash-prompt-suggestions .ant-select-item-option', { hasText: 'Alice' });
    await alice.waitFor({ timeout: 20_000 });
    await alice.click();
    expect(await name.inputValue()).toBe('Alice');
    await screenshot(page, 'slash-prompts-03-form');

    await page.getByTestId('slash-prompt-send').click();
    await form.waitFor({ state: 'detached', timeout: 20_000 });
    const [request] = (await provider.waitForRequests(before + 1)).slice(before);
    const users = (request!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user');
    expect(JSON.stringify(users.at(-1)!.content)).toContain('Please promote Alice to the head of the Engineering team.');
    await expect.poll(() => page.getByTestId('chat-pane').textContent(), { timeout: 30_000 }).toContain('Alice it is.');
    expect(await input.inputValue()).toBe('');
    await screenshot(page, 'slash-prompts-04-sent');
  });
});
