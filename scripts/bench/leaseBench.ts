import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM, launchChromium } from '../chromium.js';
import { createHost } from '../../src/core/host.js';
import { isAlive } from '../../src/core/process/processTree.js';
import { startHeadlessServer } from '../../src/serve/headlessServer.js';
import { atMost, check, info, type BenchSection } from './section.js';

/**
 * Plugin pages and their server instances (issue 14, "Leases and processes"):
 * 20 tabs of the built-in Notes page (its page lists the notes through its
 * own MCP server, one instance per page) are opened and closed one after
 * another in headless Chromium against `chatos serve`, with one more tab left
 * open. Closing a tab runs none of the page's code: only its event socket
 * going away tells the host. After the grace time, the Notes server
 * processes must be back to what the open tab holds.
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const RENDERER_DIR = path.join(repoRoot, 'dist', 'renderer');
const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';
const PAGES = 20;
const GRACE_MS = 2_000;

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runLeaseBench(): Promise<BenchSection> {
  if (!fs.existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error('dist/renderer is missing: run "npm run build"');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-leasebench-'));
  const host = createHost({ home, appRoot: repoRoot, sessionRoot: home, leaseGraceMs: GRACE_MS });
  await host.start();
  const server = await startHeadlessServer({ host, port: 0, rendererDir: RENDERER_DIR, version: 'bench' });
  const browser = await launchChromium();
  const notesLeases = () => host.mcp.connections.snapshot().find((s) => s.serverId === NOTES_SERVER)?.leases ?? [];
  const every = new Set<number>();
  let most = 0;
  const seen = new Set<string>();
  const openNotes = async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}#/apps/chatos.notes/notes`);
    // The page asked its server for the notes: a new conversation, a new instance.
    await page.frameLocator('[data-testid="uiapp-frame"]').getByTestId('notes-list').waitFor({ timeout: 30_000 });
    await until('the page’s Notes server to start', () => notesLeases().some((lease) => !seen.has(lease.conversationId) && lease.pid !== undefined));
    for (const lease of notesLeases()) {
      seen.add(lease.conversationId);
      if (lease.pid !== undefined) every.add(lease.pid);
    }
    most = Math.max(most, notesLeases().length);
    return page;
  };
  try {
    const kept = await openNotes();
    for (let i = 0; i < PAGES; i++) {
      const page = await openNotes();
      // Like closing the tab: no unload handler runs, so the page cannot say goodbye.
      await page.close({ runBeforeUnload: false });
    }
    const closedAt = performance.now();
    const held = notesLeases().filter((lease) => lease.state.kind === 'running').length;
    await until('the closed tabs’ Notes servers to end', () => notesLeases().length === 1 && [...every].filter(isAlive).length === 1, GRACE_MS + 60_000);
    const releasedMs = performance.now() - closedAt;
    const processes = [...every].filter(isAlive).length;
    check(every.size === PAGES + 1, `expected ${PAGES + 1} Notes server processes over the run, saw ${every.size}`);
    await kept.close();
    return {
      title: 'Plugin pages and their server instances (chatos serve + headless Chromium)',
      rows: [
        info(`Notes server processes started (${PAGES} tabs opened and closed, 1 kept open)`, every.size, 'processes'),
        info('most running at once', most, 'processes'),
        info('running right after the last tab closed', held, 'processes'),
        atMost(`running after the grace time (${GRACE_MS / 1000} s), vs 1 open tab`, processes, 'processes', 1),
        info('from the last close until only the open tab’s remains', releasedMs, 'ms'),
      ],
      notes: [
        `each closed tab's instance ends ${GRACE_MS / 1000} s (the grace time, host option leaseGraceMs; mcp.yaml leases.releaseGraceSeconds) after its event socket is gone; a socket back sooner keeps it`,
      ],
    };
  } finally {
    await browser.close();
    await server.close();
    await host.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
