import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { writePlugin } from '../helpers/plugins.js';
import { startServeFixture, type ServeFixture } from './serveHarness.js';

/**
 * The frame shell and bridge in real Chromium: a test parent page (served
 * as the renderer, under the renderer's CSP) opens an app through the API
 * with its cookie, puts the shell in `<iframe sandbox="allow-scripts">`,
 * and answers bridge calls the way the protocol in common.md says.
 */
const PARENT_JS = `
const log = (window.bridgeLog = []);
const params = new URLSearchParams(location.search);
const pluginId = params.get('plugin');
const appId = params.get('app');
(async () => {
  const res = await fetch('/api', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'uiApps.open', params: { pluginId, appId } }) });
  const reply = await res.json();
  if (!reply.ok) return log.push({ op: 'open-failed', error: reply.error });
  const frame = document.createElement('iframe');
  frame.sandbox = 'allow-scripts';
  frame.style.width = '400px';
  frame.style.height = '300px';
  frame.src = reply.result.url;
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || m.chatos !== 'bridge' || m.v !== 1) return;
    // Logged even when the source is gone (a frame that is unloading), but answered only for our frame.
    log.push({ ...m, fromFrame: event.source === frame.contentWindow });
    if (event.source !== frame.contentWindow || typeof m.id !== 'number') return;
    const answer = (rest) => frame.contentWindow.postMessage({ chatos: 'bridge', v: 1, id: m.id, ...rest }, '*');
    if (m.op === 'context.get') answer({ ok: true, result: { pluginId, appId, theme: 'dark', surface: 'full', locale: 'en' } });
    else if (m.op === 'theme.get') answer({ ok: true, result: 'dark' });
    else if (m.op === 'tools.call') answer({ ok: false, message: 'no tool ' + m.args[0] });
    else if (m.op === 'events.emit') {
      answer({ ok: true, result: null });
      frame.contentWindow.postMessage({ chatos: 'bridge', v: 1, event: 'app', type: m.args[0], payload: m.args[1] }, '*');
    } else answer({ ok: true, result: null });
  });
  document.body.appendChild(frame);
  window.reloadFrame = () => { frame.src = reply.result.url; };
})();
`;

const WORKING_PAGE = `import { label } from './lib.mjs';
export function mount({ container, host, slots }) {
  container.textContent = label;
  // The original ChatOS's form: the context at once, no await.
  const atMount = host.context.get();
  const syncIds = [atMount.pluginId, atMount.appId, atMount.surface, atMount.bridge.enabled, host.bridge.enabled, host.ui.surface];
  (async () => {
    const context = await host.context.get();
    const theme = await host.theme.get();
    let toolError;
    try { await host.tools.call('echo', { a: 1 }); } catch (error) { toolError = error.message; }
    let fetchResult = 'reached the server';
    try { await fetch('/api', { method: 'POST' }); } catch { fetchResult = 'blocked'; }
    const echoed = await new Promise((resolve) => {
      const off = host.events.on('ping', (payload) => { off(); resolve(payload); });
      host.events.emit('ping', { n: 1 });
    });
    const rect = container.getBoundingClientRect();
    await host.events.emit('report', {
      context, syncIds, theme, toolError, fetchResult, echoed,
      slots, containerId: container.id, size: [rect.width, rect.height],
      docTheme: document.documentElement.dataset.theme,
      frozen: Object.isFrozen(host),
    });
  })();
}
`;

let f: ServeFixture;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;

beforeAll(async () => {
  f = await startServeFixture({
    rendererFiles: { 'parent.html': '<!doctype html><title>parent</title><script src="/parent.js"></script>', 'parent.js': PARENT_JS },
    builtinPlugins(root) {
      writePlugin(
        root,
        'pages',
        {
          manifestVersion: 1,
          id: 'pages',
          name: 'Pages',
          version: '1.0.0',
          apps: [
            { id: 'working', name: 'Working', entry: 'working/index.mjs' },
            { id: 'throws', name: 'Throws', entry: 'throws/index.mjs' },
            { id: 'nomount', name: 'No mount', entry: 'nomount/index.mjs' },
            { id: 'defaultobj', name: 'Default object', entry: 'defaultobj/index.mjs' },
          ],
        },
        {
          'working/index.mjs': WORKING_PAGE,
          'working/lib.mjs': "export const label = 'mounted v1';\n",
          'throws/index.mjs': "export function mount() { throw new Error('the page exploded'); }\n",
          'nomount/index.mjs': 'export const nothing = 1;\n',
          'defaultobj/index.mjs':
            "export default { mount({ container, host }) { container.textContent = 'default.mount ran'; return () => { host.events.emit('disposed', container.textContent); }; } };\n",
        },
      );
    },
  });
  chromium = await launchChromium();
  browser = chromium.context;
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await f?.stop();
});

type LogEntry = { op?: string; args?: unknown[]; message?: string; error?: unknown; fromFrame?: boolean };

type Log = { bridgeLog?: LogEntry[] };

async function openApp(appId: string): Promise<{ page: Page; waitFor(op: string, firstArg?: string): Promise<LogEntry>; frame(): Frame }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`http://127.0.0.1:${f.port}/parent.html?token=${f.token}&plugin=pages&app=${appId}`);
  expect(new URL(page.url()).searchParams.get('token'), 'the token left the address bar').toBeNull();
  return {
    page,
    async waitFor(op, firstArg) {
      const handle = await page.waitForFunction(
        ([wanted, arg]) => {
          const log = (globalThis as unknown as Log).bridgeLog ?? [];
          return log.find((e) => e.op === wanted && (arg === undefined || e.args?.[0] === arg)) ?? log.find((e) => e.op === 'open-failed');
        },
        [op, firstArg] as const,
        { timeout: 15_000 },
      );
      const entry = (await handle.jsonValue()) as LogEntry;
      if (entry.op === 'open-failed') throw new Error(`uiApps.open failed: ${JSON.stringify(entry.error)}; page errors: ${errors.join('; ')}`);
      return entry;
    },
    frame() {
      const frame = page.frames().find((fr) => fr.url().includes('/__shell'));
      if (!frame) throw new Error('no shell frame');
      return frame;
    },
  };
}

describe('the frame shell in Chromium', () => {
  it('imports the page module (and its sibling), mounts it, and the bridge carries context, theme, tools, events', async () => {
    const app = await openApp('working');
    await app.waitFor('ready');
    const report = await app.waitFor('events.emit', 'report');
    expect(report.fromFrame).toBe(true);
    expect(report.args?.[1]).toEqual({
      context: { pluginId: 'pages', appId: 'working', theme: 'dark', surface: 'full', locale: 'en', bridge: { enabled: true } },
      syncIds: ['pages', 'working', 'full', true, true, 'full'],
      theme: 'dark',
      toolError: 'no tool echo',
      // connect-src 'none': the page reaches nothing but the bridge.
      fetchResult: 'blocked',
      echoed: { n: 1 },
      slots: {},
      containerId: 'chatos-app',
      size: [400, 300],
      docTheme: 'dark',
      frozen: true,
    });
    expect(await app.frame().textContent('#chatos-app')).toBe('mounted v1');
    await app.page.close();
  });

  it('a reloaded frame runs the edited module', async () => {
    const app = await openApp('working');
    await app.waitFor('ready');
    const lib = path.join(f.host.catalog.apps.find((a) => a.pluginId === 'pages')!.pluginDir, 'working', 'lib.mjs');
    fs.writeFileSync(lib, "export const label = 'mounted v2';\n");
    try {
      await app.page.evaluate(() => (globalThis as unknown as { reloadFrame(): void }).reloadFrame());
      await expect
        .poll(
          async () =>
            app
              .frame()
              .textContent('#chatos-app')
              .catch(() => null),
          { timeout: 10_000 },
        )
        .toBe('mounted v2');
    } finally {
      fs.writeFileSync(lib, "export const label = 'mounted v1';\n");
      await app.page.close();
    }
  });

  it('a mount that throws is sent as failed and shown in the frame in words', async () => {
    const app = await openApp('throws');
    const failed = await app.waitFor('failed');
    expect(failed.message).toBe('the page exploded');
    expect(await app.frame().textContent('#chatos-app')).toContain('the page exploded');
    await app.page.close();
  });

  it('a module without a mount function fails with a message saying what to export', async () => {
    const app = await openApp('nomount');
    const failed = await app.waitFor('failed');
    expect(failed.message).toContain('exports no mount function');
    await app.page.close();
  });

  it('default.mount is found and called, and the dispose it returns runs on pagehide', async () => {
    const app = await openApp('defaultobj');
    await app.waitFor('ready');
    expect(await app.frame().textContent('#chatos-app')).toBe('default.mount ran');
    await app.page.evaluate(() => (globalThis as unknown as { reloadFrame(): void }).reloadFrame());
    // Posted during pagehide: it arrives, but the old document is gone by then (source null), so a parent never answers it.
    const disposed = await app.waitFor('events.emit', 'disposed');
    expect(disposed.args?.[1]).toBe('default.mount ran');
    await app.page.close();
  });
});
