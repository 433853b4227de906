import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../plugins/canvas/mcp/historyFile.mjs';
import { launchChromium, pageReady, screenshot, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { startProviderServer, toolResultsIn, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Canvas (docs/rules/canvas.md) in a conversation: a scripted model (the local provider server,
 * OpenAI's SSE wire format) builds a form on the Canvas through
 * patch_ui_state, in the real chat loop of a real `chatos serve`, through
 * the gateway to the built-in Canvas server; the Canvas page open in
 * Chromium shows it without a reload, and the store and the history name
 * the agent and its conversation.
 */

const SERVER = 'chatos.canvas::chatos.canvas.canvas';
const PATCH = 'mcp_chatos_canvas_canvas_patch_ui_state';
const LIST = 'mcp_chatos_canvas_canvas_list_instances';
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
  props: {
    title: 'Sign up',
    fields: [
      { label: 'Email', key: 'email', type: 'text', required: true },
      { label: 'Plan', key: 'plan', type: 'select', options: ['free', 'pro'] },
    ],
  },
};

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-canvas-chat-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(serve.url);
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-canvas-chat' });
  // The agent is given the Canvas app as any app is: its server, and its prompt that teaches the patch language.
  await api('agents.save', {
    agent: { id: AGENT, name: 'Form builder', modelId: 'local', language: 'en', uiApps: [{ pluginId: 'chatos.canvas', appId: 'canvas', mcp: true, prompt: true, mcpServerIds: [SERVER] }] },
  });
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Canvas in a conversation', () => {
  it('a scripted model builds a form through patch_ui_state in the chat loop, and the open page shows it', async () => {
    await page.evaluate(() => (window.location.hash = '#/apps/chatos.canvas/canvas'));
    await pageReady(page, '#/apps/chatos.canvas/canvas');
    const frame = page.frameLocator('.uiapp-split-main [data-testid="uiapp-frame"]');
    await frame.getByTestId('canvas-view').waitFor({ timeout: 20_000 });

    provider.enqueue(
      // One message, two calls: create the instance, then look at what exists.
      {
        kind: 'reply',
        text: 'Building the form.',
        toolCalls: [
          { id: 'create', name: PATCH, arguments: { instance_id: '__CREATE__', new_instance_id: 'signup', patches: [{ op: 'add', path: 'blocks+', value: signupForm }] } },
          { id: 'list', name: LIST, arguments: {} },
        ],
      },
      // A refused patch (a duplicate id) comes back to the model with its code; the next message fixes it.
      { kind: 'reply', toolCalls: [{ id: 'dup', name: PATCH, arguments: { instance_id: 'signup', patches: [{ op: 'add', path: 'blocks+', value: signupForm }] } }] },
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'fix',
            name: PATCH,
            arguments: {
              instance_id: 'signup',
              patches: [
                { op: 'add', path: 'actions+', value: { id: 'join', label: 'Join', style: 'primary', status: 'submitted' } },
                { op: 'set', path: 'meta.step', value: { current: 1, total: 2 } },
              ],
            },
          },
        ],
      },
      { kind: 'reply', text: 'The sign-up form is on the Canvas.' },
    );
    const sent = await api<{ conversationId: string }>('chat.send', { agentId: AGENT, text: 'Make me a sign-up form with an email and a plan.' });
    const conversationId = sent.conversationId;
    await expect.poll(async () => (await api('conversations.get', { id: conversationId })).conversation.status.kind, { timeout: 60_000 }).toBe('done');

    // The model was offered the Canvas's tools and taught the patch language by the app's prompt.
    const first = provider.requests[0]!.body;
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(expect.arrayContaining([PATCH, LIST, 'mcp_chatos_canvas_canvas_get_schema']));
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[0].content).toContain('patch_ui_state');
    // What the tools answered went back to the model: the created instance, the list, the refusal with its code (docs/rules/canvas.md#error-codes).
    const results = new Map(toolResultsIn(provider.requests[1]!.body));
    expect(results.get('create')).toMatch(/^Created instance "signup"/);
    expect(results.get('list')).toContain('- signup (page signup, idle, 1 block, 0 actions');
    const refused = toolResultsIn(provider.requests[2]!.body).find(([id]) => id === 'dup')![1];
    expect(refused).toContain('DUPLICATE_ID');
    expect(toolResultsIn(provider.requests[3]!.body).find(([id]) => id === 'fix')![1]).toMatch(/^Applied 2 patches to "signup"/);

    // The open page shows the instance the model built, without a reload.
    await frame.getByTestId('canvas-instance-signup').click();
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-instance'), { timeout: 10_000 }).toBe('signup');
    await frame.getByTestId('canvas-field-email').waitFor({ timeout: 10_000 });
    await frame.getByTestId('canvas-action-join').waitFor();
    await frame.getByTestId('canvas-step').waitFor();
    expect(await frame.getByTestId('canvas-field-plan').locator('option').allTextContents()).toEqual(expect.arrayContaining(['free', 'pro']));
    // Its history: the agent's calls in this conversation, the refused one with its code.
    const items = frame.getByTestId('canvas-history-item');
    await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(3);
    expect(await items.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-caller')))).toEqual(['agent', 'agent', 'agent']);
    expect(await items.nth(1).getByTestId('canvas-history-result').textContent()).toBe('DUPLICATE_ID');
    expect(await items.first().getByTestId('canvas-history-who').getAttribute('title')).toBe(`Conversation ${conversationId}`);

    // The store: the instance as built, and every call recorded with the agent and the conversation.
    const stored = JSON.parse(fs.readFileSync(path.join(home, 'chatos', 'ui_apps', 'data', 'chatos.canvas', 'canvas-instances.json'), 'utf8'));
    const signup = stored.instances.find((i: { instance_id: string }) => i.instance_id === 'signup');
    expect(signup.schema.blocks.map((b: { id: string }) => b.id)).toEqual(['signup']);
    expect(signup.schema.actions).toEqual([{ id: 'join', label: 'Join', style: 'primary', status: 'submitted' }]);
    const history = readHistory(path.join(home, 'chatos', 'ui_apps', 'data', 'chatos.canvas'), { instanceId: 'signup' });
    expect(history.map((e: any) => [e.kind, e.result.status, e.caller.kind, e.caller.agentId, e.caller.conversationId])).toEqual([
      ['patch', 'success', 'agent', AGENT, conversationId],
      ['patch', 'error', 'agent', AGENT, conversationId],
      ['create', 'success', 'agent', AGENT, conversationId],
    ]);
    await screenshot(page, 'canvas-07-built-in-chat-light-en');
  });
});
