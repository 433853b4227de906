import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { chooseOption, type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * Long tool calls in Chromium against a real `chatos serve`: the chat
 * fixture's `slow` tool (a real stdio MCP server) reports progress step by
 * step; the Playground and the Chat page show it with a Cancel button, and
 * Cancel really cancels (the server logs that it was told). The calls made
 * here are then found on the History page.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const folders = fileFolders();
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

const open = (route: string, root: string) => openRoute(page, route, root);

/** Waits until the chat server's log says the slow tool was cancelled (n times in all). */
async function serverToldToCancel(times: number): Promise<void> {
  await expect
    .poll(async () => (await api<{ lines: string[] }>('servers.log', { serverId: 'chatos::chat' })).lines.filter((line) => line.includes('slow cancelled')).length, { timeout: 20_000 })
    .toBe(times);
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-long-');
  writeMcpYaml(home, { chat: chatServerEntry() });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-long-plugins-'),
    server: 'chat',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-long-calls-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Runs long jobs' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 860 }));
});

afterEach((context) => screenshotOnFailure(page, 'long', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('long tool calls', () => {
  it('the Playground shows the progress of a slow tool and Cancel stops it on the server', async () => {
    await open('#/playground', 'page-playground');
    await page.getByTestId('tool-row-mcp_chat_slow').click();
    await page.getByTestId('args-tab-raw').click();
    await page.getByTestId('args-raw').fill(JSON.stringify({ steps: 400, stepMs: 100 }));
    await page.getByTestId('tool-call').click();
    // The bar and the server's own words, as its notifications arrive.
    await expect.poll(() => page.getByTestId('call-progress-message').textContent(), { timeout: 20_000 }).toMatch(/^step [3-9]\d* of 400$/);
    await page.getByTestId('call-progress-bar').waitFor();
    await screenshot(page, 'long-01-playground-progress');
    await page.getByTestId('call-cancel').click();
    await page.getByTestId('call-cancelled').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('call-cancelled').textContent()).toContain('You cancelled this call');
    expect(await page.getByTestId('call-progress').count()).toBe(0);
    await serverToldToCancel(1);
    await screenshot(page, 'long-02-playground-cancelled');
  });

  it('a chat tool card shows the progress and Cancel ends that call alone: the answer goes on', async () => {
    provider.enqueue(
      { kind: 'reply', text: 'Starting the long job.', toolCalls: [{ id: 'long1', name: 'mcp_chat_slow', arguments: { steps: 400, stepMs: 100 } }] },
      { kind: 'reply', text: 'The job was cancelled, as you asked.' },
    );
    await open('#/chat', 'page-chat');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('run the long job');
    await input.press('Enter');
    const card = page.getByTestId('tool-call-long1');
    await expect
      .poll(
        () =>
          card
            .getByTestId('call-progress-message')
            .textContent()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toMatch(/^step [2-9]\d* of 400$/);
    await screenshot(page, 'long-03-chat-progress');
    // With the keyboard: a button in the chat's list while its card's progress still comes in (docs/contributing/testing.md).
    await card.getByTestId('call-cancel').press('Enter');
    await page.locator('[data-testid="tool-call-long1"][data-status="cancelled"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase'), { timeout: 20_000 }).toBe('done');
    // The answer's row may first be a box of its size (rows render within a frame budget): wait for its text.
    await expect.poll(() => page.getByTestId('chat-pane').textContent()).toContain('The job was cancelled, as you asked.');
    await serverToldToCancel(2);
    await screenshot(page, 'long-04-chat-cancelled');
  });

  it('the History page lists the calls, filters them, and opens one with its arguments, result and duration', async () => {
    await api('tools.call', { agentId: 'helper', conversationId: 'history-1', tool: 'mcp_chat_echo', args: { text: 'hello history', loud: true } });
    await open('#/history', 'page-history');
    // Both cancelled slow calls (Playground and chat) are there, in words.
    await expect.poll(() => page.getByTestId('history-row-mcp_chat_slow').count(), { timeout: 20_000 }).toBe(2);
    expect(await page.getByTestId('history-row-mcp_chat_slow').first().getByTestId('history-outcome').textContent()).toBe('You cancelled it; the server was told to stop');
    await screenshot(page, 'long-05-history');
    await page.getByTestId('history-filter-tool').click();
    await page.keyboard.type('echo');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'mcp_chat_echo' }).first().click();
    await expect.poll(() => page.getByTestId('history-row-mcp_chat_slow').count()).toBe(0);
    await expect.poll(() => page.getByTestId('history-row-mcp_chat_echo').count()).toBe(1);
    expect(await page.getByTestId('history-row-mcp_chat_echo').getByTestId('history-outcome').textContent()).toBe('Ran');
    await page.getByTestId('history-row-mcp_chat_echo').click();
    const detail = page.locator('.ant-drawer:visible');
    await detail.getByTestId('history-detail-args').waitFor();
    expect(await detail.getByTestId('history-detail-args').textContent()).toBe('texthello historyloudtrue');
    expect(await detail.getByTestId('history-detail-result').textContent()).toBe('hello history');
    expect(await detail.getByTestId('history-detail-duration').textContent()).toMatch(/^\d+ ms$/);
    await screenshot(page, 'long-06-history-detail');
    await detail.locator('.ant-drawer-close').click();
    await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
    // By outcome: the cancelled calls, in words.
    await page.getByTestId('history-filter-tool').hover();
    await page.locator('[data-testid="history-filter-tool"] .ant-select-clear').click();
    await chooseOption(page, page.getByTestId('history-filter-outcome'), 'You cancelled it');
    // The two slow calls were listed before the filter too: what shows it applied is the echo call gone.
    await expect.poll(() => page.getByTestId('history-row-mcp_chat_echo').count()).toBe(0);
    expect(await page.getByTestId('history-row-mcp_chat_slow').count()).toBe(2);
  });
});
