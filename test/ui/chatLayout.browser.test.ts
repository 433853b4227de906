import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpAppView, pageReady, screenshot, screenshotOnFailure } from '../helpers/browser.js';
import { startMcpAppChat, type McpAppChat } from '../helpers/mcpAppChat.js';
import { repoRoot } from '../helpers/tempDir.js';
import { until } from '../helpers/until.js';

/**
 * Room for the chat beside the side panel (docs/using/side-panel.md#room-for-the-chat),
 * at the window sizes people use, in a real `chatos serve` and Chromium: a
 * few conversations titled by long first messages, one showing an MCP App
 * view beside the chat. The list keeps its width and cuts its titles (the
 * whole title on hover); with the panel open the chat keeps 420 px, the
 * list stepping aside first (a button shows it over the chat), and the
 * panel stays usable, even when it was dragged wide. Screenshots:
 * test-output/screenshots/chat-layout-*.
 */

const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')] };
const LONG = [
  'Please compare every quarterly budget line of the northern and southern regional offices since the merger',
  'Draft a detailed migration plan for moving the billing service from the old cluster to the new one',
  'Summarise the findings of the accessibility review of the customer portal and list what to fix first',
];
const CHAT_MIN = 420;
const PANEL_MIN = 280;

let chat: McpAppChat;
let page: Page;
let conversationId: string;
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => chat.api<T>(method, params);

/** Once the agent has answered in conversation `id`. */
const answered = (id: string) => until(`conversation ${id} to be answered`, async () => ((await api('conversations.get', { id })).conversation.status.kind === 'done' ? true : undefined));

/** The rendered width of the element with `testId` (0 when it is not shown). */
const widthOf = (testId: string) =>
  page.evaluate((id) => {
    const element = document.querySelector(`[data-testid="${id}"]`);
    return element ? element.getBoundingClientRect().width : 0;
  }, testId);

beforeAll(async () => {
  chat = await startMcpAppChat({ servers: { shop: SHOP }, agentId: 'planner', viewport: { width: 1440, height: 900 } });
  page = chat.page;
  for (const text of LONG) {
    chat.provider.enqueue({ kind: 'reply', text: `On it: ${text.slice(0, 20)}.` });
    const { conversationId: id } = await api<{ conversationId: string }>('chat.send', { agentId: 'planner', text });
    await answered(id);
  }
  // The newest one shows an MCP App view, which the user opens beside the chat.
  chat.provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'view', name: 'mcp_shop_show_shop', arguments: { item: 'pears' } }] }, { kind: 'reply', text: 'The shop is beside you.' });
  ({ conversationId } = await api<{ conversationId: string }>('chat.send', {
    agentId: 'planner',
    text: 'Open the shop for pears and keep it beside the chat while we go through the quarterly numbers together',
  }));
  await answered(conversationId);
}, 240_000);

afterEach(async (context) => screenshotOnFailure(page, 'chat-layout', context));

afterAll(async () => {
  await chat?.close();
});

/** The conversation at `width`×`height`, its view loaded inline. */
async function openAt(width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
  await pageReady(page, `#/chat/${conversationId}`);
  await page.getByText('The shop is beside you.').waitFor({ timeout: 30_000 });
  await mcpAppView(page.getByTestId('tool-call-view')).getByTestId('shop-result').filter({ hasText: 'pears' }).waitFor({ timeout: 30_000 });
}

/** Opens the view beside the chat. */
async function openBeside(): Promise<void> {
  // Pressed with the keyboard, as a keyboard user opens it: in the virtual chat list a row can still shift between a
  // mouse press and its release while sizes settle (a view loading), and a pointer click then lands beside it.
  await page.getByTestId('tool-call-view').getByTestId('mcp-app-open-beside').press('Enter');
  await mcpAppView(page.getByTestId('side-panel')).getByTestId('shop-result').filter({ hasText: 'pears' }).waitFor({ timeout: 30_000 });
}

describe('room for the chat', () => {
  it('the list keeps its width and cuts long titles, the whole title on hover', async () => {
    await openAt(1440, 900);
    await expect.poll(() => page.getByTestId('page-chat').getAttribute('data-list')).toBe('beside');
    expect(await widthOf('chat-sidebar')).toBeLessThanOrEqual(260);
    const title = page.getByTestId('conversation-title').filter({ hasText: 'Please compare' });
    expect(await title.getAttribute('title')).toBe(LONG[0]!.slice(0, 80));
    // Cut: the text is wider than the room it has, and ends in an ellipsis.
    const cut = await title.locator('.conversation-title-text').evaluate((element) => ({ overflows: element.scrollWidth > element.clientWidth, style: getComputedStyle(element).textOverflow }));
    expect(cut).toEqual({ overflows: true, style: 'ellipsis' });
    await screenshot(page, 'chat-layout-1-list-1440');
  }, 120_000);

  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ] as const) {
    it(`at ${width}×${height} with the panel open, the chat keeps ${CHAT_MIN} px and the panel is usable`, async () => {
      await openAt(width, height);
      await openBeside();
      await expect.poll(() => widthOf('chat-pane'), { timeout: 10_000 }).toBeGreaterThanOrEqual(CHAT_MIN);
      expect(await widthOf('side-panel')).toBeGreaterThanOrEqual(PANEL_MIN);
      // Both are readable: the newest answer in the chat and the view in the panel are on screen, side by side.
      const answer = await page.getByText('The shop is beside you.').boundingBox();
      const panel = await page.getByTestId('side-panel').boundingBox();
      expect(answer!.x + answer!.width).toBeLessThanOrEqual(panel!.x);
      expect(panel!.x + panel!.width).toBeLessThanOrEqual(width);
      await page.getByTestId('chat-input').fill('and the numbers?');
      await screenshot(page, `chat-layout-2-panel-${width}`);
      await page.getByTestId('chat-input').fill('');

      // Where the list does not fit beside them, it stepped aside: a button shows it over the chat, and picking a conversation opens it.
      if ((await page.getByTestId('page-chat').getAttribute('data-list')) === 'aside') {
        expect(await widthOf('chat-sidebar')).toBe(0);
        await page.getByTestId('chat-list-show').click();
        const drawer = page.getByTestId('chat-list-drawer');
        await drawer.getByTestId('conversation-title').first().waitFor({ timeout: 10_000 });
        await screenshot(page, `chat-layout-3-list-over-chat-${width}`);
        await drawer.getByTestId('conversation-title').filter({ hasText: 'Please compare' }).click();
        await page.getByText('On it: Please compare every.').waitFor({ timeout: 30_000 });
        await expect.poll(() => drawer.isVisible()).toBe(false);
        // Back to the conversation with the panel (it stayed open there).
        await openAt(width, height);
      }
      await page.getByTestId('side-panel-close').click();
    }, 120_000);
  }

  it('1280×800 is too narrow for the list beside the chat and the panel: the list steps aside', async () => {
    await openAt(1280, 800);
    await openBeside();
    await expect.poll(() => page.getByTestId('page-chat').getAttribute('data-list')).toBe('aside');
    // Closed, the list comes back.
    await page.getByTestId('side-panel-close').click();
    await expect.poll(() => page.getByTestId('page-chat').getAttribute('data-list')).toBe('beside');
  }, 120_000);

  it('a panel dragged wide gives way: the chat keeps its room at both sizes', async () => {
    // The width the user dragged it to last time (the most the handle allows).
    await page.evaluate(() => localStorage.setItem('chatos.sidePanel.width', '900'));
    for (const [width, height] of [
      [1440, 900],
      [1280, 800],
    ] as const) {
      await openAt(width, height);
      await openBeside();
      await expect.poll(() => widthOf('chat-pane'), { timeout: 10_000 }).toBeGreaterThanOrEqual(CHAT_MIN);
      expect(await widthOf('side-panel')).toBeGreaterThanOrEqual(PANEL_MIN);
      await screenshot(page, `chat-layout-4-wide-panel-${width}`);
      await page.getByTestId('side-panel-close').click();
    }
    await page.evaluate(() => localStorage.removeItem('chatos.sidePanel.width'));
  }, 120_000);
});
