import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * Slash commands in Chromium against a real `chatos serve`, the MCP
 * reference server over stdio and the local provider server: `/` lists the
 * agent's prompts, a pick opens its argument form, a completion suggestion
 * fills an argument, and the prompt's message is what the model receives;
 * a prompt's assistant turn and image show in the chat as the prompt's and
 * reach the model as such; the Playground's prompts card gets a prompt and
 * shows its messages. Screenshots: test-output/screenshots/slash-prompts-*.
 */

/** Our prompts fixture: a few-shot prompt with an assistant turn, an image and audio. */
const PROMPTS_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'promptsServer.mjs');

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-slash-');
  writeMcpYaml(home, {
    everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    prompts: { transport: 'stdio', command: process.execPath, args: [PROMPTS_SERVER] },
  });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-slash-plugins-'),
    server: ['everything', 'prompts'],
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-slash-test',
    vision: true,
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

  it("sends a prompt's assistant turn before the user's, its image attached, and says what was left out", async () => {
    const { conversation } = await serveApi(serve)<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper' });
    provider.enqueue({ kind: 'reply', text: 'That square is red.' });
    const before = provider.requests.length;
    await openRoute(page, `#/chat/${conversation.id}`, 'chat-pane');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('/few');
    const item = page.locator('[data-testid="slash-prompt-item"][data-name="few-shot"]');
    await item.waitFor({ timeout: 30_000 });
    await item.click();
    const form = page.getByTestId('slash-prompt-form');
    await form.getByTestId('slash-prompt-arg-subject').locator('input').fill('this square');
    await page.getByTestId('slash-prompt-send').click();
    await form.waitFor({ state: 'detached', timeout: 20_000 });

    const [request] = (await provider.waitForRequests(before + 1)).slice(before);
    const turns = (request!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role !== 'system');
    expect(turns.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(turns[1]!.content)).toContain('Blue.');
    const last = JSON.stringify(turns[2]!.content);
    expect(last).toContain('Name the colour of this square.');
    expect(last).toContain('data:image/png;base64,');
    expect(last).toContain('the audio (audio/wav) is not sent');

    // The answer as stored, not while it streams in (a streaming answer is a message-streaming row until the turn ends).
    await expect.poll(() => page.locator('[data-testid="message-assistant"]').last().textContent(), { timeout: 30_000 }).toContain('That square is red.');
    // The three messages the prompt gave say so; the answer does not.
    await expect.poll(() => page.getByTestId('message-prompt').count()).toBe(3);
    expect(await page.locator('[data-testid="message-assistant"]').count()).toBe(2);
    expect(await page.locator('[data-testid="message-assistant"]').first().getByTestId('message-prompt').count()).toBe(1);
    const shown = page.locator('[data-testid="message-user"]').last().locator('img');
    await shown.waitFor({ timeout: 20_000 });
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(24);
    expect(await page.locator('[data-testid="message-user"]').last().textContent()).toContain('[Left out of prompt "few-shot" of server "chatos::prompts"');
    await screenshot(page, 'slash-prompts-05-few-shot');
  });
});

describe("the Playground's prompts card", () => {
  it('gets a prompt with a suggested argument and shows its messages: roles, images, resources, notes', async () => {
    await openRoute(page, '#/playground', 'page-playground');
    await page.getByTestId('playground-agent').click();
    await page.keyboard.type('Helper');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Helper' }).first().click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    const card = page.getByTestId('playground-prompts');
    await card.scrollIntoViewIfNeeded();
    const pick = async (name: string) => {
      await card.getByTestId('playground-prompt-select').click();
      await page.keyboard.type(`/${name}`);
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: `/${name} ·` })
        .first()
        .click();
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
      await card.locator(`[data-testid="playground-prompt"][data-name="${name}"]`).waitFor();
    };

    // Arguments as in the composer: required marked, the server's suggestions as one types.
    await pick('completable-prompt');
    expect(await card.locator('.ant-form-item-required').allTextContents()).toEqual(['department', 'name']);
    await card.getByTestId('playground-prompt-get').click();
    await card.getByText('Fill in "department"').waitFor();
    await card.getByTestId('slash-prompt-arg-department').locator('input').fill('Eng');
    const engineering = page.locator('.slash-prompt-suggestions .ant-select-item-option', { hasText: 'Engineering' });
    await engineering.waitFor({ timeout: 20_000 });
    await engineering.click();
    await card.getByTestId('slash-prompt-arg-name').locator('input').fill('Bob');
    await card.getByTestId('playground-prompt-get').click();
    const messages = card.getByTestId('playground-prompt-message');
    await expect.poll(() => messages.allTextContents(), { timeout: 20_000 }).toEqual([expect.stringContaining('Please promote Bob to the head of the Engineering team.')]);
    await screenshot(page, 'slash-prompts-06-playground-args');

    // Roles, an image drawn, what would be left out said.
    await pick('few-shot');
    await card.getByTestId('slash-prompt-arg-subject').locator('input').fill('a square');
    await card.getByTestId('playground-prompt-get').click();
    await expect.poll(() => messages.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-role'))), { timeout: 20_000 }).toEqual(['user', 'assistant', 'assistant', 'user', 'user']);
    expect(await card.getByTestId('playground-prompt-image').count()).toBe(2);
    await expect
      .poll(() =>
        card
          .getByTestId('playground-prompt-image')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(24);
    expect(await card.getByTestId('playground-prompt-notes').textContent()).toContain('the audio (audio/wav) is not sent');
    await screenshot(page, 'slash-prompts-07-playground-few-shot');

    // An embedded resource named by its uri.
    await pick('resource-prompt');
    await card.getByTestId('slash-prompt-arg-resourceType').locator('input').fill('Text');
    await card.getByTestId('slash-prompt-arg-resourceId').locator('input').fill('3');
    await card.getByTestId('playground-prompt-get').click();
    const resource = card.getByTestId('playground-prompt-resource');
    await resource.waitFor({ timeout: 20_000 });
    expect(await resource.getAttribute('data-uri')).toBe('demo://resource/dynamic/text/3');
    expect(await resource.textContent()).toBe('Resource demo://resource/dynamic/text/3');
    await screenshot(page, 'slash-prompts-08-playground-resource');
  });
});
