import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { longConversationMessages, writeConversationLog } from '../../scripts/bench/longConversation.js';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { chooseOption, type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, sendChatMessage, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { cliIn, fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * The chat a daily user lives in (issue 45), in Chromium against a real
 * `chatos serve`, the chat and prompts fixture servers over stdio and the
 * local provider server: a send takes the view to the message and follows
 * the answer, from a search hit far above too; the approval button brings
 * the waiting card wholly into view, no button over it; `/` offers the
 * agent's prompts in a new chat and sending one starts the conversation; a
 * model added by the CLI appears in the open chat's model menu; an image
 * attached for a model that cannot read images is warned about, with a
 * switch to one that can (in Chinese too); the model editor's "Model name"
 *  label names its box; relative times move on.
 * Screenshots: test-output/screenshots/daily-chat-*.
 */

const PROMPTS_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'promptsServer.mjs');
// A 24×24 red PNG.
const RED = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR42mO4YGBAFcQwatCoQaMGjRo0atCoQQNvEACIEqwfbFPLPQAAAABJRU5ErkJggg==', 'base64');

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const scroll = () => page.getByTestId('chat-scroll');
const phase = () => page.getByTestId('chat-pane').getAttribute('data-phase');

/** Whether the element is wholly inside the chat's view, and no jump button floats over it. */
function inViewUncovered(selector: string): Promise<{ inView: boolean; covered: boolean }> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const view = el.closest('[data-testid="chat-scroll"]')!.getBoundingClientRect();
      const own = el.getBoundingClientRect();
      const covered = [...document.querySelectorAll('.chat-jump')].some((pill) => {
        const p = pill.getBoundingClientRect();
        return p.width > 0 && p.left < own.right && p.right > own.left && p.top < own.bottom && p.bottom > own.top;
      });
      return { inView: own.top >= view.top - 1 && own.bottom <= view.bottom + 1, covered };
    });
}

/** A conversation of the helper whose log is `count` messages (as the host writes one). */
async function longConversation(count: number): Promise<string> {
  const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper', title: `${count} messages` });
  writeConversationLog(path.join(home, 'chatos', 'conversations'), conversation.id, longConversationMessages(count, 'helper'));
  return conversation.id;
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-daily-chat-');
  writeMcpYaml(home, { chat: chatServerEntry(), prompts: { transport: 'stdio', command: process.execPath, args: [PROMPTS_SERVER] } });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-daily-chat-plugins-'),
    server: ['chat', 'prompts'],
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-daily-chat-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Daily talks' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve));
  await page.setViewportSize({ width: 1280, height: 800 });
}, 180_000);

afterEach((context) => screenshotOnFailure(page, 'daily-chat', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('the chat, used daily', { timeout: 120_000 }, () => {
  it('a send takes the view to the message and follows the answer, from a search hit far above and from reading above', async () => {
    const id = await longConversation(400);
    // Opened at an old message (a search hit): the newest are not even loaded.
    await openRoute(page, `#/chat/${id}?message=m40`, 'chat-pane');
    await page.locator('.chat-row-target [data-message="m40"]').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.locator('[data-message="m399"]').count()).toBe(0);

    provider.enqueue({ kind: 'reply', text: 'Fresh answer from far below.' });
    await sendChatMessage(page, 'Where did we leave off?');
    const mine = page.locator('[data-testid="message-user"]').filter({ hasText: 'Where did we leave off?' });
    await mine.waitFor({ state: 'visible', timeout: 30_000 });
    const answer = page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Fresh answer from far below.' });
    await answer.waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => inViewUncovered('[data-testid="message-assistant"]:has-text("Fresh answer from far below.")')).toEqual({ inView: true, covered: false });
    expect(await scroll().getAttribute('data-following')).toBe('true');
    await screenshot(page, 'daily-chat-01-sent-from-search-hit');

    // Reading above in the loaded window: the next send goes down too.
    const box = (await scroll().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -4000);
    await expect.poll(() => scroll().getAttribute('data-following')).toBe('false');
    provider.enqueue({ kind: 'reply', text: 'Second answer, followed.' });
    await sendChatMessage(page, 'And now?');
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Second answer, followed.' }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => inViewUncovered('[data-testid="message-assistant"]:has-text("Second answer, followed.")')).toEqual({ inView: true, covered: false });
    expect(await scroll().getAttribute('data-following')).toBe('true');
  });

  it('the approval button brings the waiting card wholly into view, with no button over it', async () => {
    provider.enqueue(
      { kind: 'reply', text: 'Needs your yes.', toolCalls: [{ id: 'dz1', name: 'mcp_chat_danger', arguments: { what: 'clean the attic' } }] },
      { kind: 'reply', text: 'The attic is clean.' },
    );
    await sendChatMessage(page, 'Clean the attic');
    // The question is on its call's card (the one question card).
    const confirmation = page.getByTestId('tool-call-dz1').getByTestId('tool-call-question');
    await confirmation.waitFor({ state: 'visible', timeout: 30_000 });
    const box = (await scroll().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -2500);
    const announced = page.getByTestId('chat-jump-approval');
    await announced.waitFor({ timeout: 20_000 });
    await announced.click();
    await expect.poll(() => inViewUncovered('[data-testid="tool-call-dz1"] [data-testid="tool-call-question"]')).toEqual({ inView: true, covered: false });
    await screenshot(page, 'daily-chat-02-approval-in-view');
    await confirmation.getByTestId('confirm-approve').press('Enter');
    await expect.poll(phase, { timeout: 30_000 }).toBe('done');
  });

  it('offers the agent’s prompts on / in a new chat, and sending one starts the conversation (1440×900)', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openRoute(page, '#/chat', 'chat-new-pane');
    await chooseOption(page, page.getByTestId('chat-agent'), 'Helper');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('/few');
    const item = page.locator('[data-testid="slash-prompt-item"][data-name="few-shot"]');
    await item.waitFor({ timeout: 30_000 });
    await screenshot(page, 'daily-chat-03-slash-in-new-chat');
    await item.click();
    const form = page.getByTestId('slash-prompt-form');
    await form.waitFor();
    await form.locator('input').first().fill('this square');
    provider.enqueue({ kind: 'reply', text: 'Red, as started from a slash command.' });
    await page.getByTestId('slash-prompt-send').click();
    await page.getByTestId('chat-pane').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Red, as started from a slash command.' }).waitFor({ timeout: 30_000 });
    expect(page.url()).toMatch(/#\/chat\/[^/?]+$/);
    expect(await page.locator('[data-testid="message-user"]').filter({ hasText: 'Name the colour of this square.' }).count()).toBe(1);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('a model added by the CLI shows in the open chat’s model menu; an image for a model without vision is warned about, with a switch (in Chinese)', async () => {
    const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'helper', title: 'a picture' });
    await page.evaluate(() => localStorage.setItem('chatos.locale', 'zh'));
    await page.reload();
    await openRoute(page, `#/chat/${conversation.id}`, 'chat-pane');
    const menu = page.getByTestId('chat-model');
    await menu.click();
    await page.locator('.ant-select-dropdown:visible').waitFor();
    expect(await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allTextContents()).not.toContain('Seer');
    await page.keyboard.press('Escape');

    // Another process adds a model that reads images: the open menu offers it without a reload.
    await cliIn(home)(['models', 'add', 'seer', '--name', 'Seer', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--vision', '--api-key-stdin'], 'sk-seer\n');
    await expect
      .poll(
        async () => {
          await menu.click();
          const options = await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allTextContents();
          await page.keyboard.press('Escape');
          return options;
        },
        { timeout: 20_000 },
      )
      .toContain('Seer');

    await page.getByTestId('chat-attach-input').setInputFiles([{ name: 'red.png', mimeType: 'image/png', buffer: RED }]);
    const warning = page.getByTestId('image-model-warning');
    await warning.waitFor({ timeout: 20_000 });
    expect(await warning.textContent()).toContain('不能读取图片');
    await screenshot(page, 'daily-chat-04-image-warning-zh');
    await warning.locator('[data-testid="image-model-switch"][data-model="seer"]').click();
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => menu.textContent()).toContain('Seer');
    provider.enqueue({ kind: 'reply', text: '红色。' });
    await sendChatMessage(page, '什么颜色？');
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: '红色。' }).waitFor({ timeout: 30_000 });
    const request = provider.requests.at(-1)!.body;
    expect(JSON.stringify(request.messages.at(-1))).toContain('image_url');
    await page.evaluate(() => localStorage.setItem('chatos.locale', 'en'));
  });

  it('relative times move on while the page is open', async () => {
    // A page of its own whose clock the test moves: five minutes pass without anything reloading.
    const other = await chromium.context.newPage();
    try {
      await other.clock.install();
      await other.setViewportSize({ width: 1280, height: 800 });
      await other.goto(serve.url);
      await other.getByTestId('page-chat').waitFor({ timeout: 20_000 });
      await api('conversations.create', { agentId: 'helper', title: 'ticking' });
      await other.evaluate(() => (window.location.hash = '#/chat'));
      const row = other.locator('.conversation-meta').first();
      await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/now|second/);
      await other.clock.fastForward('05:00');
      await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/5 minutes ago/);
    } finally {
      await other.close();
    }
  });

  it('the model editor’s "Model name" label names its box', async () => {
    await page.reload();
    await openRoute(page, '#/models', 'page-models');
    await page.getByTestId('model-add').click();
    const box = page.getByLabel('Model name', { exact: true });
    expect(await box.getAttribute('data-testid')).toBe('model-model');
  });
});
