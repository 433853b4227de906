import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpAppView, pageReady, screenshot, screenshotOnFailure } from './browser.js';
import { startMcpAppChat, type McpAppChat } from './mcpAppChat.js';
import { repoRoot } from './tempDir.js';

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
 * chat. Screenshots: test-output/screenshots/mcp-app-example-*.
 */

/** The tool's result as the conversation keeps it: the server's own text (its first item) and the data a view reads. */
export interface StoredResult {
  text: string;
  structured?: any;
}

export interface Example {
  /** The server's name in mcp.yaml (so the model's tool is `mcp_<id>_<tool>`). */
  id: string;
  pkg: string;
  tool: string;
  /** The model's arguments; a function of the run's folder where they name a file in it. */
  args: Record<string, unknown> | ((dir: string) => Record<string, unknown>);
  /** Files the example reads, written to the run's folder (removed after the run) before its server starts. */
  files?: Record<string, Buffer>;
  /** Options of the server's own after `--stdio` (files it writes go in the run's folder, `dir`). */
  serverArgs?(dir: string): string[];
  /** What the view shows of the tool's input and result, once it shows it; the same value each time the view opens. */
  shown(view: FrameLocator, stored: StoredResult): Promise<string>;
  /** One interaction in the view and its effect; `calls(tool)` counts the audited calls of a tool of this server. */
  interact(view: FrameLocator, calls: (tool: string) => Promise<number>, stored: StoredResult): Promise<void>;
}

/** The text of `locator` once it matches `pattern`. */
export async function textOnce(locator: Locator, pattern: RegExp, timeout = 30_000): Promise<string> {
  await expect.poll(async () => ((await locator.textContent({ timeout: 5_000 }).catch(() => '')) ?? '').trim(), { timeout }).toMatch(pattern);
  return (await locator.textContent())!.trim();
}

/** Each example's own bin, as its package.json names it, over stdio. */
function exampleServer(example: Example, dir: string) {
  for (const [name, bytes] of Object.entries(example.files ?? {})) fs.writeFileSync(path.join(dir, name), bytes);
  const manifest = path.join(repoRoot, 'node_modules', example.pkg, 'package.json');
  const bin = Object.values((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin)[0]!;
  return { transport: 'stdio', command: process.execPath, args: [path.join(path.dirname(manifest), bin), '--stdio', ...(example.serverArgs?.(dir) ?? [])] };
}

/** A hang guard for one example's steps on a busy machine; the test that reopens every example gets one for each. */
const EXAMPLE_MS = 240_000;

type ToolMessage = { role: string; content?: { type: string; text?: string }[]; viewResult?: { structuredContent?: unknown } };

/**
 * One `describe` that runs `examples` in one serve, Chromium page and
 * scripted model (their servers side by side in one mcp.yaml): a test each
 * (the view inline, and one interaction), then one that loads the page
 * again and reopens each conversation (the view the same, inline and beside
 * the chat).
 */
export function describeExamples(title: string, examples: Example[]): void {
  let chat: McpAppChat;
  let page: Page;
  const api = <T = any>(method: string, params: Record<string, unknown> = {}) => chat.api<T>(method, params);

  /** Shows the conversation, its answer in. */
  async function openConversation(conversationId: string, answer: string): Promise<void> {
    await page.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
    await pageReady(page, `#/chat/${conversationId}`);
    await page.getByText(answer).waitFor({ timeout: 30_000 });
  }

  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-mcp-app-examples-'));
    chat = await startMcpAppChat({ servers: Object.fromEntries(examples.map((example) => [example.id, exampleServer(example, dir)])), agentId: 'tryer', viewport: { width: 1440, height: 900 } });
    page = chat.page;
  }, 180_000);

  afterEach(async (context) => screenshotOnFailure(page, 'mcp-app-example', context));

  afterAll(async () => {
    await chat?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What each example's test saw, for the test that loads the page again: its conversation and what its view showed. */
  const seen = new Map<string, { conversationId: string; answer: string; stored: StoredResult; shown: string }>();

  describe(title, () => {
    for (const example of examples) {
      it(`${example.pkg}: the view shows what ${example.tool} returned, and calls back`, { timeout: EXAMPLE_MS }, async () => {
        const name = `mcp_${example.id}_${example.tool}`;
        const answer = `Here is ${example.id}.`;
        chat.provider.enqueue(
          { kind: 'reply', toolCalls: [{ id: example.id, name, arguments: typeof example.args === 'function' ? example.args(dir) : example.args }] },
          { kind: 'reply', text: answer },
        );
        const { conversationId } = await api<{ conversationId: string }>('chat.send', { agentId: 'tryer', text: `show me ${example.id}` });
        await openConversation(conversationId, answer);
        await expect.poll(async () => (await api('conversations.get', { id: conversationId })).conversation.status.kind, { timeout: 60_000 }).toBe('done');
        // The server's own text is the result's first item (the host's notes to the model follow it).
        const message = (await api<{ messages: ToolMessage[] }>('conversations.get', { id: conversationId })).messages.find((candidate) => candidate.role === 'tool')!;
        const stored: StoredResult = { text: message.content![0]!.text!, structured: message.viewResult?.structuredContent };

        // Inline, with the data the tool returned.
        const card = page.getByTestId(`tool-call-${example.id}`);
        const shown = await example.shown(mcpAppView(card), stored);
        await screenshot(page, `mcp-app-example-${example.id}-1-inline`);

        // One interaction, and its effect.
        const calls = async (tool: string) => (await api<{ records: unknown[] }>('audit.list', { tool: `mcp_${example.id}_${tool}` })).records.length;
        await example.interact(mcpAppView(card), calls, stored);
        await screenshot(page, `mcp-app-example-${example.id}-2-interaction`);
        seen.set(example.id, { conversationId, answer, stored, shown });
      });
    }

    // One load of the page for all the examples (a load is seconds on a busy machine): each view is reopened from what
    // its conversation kept, in a page that has seen none of them yet.
    it('each view, its conversation reopened after the page loaded again, shows the same, in its card and beside the chat', { timeout: EXAMPLE_MS * examples.length }, async () => {
      await page.reload();
      for (const example of examples) {
        const before = seen.get(example.id);
        if (!before) throw new Error(`${example.pkg}: its own test did not get as far as its interaction, so there is nothing to reopen`);
        const { conversationId, answer, stored, shown } = before;
        await openConversation(conversationId, answer);
        const card = page.getByTestId(`tool-call-${example.id}`);
        expect(await example.shown(mcpAppView(card), stored), `${example.pkg}, reopened`).toBe(shown);

        // Beside the chat: the same view, told the same.
        // Pressed with the keyboard, as a keyboard user opens it: in the virtual chat list a row can still shift between a
        // mouse press and its release while sizes settle (a view loading), and a pointer click then lands beside it.
        await card.getByTestId('mcp-app-open-beside').press('Enter');
        const panel = page.getByTestId('side-panel');
        await panel.waitFor({ timeout: 30_000 });
        expect(await panel.getAttribute('data-kind')).toBe('mcpApp');
        expect(await example.shown(mcpAppView(panel), stored), `${example.pkg}, beside the chat`).toBe(shown);
        // The panel holds the view, however tall: the page does not grow past the window.
        expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
        await screenshot(page, `mcp-app-example-${example.id}-3-beside`);
        await page.getByTestId('side-panel-close').click();
        await panel.waitFor({ state: 'detached' });
      }
    });
  });
}
