import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openSidePanelItem, pageReady, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Canvas in the conversation (docs/using/side-panel.md): a scripted
 * model builds a form through patch_ui_state in the real chat loop of a real
 * `chatos serve`; the Chat page open in Chromium opens its side panel on
 * that instance; the user fills the form in the panel and submits; the
 * model's next request carries the submit as a message from the Canvas with
 * the instance's state; the model patches again and the panel shows it.
 */

const SERVER = 'chatos.canvas::chatos.canvas.canvas';
const PATCH = 'mcp_chatos_canvas_canvas_patch_ui_state';
const AGENT = 'form-builder';

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

const signupForm = {
  id: 'signup',
  type: 'form',
  bind: 'state.params',
  props: { title: 'Sign up', fields: [{ label: 'Email', key: 'email', type: 'text', required: true }] },
};

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-canvas-panel-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(serve.url);
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-canvas-panel' });
  await api('agents.save', {
    agent: { id: AGENT, name: 'Form builder', modelId: 'local', language: 'en', uiApps: [{ pluginId: 'chatos.canvas', appId: 'canvas', mcp: true, prompt: true, mcpServerIds: [SERVER] }] },
  });
}, 120_000);

afterEach((context) => screenshotOnFailure(page, 'canvas-panel', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const statusOf = async (id: string) => (await api('conversations.get', { id })).conversation.status.kind;
/** The text the model was sent for each user-role message of a request. */
const userTexts = (body: any): string[] =>
  body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

describe('the Canvas in a conversation, beside the chat', () => {
  it("opens on the instance the agent builds, tells the agent what the user submitted, and shows the agent's next patch", async () => {
    await page.evaluate(() => (window.location.hash = '#/chat'));
    await pageReady(page, '#/chat');
    await page.getByTestId('chat-new-pane').waitFor({ timeout: 20_000 });
    provider.enqueue(
      {
        kind: 'reply',
        text: 'Building the form.',
        toolCalls: [
          {
            id: 'create',
            name: PATCH,
            arguments: {
              instance_id: '__CREATE__',
              new_instance_id: 'signup',
              patches: [
                { op: 'add', path: 'blocks+', value: signupForm },
                { op: 'add', path: 'actions+', value: { id: 'join', label: 'Join', style: 'primary', status: 'submitted' } },
              ],
            },
          },
        ],
      },
      { kind: 'reply', text: 'Fill it in beside the chat.' },
    );
    const { conversationId } = await api<{ conversationId: string }>('chat.send', { agentId: AGENT, text: 'Make me a sign-up form.' });
    await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
    await pageReady(page, `#/chat/${conversationId}`);

    // The panel opens on the instance the agent created, and shows its form.
    const panel = page.getByTestId('side-panel');
    await expect.poll(() => panel.getAttribute('data-instance'), { timeout: 30_000 }).toBe('signup');
    const frame = page.frameLocator('[data-testid="side-panel"] [data-testid="uiapp-frame"]');
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-instance'), { timeout: 20_000 }).toBe('signup');
    await expect.poll(() => statusOf(conversationId), { timeout: 60_000 }).toBe('done');
    expect(provider.requests).toHaveLength(2);

    // The user submits the form: the model's next request has the Canvas's message with the state.
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'thanks',
            name: PATCH,
            arguments: { instance_id: 'signup', patches: [{ op: 'set', path: 'meta.step', value: { current: 2, total: 2 } }] },
          },
        ],
      },
      { kind: 'reply', text: 'Thanks, you are signed up.' },
    );
    await frame.getByTestId('canvas-field-email').fill('ada@example.com');
    await screenshot(page, 'canvas-panel-01-built-light-en');
    await frame.getByTestId('canvas-action-join').click();
    await expect.poll(() => provider.requests.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const told = userTexts(provider.requests[2]!.body).at(-1)!;
    expect(told).toContain('Submitted \\"Join\\" (action join) on the Canvas instance \\"signup\\"');
    expect(told).toContain('ada@example.com');
    // The agent's patch after the submit succeeds, and shows in the panel at its revision.
    await expect.poll(() => statusOf(conversationId), { timeout: 60_000 }).toBe('done');
    const patched = (await api('conversations.get', { id: conversationId })).messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
    const patchedText = JSON.stringify(patched.content);
    expect(patched.status, patchedText).toBe('ok');
    const revision = /revision (\d+)/.exec(patchedText);
    expect(revision, patchedText).not.toBeNull();
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-revision'), { timeout: 30_000 }).toBe(revision![1]);
    await frame.getByTestId('canvas-step').waitFor({ timeout: 30_000 });
    // The message is stored as the Canvas's, with the state it sent.
    const stored = (await api('conversations.get', { id: conversationId })).messages.filter((m: { role: string }) => m.role === 'user');
    expect(stored.at(-1).from).toEqual({ kind: 'canvas', id: 'signup', name: 'Canvas' });
    expect(stored.at(-1).state).toMatchObject({ instance_id: 'signup', action: 'join', state: { params: { email: 'ada@example.com' } } });
    await screenshot(page, 'canvas-panel-02-patched-light-en');

    // The panel stays while the user chats.
    provider.enqueue({ kind: 'reply', text: 'Anything else?' });
    await page.getByTestId('chat-input').fill('Thanks!');
    await page.getByTestId('chat-send').click();
    await expect.poll(() => provider.requests.length, { timeout: 60_000 }).toBe(5);
    await expect.poll(() => statusOf(conversationId), { timeout: 60_000 }).toBe('done');
    expect(await panel.getAttribute('data-instance')).toBe('signup');
    await frame.getByTestId('canvas-step').waitFor();

    // A narrow window: the conversation list steps aside, the chat and the panel stay usable.
    await page.setViewportSize({ width: 900, height: 800 });
    expect(await page.getByTestId('chat-input').isVisible()).toBe(true);
    expect(await panel.isVisible()).toBe(true);
    await screenshot(page, 'canvas-panel-03-narrow-light-en');
    await page.setViewportSize({ width: 1400, height: 900 });
    // The list is back beside the chat before the header's menu is used. Once (CI at load 10) the panel still showed
    // the Canvas after the click meant for Notes, the menu opened right after this resize: items moving under the
    // pointer while the layout settles is the likely cause (not reproduced in 4 runs side by side).
    await expect.poll(() => page.getByTestId('page-chat').getAttribute('data-list')).toBe('beside');

    // From the chat header, another app's compact page opens in the panel; the Canvas again on its last instance.
    await openSidePanelItem(page, 'side-panel-app-chatos.notes-notes');
    await expect.poll(() => panel.getAttribute('data-kind')).toBe('uiApp');
    await page.frameLocator('[data-testid="side-panel"] [data-testid="uiapp-frame"]').locator('body').waitFor();
    await openSidePanelItem(page, 'side-panel-app-chatos.canvas-canvas');
    await expect.poll(() => panel.getAttribute('data-instance')).toBe('signup');
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-instance'), { timeout: 20_000 }).toBe('signup');

    // Pop out: the Canvas page on that instance.
    await page.getByTestId('side-panel-pop-out').click();
    const full = page.frameLocator('.uiapp-split-main [data-testid="uiapp-frame"]');
    await expect.poll(() => full.getByTestId('canvas-view').getAttribute('data-instance'), { timeout: 20_000 }).toBe('signup');
    await screenshot(page, 'canvas-panel-04-popped-out-light-en');

    // Back in the chat, the panel is as the user left it; closed, it stays closed for this conversation.
    await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
    await pageReady(page, `#/chat/${conversationId}`);
    await expect.poll(() => panel.getAttribute('data-instance'), { timeout: 20_000 }).toBe('signup');
    await page.getByTestId('side-panel-close').click();
    await panel.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('chat-pane').waitFor({ timeout: 20_000 });
    expect(await panel.count()).toBe(0);
  }, 240_000);

  it('the Canvas page switches to an instance an agent just created', async () => {
    await page.evaluate(() => (window.location.hash = '#/apps/chatos.canvas/canvas'));
    await pageReady(page, '#/apps/chatos.canvas/canvas');
    const full = page.frameLocator('.uiapp-split-main [data-testid="uiapp-frame"]');
    await full.getByTestId('canvas-view').waitFor({ timeout: 20_000 });
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'second', name: PATCH, arguments: { instance_id: '__CREATE__', new_instance_id: 'survey', patches: [{ op: 'add', path: 'blocks+', value: signupForm }] } }] },
      { kind: 'reply', text: 'A survey is on the Canvas.' },
    );
    await api('chat.send', { agentId: AGENT, text: 'Now a survey.' });
    await expect.poll(() => full.getByTestId('canvas-view').getAttribute('data-instance'), { timeout: 30_000 }).toBe('survey');
  }, 120_000);
});
