import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { launchChromium, mcpAppView, openRoute, pageReady, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * What a view gets (docs/rules/mcp-apps.md#the-result-a-view-gets), in a
 * real `chatos serve` and Chromium: a scripted model calls the official
 * basic example's get-time (the real npm package over stdio) and its view
 * under the card shows the server time it returned, again after the
 * conversation is reopened; the canvas view under a patch card shows the
 * instance at that revision; a result whose data is too large to keep says
 * so in the view's place; a view reads its server's resource and asks to
 * be closed. Screenshots: test-output/screenshots/mcp-apps-data-*.
 */

const BASIC_MAIN = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
const DATA_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'viewDataServer.mjs');
const CANVAS = 'chatos.canvas::chatos.canvas.canvas';
const PATCH = 'mcp_chatos_canvas_canvas_patch_ui_state';
const AGENT = 'viewer';

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

/** The view's document in its frame, under `scope` (a tool card, the side panel). */
const viewIn = (scope: Locator): FrameLocator => mcpAppView(scope);

/** Sends `text` to the agent (the model's answers already queued), opens the conversation, and waits until its turn is done. */
async function converse(text: string): Promise<string> {
  const { conversationId } = await api<{ conversationId: string }>('chat.send', { agentId: AGENT, text });
  await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
  await pageReady(page, `#/chat/${conversationId}`);
  await expect.poll(async () => (await api('conversations.get', { id: conversationId })).conversation.status.kind, { timeout: 60_000 }).toBe('done');
  return conversationId;
}

/** Another page, then the conversation again, in a fresh load of the app: what it shows comes from what was stored. */
async function reopen(conversationId: string): Promise<void> {
  await page.evaluate(() => (window.location.hash = '#/agents'));
  await page.reload();
  await pageReady(page, '#/agents');
  await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
  await pageReady(page, `#/chat/${conversationId}`);
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-mcp-apps-data-'));
  writeMcpYaml(home, {
    basic: { transport: 'stdio', command: process.execPath, args: [BASIC_MAIN, '--stdio'] },
    data: { transport: 'stdio', command: process.execPath, args: [DATA_SERVER] },
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-mcp-apps-data' });
  await api('agents.save', {
    agent: {
      id: AGENT,
      name: 'Viewer',
      modelId: 'local',
      language: 'en',
      uiApps: [
        { pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::basic', 'chatos::data'] },
        { pluginId: 'chatos.canvas', appId: 'canvas', mcp: true, mcpServerIds: [CANVAS] },
      ],
    },
  });
}, 120_000);

afterEach((context) => screenshotOnFailure(page, 'mcp-apps-data', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('a view gets what its tool returned', () => {
  it("the official basic example's view shows the server time, and again when the conversation is reopened", async () => {
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'time', name: 'mcp_basic_get-time', arguments: {} }] }, { kind: 'reply', text: 'That is the server time.' });
    const conversationId = await converse('What time is it on the server?');
    const stored = (await api('conversations.get', { id: conversationId })).messages.find((m: { role: string }) => m.role === 'tool');
    const time: string = stored.viewResult.structuredContent.time;
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT/);

    const card = page.getByTestId('tool-call-time');
    const shown = viewIn(card).locator('#server-time');
    await expect.poll(() => shown.textContent(), { timeout: 30_000 }).toBe(time);
    await screenshot(page, 'mcp-apps-data-01-basic-time');

    await reopen(conversationId);
    await expect.poll(() => viewIn(page.getByTestId('tool-call-time')).locator('#server-time').textContent(), { timeout: 30_000 }).toBe(time);
    await screenshot(page, 'mcp-apps-data-02-basic-time-reopened');
  }, 180_000);

  it('the canvas view under a patch card shows the instance at that revision', async () => {
    const form = { id: 'trip', type: 'form', bind: 'state.params', props: { title: 'Trip request', fields: [{ label: 'Destination', key: 'to', type: 'text' }] } };
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'create', name: PATCH, arguments: { instance_id: '__CREATE__', new_instance_id: 'trip', patches: [{ op: 'add', path: 'blocks+', value: form }] } }] },
      { kind: 'reply', text: 'The trip form is ready.' },
    );
    const conversationId = await converse('Make me a trip request form.');
    const stored = (await api('conversations.get', { id: conversationId })).messages.find((m: { role: string }) => m.role === 'tool');
    const revision: number = stored.viewResult.structuredContent.revision;

    const view = viewIn(page.getByTestId('tool-call-create'));
    await view
      .getByTestId('canvas-revision')
      .filter({ hasText: `rev ${revision}` })
      .waitFor({ timeout: 30_000 });
    expect(await view.getByText('Trip request').count()).toBeGreaterThan(0);
    expect(await view.getByTestId('canvas-notice').count()).toBe(0);
    await screenshot(page, 'mcp-apps-data-03-canvas-instance');
  }, 180_000);

  it('says in the view’s place what was too large to keep; nothing stored is lost; the chat goes on', async () => {
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'huge', name: 'mcp_data_huge_report', arguments: {} }] }, { kind: 'reply', text: 'The huge report is in.' });
    const conversationId = await converse('The huge report, please.');
    const card = page.getByTestId('tool-call-huge');
    const cut = card.getByTestId('mcp-app-result-cut');
    await cut.waitFor({ timeout: 30_000 });
    expect(await cut.textContent()).toContain("the result's structuredContent is 1025 KB; at most 512 KB is kept for the view");
    // The view still got the content the conversation kept.
    await viewIn(card).getByTestId('data-text').filter({ hasText: 'a huge report' }).waitFor({ timeout: 30_000 });
    expect(await viewIn(card).getByTestId('data-value').textContent()).toBe('(no structuredContent)');
    await page.getByText('The huge report is in.').waitFor({ timeout: 30_000 });
    const stored = (await api('conversations.get', { id: conversationId })).messages.find((m: { role: string }) => m.role === 'tool');
    // (After it, the host's reminder to the model may follow: it is the model's, not the view's.)
    expect(stored.content[0]).toEqual({ type: 'text', text: 'a huge report' });
    await screenshot(page, 'mcp-apps-data-04-result-cut');
  }, 180_000);

  it('in the Playground, the view gets the structuredContent and _meta of the call', async () => {
    await openRoute(page, '#/playground', 'page-playground');
    await page.getByTestId('tool-row-mcp_data_report').click();
    await page.getByTestId('args-tab-raw').click();
    await page.getByTestId('args-raw').fill('{}');
    await page.getByTestId('tool-call').click();
    const view = viewIn(page.getByTestId('playground-tool'));
    await view.getByTestId('data-value').filter({ hasText: '42' }).waitFor({ timeout: 30_000 });
    expect(await view.getByTestId('data-meta').textContent()).toBe('{"example.com/revision":7}');
    await screenshot(page, 'mcp-apps-data-06-playground');
  }, 180_000);

  it("a view's resources/read is answered through the host, and a view that asks to go is closed, and can be shown again", async () => {
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'report', name: 'mcp_data_report', arguments: {} }] }, { kind: 'reply', text: 'The report is in.' });
    await converse('The report, please.');
    const card = page.getByTestId('tool-call-report');
    const view = viewIn(card);
    await view.getByTestId('data-value').filter({ hasText: '42' }).waitFor({ timeout: 30_000 });
    expect(await view.getByTestId('data-meta').textContent()).toBe('{"example.com/revision":7}');

    await view.getByTestId('data-read').press('Enter');
    await view.getByTestId('data-notes').filter({ hasText: 'the notes of the data server' }).waitFor({ timeout: 20_000 });
    const audit = await api<{ records: { outcome: string; args?: string }[] }>('audit.list', { tool: 'resources/read' });
    expect(audit.records).toEqual(expect.arrayContaining([expect.objectContaining({ outcome: 'ok', args: expect.stringContaining('data://notes') })]));
    await screenshot(page, 'mcp-apps-data-05-resource-read');

    await view.getByTestId('data-close').press('Enter');
    await card.getByTestId('mcp-app-closed').waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('mcp-app-iframe').count()).toBe(0);
    await card.getByTestId('mcp-app-show-again').click();
    await viewIn(card).getByTestId('data-value').filter({ hasText: '42' }).waitFor({ timeout: 30_000 });
  }, 180_000);
});
