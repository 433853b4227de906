import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpAppView, pageReady, screenshot, screenshotOnFailure } from '../helpers/browser.js';
import { startMcpAppChat, type McpAppChat } from '../helpers/mcpAppChat.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * The official MCP Apps examples (modelcontextprotocol/ext-apps `examples/`),
 * as their authors published them on npm (2.x, devDependencies, unmodified),
 * each over stdio with its own bin, in a real `chatos serve` and Chromium
 * (docs/using/mcp-apps.md#the-official-examples). For each: a scripted model
 * calls the example's tool that has a view; the view renders under its card
 * showing the data the tool returned (read back from the stored result);
 * one interaction in the view (a call back to its server through the
 * gateway, where the example has one) shows its effect; the conversation,
 * reloaded, renders the view the same; and the same view renders beside the
 * chat. Picked for what they exercise: plain script, Vue (touches
 * `window.parent`), Chart.js and a local interaction, an app-only tool the
 * view polls, three.js (eval, WebGL). Screenshots:
 * test-output/screenshots/mcp-app-example-*.
 */

interface Example {
  /** The server's name in mcp.yaml (so the model's tool is `mcp_<id>_<tool>`). */
  id: string;
  pkg: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the view shows of the tool's result, once it shows it; `stored` is the result's text as the conversation keeps it. */
  shown(view: FrameLocator, stored: string): Promise<string>;
  /** One interaction in the view and its effect; `calls(tool)` counts the audited calls of a tool of this server. */
  interact(view: FrameLocator, calls: (tool: string) => Promise<number>): Promise<void>;
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The text of `locator` once it matches `pattern`. */
async function textOnce(locator: Locator, pattern: RegExp, timeout = 30_000): Promise<string> {
  await expect.poll(async () => ((await locator.textContent({ timeout: 5_000 }).catch(() => '')) ?? '').trim(), { timeout }).toMatch(pattern);
  return (await locator.textContent())!.trim();
}

/** The basic examples (vanillajs, vue): the time the tool returned; their button calls get-time again through the gateway. */
function timeExample(id: string, pkg: string, timeOf: (view: FrameLocator) => Locator): Example {
  return {
    id,
    pkg,
    tool: 'get-time',
    args: {},
    async shown(view, stored) {
      const time = await textOnce(timeOf(view), ISO_TIME);
      expect(time).toBe(stored.trim());
      return time;
    },
    async interact(view, calls) {
      const before = await textOnce(timeOf(view), ISO_TIME);
      await view.getByRole('button', { name: 'Get Server Time' }).click();
      await expect.poll(async () => (await timeOf(view).textContent())?.trim(), { timeout: 30_000 }).not.toBe(before);
      expect(await timeOf(view).textContent()).toMatch(ISO_TIME);
      expect(await calls('get-time')).toBe(2);
    },
  };
}

const EXAMPLES: Example[] = [
  timeExample('vanilla', '@modelcontextprotocol/server-basic-vanillajs', (view) => view.locator('#server-time')),
  timeExample('vue', '@modelcontextprotocol/server-basic-vue', (view) => view.locator('.server-time')),
  {
    id: 'budget',
    pkg: '@modelcontextprotocol/server-budget-allocator',
    tool: 'get-budget-data',
    args: {},
    // Its text says the budget and categories; the view draws them from the result's structuredContent.
    async shown(view, stored) {
      const total = /Default Budget: (\$[\d,]+)/.exec(stored)![1]!;
      const categories = [...stored.matchAll(/^ {2}- (.+): \d+% default$/gm)].map((match) => match[1]!);
      expect(categories.length).toBeGreaterThanOrEqual(3);
      const status = await textOnce(view.locator('#status-bar'), new RegExp(`/ \\${total}`));
      for (const category of categories) await view.getByText(category, { exact: true }).first().waitFor({ timeout: 10_000 });
      await textOnce(view.locator('#comparison-summary'), /^(?!Loading)\S/);
      return status;
    },
    // Its interactions are its own (no call to its server): the budget picked is what it allocates.
    async interact(view) {
      await view.locator('#budget-selector').selectOption('250000');
      await textOnce(view.locator('#status-bar'), /\/ \$250,000/);
    },
  },
  {
    id: 'monitor',
    pkg: '@modelcontextprotocol/server-system-monitor',
    tool: 'get-system-info',
    args: {},
    async shown(view, stored) {
      const info = JSON.parse(stored) as { hostname: string };
      return textOnce(view.locator('#info-hostname'), new RegExp(`^${info.hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    },
    // Start polls poll-system-stats, a tool for the app alone, through the gateway: the memory figure appears.
    async interact(view, calls) {
      await view.locator('#poll-toggle-btn').click();
      await textOnce(view.locator('#memory-percent'), /^\d+(\.\d+)?%$/);
      expect(await calls('poll-system-stats')).toBeGreaterThanOrEqual(1);
      await view.locator('#poll-toggle-btn').click();
    },
  },
  {
    id: 'three',
    pkg: '@modelcontextprotocol/server-threejs',
    tool: 'show_threejs_scene',
    // The scene is code the view evaluates (new Function): it marks its canvas so the test can see it ran.
    args: {
      code: [
        'const scene = new THREE.Scene();',
        'const camera = new THREE.PerspectiveCamera(75, width / height, 0.1, 100);',
        'camera.position.z = 3;',
        'const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });',
        'renderer.setSize(width, height, false);',
        'scene.add(new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshNormalMaterial()));',
        'renderer.render(scene, camera);',
        "canvas.dataset.scene = 'a cube of ' + scene.children.length + ' mesh';",
      ].join('\n'),
      height: 300,
    },
    async shown(view) {
      await expect
        .poll(
          async () =>
            view
              .locator('canvas[data-scene]')
              .getAttribute('data-scene', { timeout: 5_000 })
              .catch(() => null),
          { timeout: 60_000 },
        )
        .toBe('a cube of 1 mesh');
      return 'a cube of 1 mesh';
    },
    // It calls nothing back on its server (the scene's code gets three.js and its canvas only): the scene stays drawn.
    async interact(view) {
      await view.locator('canvas[data-scene]').waitFor({ timeout: 10_000 });
    },
  },
];

let chat: McpAppChat;
let page: Page;
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => chat.api<T>(method, params);

/** Each example's own bin, as its package.json names it, over stdio. */
function exampleServer(example: Example) {
  const manifest = path.join(repoRoot, 'node_modules', example.pkg, 'package.json');
  const bin = Object.values((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin)[0]!;
  return { transport: 'stdio', command: process.execPath, args: [path.join(path.dirname(manifest), bin), '--stdio'] };
}

beforeAll(async () => {
  chat = await startMcpAppChat({ servers: Object.fromEntries(EXAMPLES.map((example) => [example.id, exampleServer(example)])), agentId: 'tryer', viewport: { width: 1440, height: 900 } });
  page = chat.page;
}, 180_000);

afterEach(async (context) => screenshotOnFailure(page, 'mcp-app-example', context));

afterAll(async () => {
  await chat?.close();
});

/** Shows the conversation, its answer in. */
async function openConversation(conversationId: string, answer: string): Promise<void> {
  await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
  await pageReady(page, `#/chat/${conversationId}`);
  await page.getByText(answer).waitFor({ timeout: 30_000 });
}

describe('the official MCP Apps examples, inline and beside the chat', () => {
  for (const example of EXAMPLES) {
    it(`${example.pkg}: the view shows what ${example.tool} returned, calls back, reopens the same, and shows beside the chat`, async () => {
      const name = `mcp_${example.id}_${example.tool}`;
      const answer = `Here is ${example.id}.`;
      chat.provider.enqueue({ kind: 'reply', toolCalls: [{ id: example.id, name, arguments: example.args }] }, { kind: 'reply', text: answer });
      const { conversationId } = await api<{ conversationId: string }>('chat.send', { agentId: 'tryer', text: `show me ${example.id}` });
      await openConversation(conversationId, answer);
      await expect.poll(async () => (await api('conversations.get', { id: conversationId })).conversation.status.kind, { timeout: 60_000 }).toBe('done');
      // The server's own text is the result's first item (the host's notes to the model follow it).
      const stored = (await api<{ messages: { role: string; content?: { type: string; text?: string }[] }[] }>('conversations.get', { id: conversationId })).messages.find(
        (message) => message.role === 'tool',
      )!.content![0]!.text!;

      // Inline, with the data the tool returned.
      const card = page.getByTestId(`tool-call-${example.id}`);
      const shown = await example.shown(mcpAppView(card), stored);
      await screenshot(page, `mcp-app-example-${example.id}-1-inline`);

      // One interaction, and its effect.
      const calls = async (tool: string) => (await api<{ records: unknown[] }>('audit.list', { tool: `mcp_${example.id}_${tool}` })).records.length;
      await example.interact(mcpAppView(card), calls);
      await screenshot(page, `mcp-app-example-${example.id}-2-interaction`);

      // Reopened (the page loaded again): the same view, told the same.
      await page.reload();
      await openConversation(conversationId, answer);
      expect(await example.shown(mcpAppView(card), stored)).toBe(shown);

      // Beside the chat: the same view, told the same.
      await card.getByTestId('mcp-app-open-beside').click();
      const panel = page.getByTestId('side-panel');
      await panel.waitFor({ timeout: 30_000 });
      expect(await panel.getAttribute('data-kind')).toBe('mcpApp');
      expect(await example.shown(mcpAppView(panel), stored)).toBe(shown);
      await screenshot(page, `mcp-app-example-${example.id}-3-beside`);
      await page.getByTestId('side-panel-close').click();
    }, 240_000);
  }
});
