import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, launchChromium } from '../chromium.js';
import { createHost, type Host } from '../../src/core/host.js';
import { startHeadlessServer, type HeadlessServer } from '../../src/serve/headlessServer.js';
import { writePluginFixtures } from './pluginFixtures.js';
import { atMost, grouped, info, median, type BenchRow, type BenchSection } from './section.js';

/**
 * The renderer in headless Chromium against `chatos serve`: how much JS is
 * sent before the first page is interactive (gzip, as a server would send
 * it), and the Agents page's time to interactive with 200 apps installed,
 * against the same page with no extra apps in the same run.
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

/** One cold load of the Agents page in a fresh browser profile: ms to interactive, and the JS bytes it fetched. */
async function loadAgents(served: Served): Promise<{ ms: number; jsGzip: number; jsFiles: number }> {
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
    await page.goto(`${served.server.url}#/agents`);
    // Interactive: the page's own content is rendered (its list, or its empty state) and the main thread is idle.
    await page.locator('[data-testid="page-agents"]').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('[data-testid="page-agents"] .ant-table, [data-testid="page-agents"] .ant-empty').first().waitFor({ timeout: 30_000 });
    // A string, not a function: this file is compiled without the DOM library.
    await page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 }))');
    const ms = performance.now() - started;
    const sizes = await Promise.all(scripts);
    return { ms, jsGzip: sizes.reduce((a, b) => a + b, 0), jsFiles: sizes.length };
  } finally {
    await browser.close();
  }
}

export async function runUiBench(): Promise<BenchSection> {
  if (!fs.existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build"');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const many = await serve(APPS);
  const none = await serve(0);
  try {
    await loadAgents(none); // warms the OS file cache for Chromium itself; every run is a fresh profile
    const manyRuns: number[] = [];
    const noneRuns: number[] = [];
    let js = { jsGzip: 0, jsFiles: 0 };
    // Alternating runs, so machine noise hits both alike.
    for (let i = 0; i < RUNS; i++) {
      const loaded = await loadAgents(many);
      manyRuns.push(loaded.ms);
      js = loaded;
      noneRuns.push((await loadAgents(none)).ms);
    }
    const apps = many.host.catalog.apps.length;
    const rows: BenchRow[] = [
      ...grouped('renderer JS before the Agents page is interactive', [atMost('JS sent (gzip)', Number((js.jsGzip / 1024).toFixed(1)), 'KB', JS_BUDGET_KB), info('script files', js.jsFiles, 'files')]),
      ...grouped(`Agents page time to interactive, headless Chromium (${RUNS} cold loads each)`, [
        info(`with ${apps} apps installed (median)`, median(manyRuns), 'ms'),
        info('baseline: built-in apps only (median)', median(noneRuns), 'ms'),
        info('ratio', Number((median(manyRuns) / median(noneRuns)).toFixed(2)), 'x'),
      ]),
    ];
    return {
      title: 'Renderer (chatos serve + headless Chromium)',
      rows,
      notes: ['TTI: from navigation until the Agents page shows its table (or empty state) and the main thread is idle (requestIdleCallback); a fresh Chromium profile per run, so nothing is cached'],
    };
  } finally {
    for (const served of [many, none]) {
      await served.server.close();
      await served.host.dispose();
      fs.rmSync(served.home, { recursive: true, force: true });
    }
  }
}
