import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliIn } from '../helpers/deskHome.js';
import { mcpAppView, openChromiumOn, openRoute, openSidePanelItem, pageReady, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A plugin page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app),
 * in a real `chatos serve` and Chromium: the fixture plugin
 * (test/fixtures/plugins/mcp-app-page) declares its page as the `ui://` view
 * of its own stdio server; opened from the Apps page, the view renders in the
 * MCP App frame, its button's `tools/call` reaches the plugin's server
 * through the gateway as the app (the audit says so), and an untrusted copy
 * shows no page and has its view refused in the core. Screenshot:
 * test-output/screenshots/plugin-mcp-app-page.png.
 */

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'plugins', 'mcp-app-page');
const PLUGIN = 'com.example.tally';
const COPY = 'com.example.tally-copy';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-plugin-mcp-app-'));
  const root = path.join(home, 'plugins');
  fs.cpSync(FIXTURE, path.join(root, 'tally'), { recursive: true });
  // The same plugin under another id, never trusted.
  fs.cpSync(FIXTURE, path.join(root, 'tally-copy'), { recursive: true });
  const copyManifest = path.join(root, 'tally-copy', 'plugin.json');
  fs.writeFileSync(copyManifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(copyManifest, 'utf8')), id: COPY, name: 'Tally copy' }));
  const cli = cliIn(home);
  await cli(['roots', 'add', root]);
  await cli(['trust', PLUGIN]);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 900 }));
}, 120_000);

afterEach(async (context) => screenshotOnFailure(page, 'plugin-mcp-app', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('a plugin page that is an MCP App', () => {
  it('opens from the Apps page as the view of its own server; its tools/call goes through the gateway as the app', async () => {
    await openRoute(page, '#/apps', 'page-apps');
    await page.getByTestId(`open-${PLUGIN}-tally`).click();
    const uiPage = page.getByTestId('page-uiapp');
    const iframe = uiPage.getByTestId('mcp-app-iframe');
    await iframe.waitFor({ timeout: 30_000 });
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    const frame = mcpAppView(uiPage);
    // The host answered ui/initialize: the page speaks the MCP Apps contract, not the ChatOS bridge.
    await frame.getByTestId('tally-host').filter({ hasText: 'ChatOS' }).waitFor({ timeout: 20_000 });
    expect(await frame.getByTestId('tally-theme').textContent()).toBe('light');

    await frame.getByTestId('tally-add').click();
    await frame.getByTestId('tally-count').filter({ hasText: 'count is 1' }).waitFor({ timeout: 20_000 });
    await frame.getByTestId('tally-add').click();
    await frame.getByTestId('tally-count').filter({ hasText: 'count is 2' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'plugin-mcp-app-page');

    // Audited as the app's own calls (no agent), in the page's own conversation, on its own server.
    const { records } = await api<{ records: { appId: string | null; agentId?: string; serverId: string | null; tool: string | null; outcome: string | null; conversationId: string | null }[] }>(
      'audit.list',
      { appId: PLUGIN },
    );
    const calls = records.filter((r) => r.tool?.endsWith('add_one'));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call).toMatchObject({ appId: PLUGIN, serverId: `${PLUGIN}::${PLUGIN}.tally`, outcome: 'ok' });
      expect(call.agentId).toBeUndefined();
      expect(call.conversationId).toMatch(/^ui-/);
    }
  });

  it('opens beside a conversation from the chat’s side-panel menu, in the same frame', async () => {
    // A conversation to sit beside; nothing is sent, so the model is never asked.
    await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'test-model' }, apiKey: 'sk-unused' });
    await api('agents.save', { agent: { id: 'counter', name: 'Counter', modelId: 'local', language: 'en' } });
    const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'counter' });
    await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversation.id);
    await pageReady(page, `/chat/${conversation.id}`);
    await openSidePanelItem(page, `side-panel-app-${PLUGIN}-tally`);
    const panel = page.getByTestId('side-panel');
    await panel.getByTestId('mcp-app-iframe').waitFor({ timeout: 30_000 });
    const frame = mcpAppView(panel);
    await frame.getByTestId('tally-host').filter({ hasText: 'ChatOS' }).waitFor({ timeout: 20_000 });
    await frame.getByTestId('tally-add').click();
    // A page's conversation has its own instance of the server (a new lease), so its count starts again.
    await frame.getByTestId('tally-count').filter({ hasText: 'count is 1' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'plugin-mcp-app-side-panel');
    const { records } = await api<{ records: { tool: string | null; agentId?: string }[] }>('audit.list', { appId: PLUGIN });
    expect(records.filter((r) => r.tool?.endsWith('add_one'))).toHaveLength(3);
  });

  it('an untrusted copy shows no page, and the core refuses its view and its calls', async () => {
    await page.evaluate(() => (window.location.hash = '#/apps'));
    await pageReady(page, '#/apps');
    const open = page.getByTestId(`open-${COPY}-tally`);
    await open.waitFor({ timeout: 20_000 });
    expect(await open.isDisabled()).toBe(true);
    await page.evaluate((id) => (window.location.hash = `#/apps/${id}/tally`), COPY);
    await pageReady(page, `#/apps/${COPY}/tally`);
    await page.getByTestId(`trust-block-${COPY}`).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('mcp-app-iframe').count()).toBe(0);
    await expect(api('uiApps.mcpAppView', { pluginId: COPY, appId: 'tally', conversationId: 'ui-copy-1' })).rejects.toThrow(/trust/i);
    await expect(api('uiApps.mcpAppCall', { pluginId: COPY, appId: 'tally', conversationId: 'ui-copy-1', tool: 'add_one', args: { by: 1 } })).rejects.toThrow(/trust/i);
    // Its server was never started: nothing of it in the audit either.
    const { records } = await api<{ records: unknown[] }>('audit.list', { appId: COPY });
    expect(records).toEqual([]);
  });

  it('refuses a tool the page may not call: only its own server’s tools that apps may see', async () => {
    // show_tally is visible to both, so the page may call it; a name its server does not offer is refused.
    await expect(api('uiApps.mcpAppCall', { pluginId: PLUGIN, appId: 'tally', conversationId: 'ui-tally-1', tool: 'drop_everything', args: {} })).rejects.toThrow(/may not call "drop_everything"/);
  });
});
