import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../chromium.js';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost, type Host } from '../../src/core/host.js';
import { startHeadlessServer, type HeadlessServer } from '../../src/serve/headlessServer.js';
import { longConversationMessages, writeConversationLog } from './longConversation.js';
import { atMost, check, grouped, info, type BenchSection } from './section.js';

/**
 * Long conversations on the Chat page (issue 28): conversations of 100,
 * 1,000 and 3,000 messages (user questions, tool calls and results,
 * Markdown answers with code), written as real conversation files, opened
 * in headless Chromium against `chatos serve` (in process). For each: the
 * time from opening it to its last message shown, the DOM's size, the JS
 * heap after a garbage collection, and the main-thread tasks over 50 ms
 * while the user scrolls (by wheel) to its first message. Judged as ratios
 * of the longest to the shortest: a conversation of any length should open
 * and scroll like a short one.
 */

const repoRoot = findAppRoot();
const RENDERER_DIR = path.join(repoRoot, 'dist', 'renderer');
const SIZES = [100, 1000, 3000] as const;
/** A scroll to the top that has not arrived by then is reported as not arrived (the old page took minutes). */
const SCROLL_LIMIT_MS = 90_000;
const WHEEL_PX = 2400;

interface Opened {
  messages: number;
  openMs: number;
  domNodes: number;
  heapMb: number;
  scrollMs: number;
  reachedTop: boolean;
  longTasks: number[];
  idleLongTasks: number[];
}

// Strings, not functions: this file is compiled without the DOM library.
const OBSERVE_LONG_TASKS = `(() => {
  window.__longTasks = [];
  window.__observer?.disconnect();
  window.__observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); });
  window.__observer.observe({ type: 'longtask' });
})()`;
const TWO_FRAMES = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))';
const IDLE = 'new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 }))';

const over50 = (tasks: number[]) => tasks.filter((duration) => duration > 50);

async function openConversation(server: HeadlessServer, conversationId: string, count: number): Promise<Opened> {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.goto(`${server.url}#/chat`);
    await page.getByTestId('chat-new-pane').waitFor({ timeout: 30_000 });
    // Markdown and the highlighter loaded once, as they are once a user has opened any conversation.
    await page.evaluate(IDLE);

    const last = page.locator(`[data-message="m${count - 1}"]`);
    const started = performance.now();
    await page.evaluate(`window.location.hash = '#/chat/${conversationId}'`);
    await last.waitFor({ state: 'visible', timeout: 120_000 });
    await page.evaluate(TWO_FRAMES);
    const openMs = performance.now() - started;
    check(((await last.textContent()) ?? '').includes(`That is all for turn ${Math.floor((count - 1) / 4)}`), 'the last message did not render its text');
    await page.evaluate(IDLE);

    const domNodes = (await page.evaluate('document.getElementsByTagName("*").length')) as number;
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const heapMb = heap.usedSize / 1024 / 1024;

    const { ms: scrollMs, reachedTop, longTasks } = await scrollToTop(page);
    // Baseline: the same page idle for as long.
    await page.evaluate(OBSERVE_LONG_TASKS);
    await page.evaluate(`new Promise((resolve) => setTimeout(resolve, ${Math.round(Math.min(scrollMs, 20_000))}))`);
    const idleLongTasks = over50((await page.evaluate('window.__longTasks')) as number[]);
    return { messages: count, openMs, domNodes, heapMb, scrollMs, reachedTop, longTasks, idleLongTasks };
  } finally {
    await browser.close();
  }
}

/** Wheels up over the messages until the first one is shown at the top (older windows load on the way), or the time limit. */
async function scrollToTop(page: Page): Promise<{ ms: number; reachedTop: boolean; longTasks: number[] }> {
  const scroller = page.locator('.chat-scroll');
  const box = await scroller.boundingBox();
  check(box, 'the conversation has no scroll area');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(OBSERVE_LONG_TASKS);
  const first = page.locator('[data-message="m0"]');
  const started = performance.now();
  let reachedTop = false;
  while (performance.now() - started < SCROLL_LIMIT_MS) {
    await page.mouse.wheel(0, -WHEEL_PX);
    await page.evaluate(TWO_FRAMES);
    if ((await first.count()) > 0 && (await scroller.evaluate((el) => el.scrollTop)) <= 0) {
      reachedTop = true;
      break;
    }
  }
  const ms = performance.now() - started;
  await page.evaluate(TWO_FRAMES);
  return { ms, reachedTop, longTasks: over50((await page.evaluate('window.__longTasks')) as number[]) };
}

export async function runLongChatBench(): Promise<BenchSection> {
  if (!fs.existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build"');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-longchatbench-'));
  const empty = path.join(home, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  let host: Host | undefined;
  let server: HeadlessServer | undefined;
  try {
    host = createHost({ home, appRoot: repoRoot, builtinPluginsDir: empty, defaultsDir: empty, sessionRoot: home });
    await host.start();
    host.agents.create({ id: 'writer', name: 'Writer', systemPrompt: 'Answer.' });
    const ids = new Map<number, string>();
    for (const count of SIZES) {
      const conversation = host.chat.create('writer', `${count} messages`);
      writeConversationLog(host.home.conversationsDir, conversation.id, longConversationMessages(count, 'writer'));
      ids.set(count, conversation.id);
    }
    await host.save();
    server = await startHeadlessServer({ host, port: 0, rendererDir: RENDERER_DIR, version: 'bench' });
    const results: Opened[] = [];
    for (const count of SIZES) results.push(await openConversation(server, ids.get(count)!, count));
    const small = results[0]!;
    const large = results.at(-1)!;
    const ratio = (a: number, b: number) => Number((a / Math.max(b, 1e-9)).toFixed(2));
    const rows = results.flatMap((r) =>
      grouped(`${r.messages} messages`, [
        info('open to last message shown', r.openMs, 'ms'),
        info('DOM nodes', r.domNodes, 'nodes'),
        info('JS heap after GC', r.heapMb, 'MB'),
        info(r.reachedTop ? 'wheel to the first message' : `wheel to the first message (NOT reached in ${SCROLL_LIMIT_MS / 1000} s)`, r.scrollMs, 'ms'),
        info('tasks over 50 ms while scrolling', r.longTasks.length, 'tasks'),
        info('longest such task', r.longTasks.length ? Math.max(...r.longTasks) : 0, 'ms'),
        info('baseline: such tasks on the idle page', r.idleLongTasks.length, 'tasks'),
      ]),
    );
    return {
      title: 'Long conversations (chatos serve + headless Chromium)',
      rows: [
        ...rows,
        ...grouped(`${large.messages} vs ${small.messages} messages`, [
          atMost('time to the last message shown', ratio(large.openMs, small.openMs), 'x', 1.5),
          atMost('DOM nodes', ratio(large.domNodes, small.domNodes), 'x', 1.5),
          atMost('JS heap', ratio(large.heapMb, small.heapMb), 'x', 2),
          atMost("tasks over 50 ms scrolling to the top, beyond the idle page's", Math.max(0, large.longTasks.length - large.idleLongTasks.length), 'tasks', 0),
          atMost('scrolled to the first message', large.reachedTop ? 0 : 1, 'misses', 0),
        ]),
      ],
      notes: [
        'each conversation is opened in a fresh Chromium profile at 1360x860 after the Chat page loaded; "shown" is its last message visible, two frames later',
        `scrolling: wheel steps of ${WHEEL_PX} px, two frames apart, until the first message is at the top (older messages load on the way), at most ${SCROLL_LIMIT_MS / 1000} s`,
        "a task's duration is wall time: on a loaded machine the OS pausing Chromium stretches tasks past 50 ms (the idle baseline shows how often); run it on a quiet machine",
      ],
    };
  } finally {
    await server?.close();
    await host?.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
