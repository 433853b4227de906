import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium as playwright, type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { repoRoot } from './tempDir.js';

export { CHROMIUM } from '../../scripts/chromium.js';

/**
 * A fresh browser context (its own cookies, storage and pages) in the run's
 * one Chromium (helpers/browserServer.ts), asking for reduced motion: antd's
 * lists and drawers open at once, so one click is one click.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const browser = await playwright.connect(inject('chromiumEndpoint'));
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  return {
    context,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

export interface ServeProcess {
  /** The printed url, token included. */
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  stop(): Promise<number | null>;
}

/** `chatos serve --port 0 --json` as a user runs it (the built binary); resolves once it printed its url. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'chatos.js'), 'serve', '--port', '0', '--json', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`chatos serve printed no url within 30 s; stderr:\n${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.trim().startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`chatos serve exited (${code}) before printing its url; stderr:\n${stderr}`)));
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** The HostApi as the renderer calls it (the token as a bearer header): the result, or an Error with the host's message. */
export function serveApi(serve: Pick<ServeProcess, 'origin' | 'token'>) {
  return async <T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> => {
    const response = await fetch(`${serve.origin}/api`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ method, params }),
    });
    const reply = (await response.json()) as { ok: boolean; result?: T; error?: { message: string } };
    if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
    return reply.result as T;
  };
}

/** Goes to a route of the served UI (its hash) and waits for the page's root element to show and the page to be ready. */
export async function openRoute(page: Page, route: string, root: string): Promise<void> {
  await page.evaluate((hash) => (window.location.hash = hash), route);
  await page.getByTestId(root).waitFor({ state: 'visible', timeout: 20_000 });
  await pageReady(page, route);
}

/**
 * Waits until the page at `route` (a hash such as `#/agents?tab=x`, or
 * `/agents`) has its code and the first answers of its queries: the
 * renderer marks <html data-page-ready> then (renderer/src/shell/pageReady.tsx).
 * Its path is what is compared; the query string is the page's own.
 */
export async function pageReady(page: Page, route: string): Promise<void> {
  const pathname = route.replace(/^#/, '').split('?')[0]!;
  await page.locator(`html[data-page-ready="${pathname}"]`).waitFor({ state: 'attached', timeout: 30_000 });
}

/** Saves a screenshot under test-output/screenshots/ (not committed) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(repoRoot, 'test-output', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** `chatos serve` with `args` (English UI) and a light-mode Chromium page on where its root opens (Chat); `close()` ends both and checks serve exited 0. */
export async function openServedUi(args: string[]): Promise<{ serve: ServeProcess; page: Page; close(): Promise<number | null> }> {
  const serve = await startServe(args, { LANG: 'en_US.UTF-8' });
  const chromium = await launchChromium();
  const page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ state: 'visible', timeout: 20_000 });
  await pageReady(page, '/chat');
  return {
    serve,
    page,
    async close() {
      await chromium.close();
      return serve.stop();
    },
  };
}

/**
 * Chromium on `serve`'s first page (Chat, where its root opens): light, at a desktop size (`height` of the
 * window), `beforeLoad` run on the page before its first load (to choose the
 * language, say). The caller closes `chromium`.
 */
export async function openChromiumOn(serve: Pick<ServeProcess, 'url'>, options: { height?: number; beforeLoad?: (page: Page) => Promise<void> } = {}) {
  const chromium = await launchChromium();
  const page = await chromium.context.newPage();
  await options.beforeLoad?.(page);
  await page.setViewportSize({ width: 1360, height: options.height ?? 860 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
  await pageReady(page, '/chat');
  return { chromium, page };
}

/**
 * The document of the MCP App view under `scope`: the frame ChatOS puts in
 * the page is the view's sandbox proxy, and the view is the frame inside it
 * (docs/rules/mcp-apps.md#the-frame).
 */
export function mcpAppView(scope: Pick<Page, 'frameLocator'>): FrameLocator {
  return scope.frameLocator('[data-testid="mcp-app-iframe"]').frameLocator('iframe');
}

/** The screenshot of a failed test, named after it, for a person to look at. */
export async function screenshotOnFailure(page: Page | undefined, prefix: string, context: { task: { name: string; result?: { state?: string } } }): Promise<void> {
  if (page && context.task.result?.state === 'fail') await screenshot(page, `${prefix}-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
}

/**
 * Opens the chat header's side-panel menu and picks `item` (a test id): one
 * click on the menu, one on its item. A menu of an earlier pick may still be
 * in the page, hidden: the item clicked is the one shown.
 */
export async function openSidePanelItem(page: Page, item: string): Promise<void> {
  await page.getByTestId('side-panel-menu').click();
  await page.locator(`[data-testid="${item}"]:visible`).first().click();
}

/** Types a message into the Chat page's composer (of the open conversation, or the new one) and sends it with Enter. */
export async function sendChatMessage(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Picks the option showing `text` in an antd Select (or AutoComplete)
 * opened by `trigger`: one click opens the list (motion is off, so it is
 * open at once), one click on the option chooses it, and the list closes.
 * Lists of earlier picks stay in the page, hidden: only the shown one counts.
 */
export async function chooseOption(page: Page, trigger: Locator, text: string | RegExp): Promise<void> {
  const open = page.locator('.ant-select-dropdown:visible');
  await trigger.click();
  await open.locator('.ant-select-item-option').filter({ hasText: text }).first().click();
  await open.waitFor({ state: 'hidden' });
}

/**
 * The middle of `target` once it has rested: the same box for `frames` animation frames running (frames, not time). A
 * chat row may move a frame or two after Playwright's own check (two frames) passed: a row above measured late, the
 * view following an answer; a press aimed from then may land beside it.
 */
export function restingMiddle(target: Locator, frames = 10): Promise<{ x: number; y: number }> {
  return target.evaluate(
    (element, frames) =>
      new Promise<{ x: number; y: number }>((resolve) => {
        let last = '';
        let still = 0;
        const look = () => {
          const box = element.getBoundingClientRect();
          const now = `${box.x},${box.y},${box.width},${box.height}`;
          still = now === last ? still + 1 : 0;
          last = now;
          if (still < frames) return void requestAnimationFrame(look);
          resolve({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
        };
        look();
      }),
    frames,
  );
}
