import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../chromium.js';
import { createHost, type Host } from '../../src/core/host.js';
import { startHeadlessServer, type HeadlessServer } from '../../src/serve/headlessServer.js';
import { writePluginFixtures } from './pluginFixtures.js';
import { atMost, grouped, info, median, type BenchRow, type BenchSection } from './section.js';

/**
 * The renderer in headless Chromium against `chatos serve`: how much JS each
 * page fetches before it is ready (gzip, as a server would send it; every
 * page held to the budget, as `npm run build` holds their static imports,
 * scripts/bundleBudget.ts), and the Agents page's time to interactive with
 * 200 apps installed, against the same page with no extra apps in the same run.
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const RENDERER_DIR = path.join(repoRoot, 'dist', 'renderer');
const APPS = 200;
const RUNS = 7;
const JS_BUDGET_KB = 400;

interface Served {
  host: Host;
  server: HeadlessServer;
  home: string;
}

async function serve(apps: number): Promise<Served> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-uibench-'));
  const pluginsDir = path.join(home, 'extra-plugins');
  const defaultsDir = path.join(home, 'defaults');
  fs.mkdirSync(pluginsDir, { recursive: true });
  if (apps > 0) writePluginFixtures({ pluginsDir, defaultsDir, plugins: apps, appsPerPlugin: 1, withDefaults: 0 });
  const host = createHost({ home, appRoot: repoRoot, extraPluginRoots: [pluginsDir], sessionRoot: home });
  await host.start();
  const server = await startHeadlessServer({ host, port: 0, rendererDir: RENDERER_DIR, version: 'bench' });
  return { host, server, home };
}

/**
 * One cold load of `route` in a fresh browser profile: ms until `interactive`
 * holds and the main thread is idle, and the JS it fetched by then.
 */
async function load(served: Served, route: string, interactive: (page: Page) => Promise<unknown>): Promise<{ ms: number; jsGzip: number; jsFiles: number }> {
  const browser = await launchChromium(); // a fresh profile: nothing cached from an earlier run
  try {
    const page = await browser.context.newPage();
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(
          response.body().then(
            (body) => gzipSync(body).length,
            () => 0,
          ),
        );
    });
    const started = performance.now();
    await page.goto(`${served.server.url}#${route}`);
    await interactive(page);
    // A string, not a function: this file is compiled without the DOM library.
    await page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 }))');
    const ms = performance.now() - started;
    const sizes = await Promise.all(scripts);
    return { ms, jsGzip: sizes.reduce((a, b) => a + b, 0), jsFiles: sizes.length };
  } finally {
    await browser.close();
  }
}

/** The Agents page interactive: its own content rendered (its list, or its empty state). */
const loadAgents = (served: Served) =>
  load(served, '/agents', async (page) => {
    await page.locator('[data-testid="page-agents"]').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('[data-testid="page-agents"] .ant-table, [data-testid="page-agents"] .ant-empty').first().waitFor({ timeout: 30_000 });
  });

/** Every page of the window, one route each; those with an id take the first app or server the host has, written as is (the ready mark is the path the router reads). */
function pageRoutes(host: Host): string[] {
  const app = host.plugins.catalog.apps[0];
  const server = host.mcp.servers.list()[0];
  return [
    '/apps',
    ...(app ? [`/apps/${app.pluginId}/${app.appId}`] : []),
    '/chat',
    '/agents',
    '/models',
    '/registry',
    '/servers',
    ...(server ? [`/servers/${server.id}`] : []),
    '/prompts',
    '/knowledge',
    '/playground',
    '/history',
    '/problems',
    '/diagnostics',
  ];
}

/** A page ready: its code and its queries' first answers are in (renderer/src/shell/pageReady.tsx marks <html data-page-ready>). */
const pageReady = (route: string) => (page: Page) => page.locator(`html[data-page-ready="${route}"]`).waitFor({ state: 'attached', timeout: 60_000 });

export async function runUiBench(): Promise<BenchSection> {
  if (!fs.existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build"');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const many = await serve(APPS);
  const none = await serve(0);
  try {
    await loadAgents(none); // warms the OS file cache for Chromium itself; every run is a fresh profile
    const manyRuns: number[] = [];
    const noneRuns: number[] = [];
    // Alternating runs, so machine noise hits both alike.
    for (let i = 0; i < RUNS; i++) {
      manyRuns.push((await loadAgents(many)).ms);
      noneRuns.push((await loadAgents(none)).ms);
    }
    // Each page once, cold: the bytes do not vary between runs, nor with the apps installed (only the time does:
    // the Apps page takes some 20 s to be ready with 200 apps on a busy machine, so the built-in apps only).
    const pageRows: BenchRow[] = [];
    for (const route of pageRoutes(none.host)) {
      const { jsGzip, jsFiles } = await load(none, route, pageReady(route));
      pageRows.push(atMost(`${route} (${jsFiles} files)`, Number((jsGzip / 1024).toFixed(1)), 'KB', JS_BUDGET_KB));
    }
    const apps = many.host.plugins.catalog.apps.length;
    const rows: BenchRow[] = [
      ...grouped('renderer JS each page fetches before it is ready (gzip)', pageRows),
      ...grouped(`Agents page time to interactive, headless Chromium (${RUNS} cold loads each)`, [
        info(`with ${apps} apps installed (median)`, median(manyRuns), 'ms'),
        info('baseline: built-in apps only (median)', median(noneRuns), 'ms'),
        info('ratio', Number((median(manyRuns) / median(noneRuns)).toFixed(2)), 'x'),
      ]),
    ];
    return {
      title: 'Renderer (chatos serve + headless Chromium)',
      rows,
      notes: [
        'TTI: from navigation until the Agents page shows its table (or empty state) and the main thread is idle (requestIdleCallback); a fresh Chromium profile per run, so nothing is cached',
        "JS per page: every script fetched from navigation until the page marks itself ready (its code and its queries' first answers) and the main thread is idle; a fresh profile per page, the host with its built-in apps and nothing else (empty lists show their empty states)",
      ],
    };
  } finally {
    for (const served of [many, none]) {
      await served.server.close();
      await served.host.dispose();
      fs.rmSync(served.home, { recursive: true, force: true });
    }
  }
}
