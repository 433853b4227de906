import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Frame, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../chromium.js';
import { atLeast, atMost, callsPerSecond, check, grouped, info, median, percentile, type BenchRow, type BenchSection } from './section.js';

/**
 * The Canvas (docs/rules/canvas.md), each figure beside a baseline measured in the same run:
 *
 * - patches per second its server applies, through the SDK's own Client over
 *   stdio (each call one `set` patch, on disk before it is answered), against
 *   the same Client calling a bare SDK server's `echo` (the gateway test
 *   fixture: no work, no disk), rounds of the two interleaved;
 * - the time from an agent's patch call (through `chatos serve`) to the open
 *   Canvas page's DOM update, in headless Chromium, against a bare client in
 *   the same browser, blocks of calls taking turns: it hears the host's event
 *   on its own socket, reads the schema once (uiApps.callTool get_schema) and
 *   writes the revision into the DOM. That is the least any page can do to
 *   show a change; the Canvas page's event also passes the shell and its
 *   frame, and it renders the whole instance (then re-reads the instance
 *   list and the history).
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const SERVER = path.join(repoRoot, 'plugins', 'canvas', 'mcp', 'server.mjs');
const BARE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'gatewayServer.mjs');
const WARMUP = 1_000;
const ROUNDS = 6;
const SEQUENTIAL = 300;
const PIPELINED = 2_000;
const IN_FLIGHT = 16;
const PAINT_BLOCKS = 5;
const PAINT_WARMUP = 3;
const PAINTS = 100;
const PAINT_TIMEOUT_MS = 10_000;
const SETTLE_MS = 150;

const CANVAS_PAGE = 'chatos.canvas/canvas';
const PATCH_TOOL = 'mcp_chatos_canvas_canvas_patch_ui_state';

const setPatch = (i: number) => ({ name: 'patch_ui_state', arguments: { instance_id: 'demo', patches: [{ op: 'set', path: 'state.params.n', value: i }] } });
const bareEcho = (i: number) => ({ name: 'echo', arguments: { text: `n=${i}` } });

/** Calls per second of `client` with at most `inFlight` calls outstanding, each checked to have succeeded. */
function rate(client: Client, call: (i: number) => { name: string; arguments: Record<string, unknown> }, calls: number, inFlight: number): Promise<number> {
  return callsPerSecond(calls, inFlight, async (i) => {
    const result = await client.callTool(call(i));
    check(!result.isError, `${call(0).name} failed: ${JSON.stringify(result.content)}`);
  });
}

async function connect(server: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'canvas-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'inherit' }));
  return client;
}

interface Throughput {
  sequential: number;
  pipelined: number;
  bareSequential: number;
  barePipelined: number;
}

async function serverThroughput(): Promise<Throughput> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-canvas-bench-'));
  const canvas = await connect(SERVER, { CANVAS_DATA_DIR: dataDir });
  const bare = await connect(BARE_SERVER, { GATEWAY_TOOLS: 'echo' });
  try {
    await rate(canvas, setPatch, WARMUP, IN_FLIGHT);
    await rate(bare, bareEcho, WARMUP, IN_FLIGHT);
    const runs = { sequential: [] as number[], pipelined: [] as number[], bareSequential: [] as number[], barePipelined: [] as number[] };
    // Interleaved rounds, the order swapped each time, so the machine's drift hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      const sides = [
        async () => {
          runs.sequential.push(await rate(canvas, setPatch, SEQUENTIAL, 1));
          runs.pipelined.push(await rate(canvas, setPatch, PIPELINED, IN_FLIGHT));
        },
        async () => {
          runs.bareSequential.push(await rate(bare, bareEcho, SEQUENTIAL, 1));
          runs.barePipelined.push(await rate(bare, bareEcho, PIPELINED, IN_FLIGHT));
        },
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'canvas-instances.json'), 'utf8')) as { instances: { instance_id: string; revision: number }[] };
    const expected = WARMUP + ROUNDS * (SEQUENTIAL + PIPELINED);
    const demo = stored.instances.find((i) => i.instance_id === 'demo');
    check(demo && demo.revision === expected + 1, `every patch is on disk (revision ${demo?.revision}, expected ${expected + 1})`);
    return { sequential: median(runs.sequential), pipelined: median(runs.pipelined), bareSequential: median(runs.bareSequential), barePipelined: median(runs.barePipelined) };
  } finally {
    await canvas.close();
    await bare.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `chatos serve` as a user runs it, on a fresh data home. */
async function startServe(home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'chatos.js'), 'serve', '--port', '0', '--json', '--no-watch', '--home', home], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`chatos serve exited ${code}`)));
  });
  return { child, url };
}

/**
 * Installs `window.__paintedAt(revision)` in a document: it resolves with the
 * time (system clock) the element `#id` first showed that revision or a
 * later one in its `data-revision`, seen by a MutationObserver on `root`.
 * Strings, not functions: this file compiles without the DOM library.
 */
const observe = (rootId: string, viewId: string) => `(() => {
  const paints = [];
  const waiting = [];
  let last;
  const root = document.getElementById(${JSON.stringify(rootId)});
  new MutationObserver(() => {
    const view = document.getElementById(${JSON.stringify(viewId)});
    const revision = view ? Number(view.dataset.revision) : 0;
    if (revision === last) return;
    last = revision;
    const at = Date.now();
    paints.push([revision, at]);
    for (const wait of waiting.splice(0)) if (revision >= wait.revision) wait.resolve(at); else waiting.push(wait);
  }).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-revision'] });
  window.__paintedAt = (revision) => {
    const seen = paints.find(([r]) => r >= revision);
    return seen ? Promise.resolve(seen[1]) : new Promise((resolve) => waiting.push({ revision, resolve }));
  };
})()`;

/**
 * The baseline page: its own event socket; while armed (`window.__bareArmed`),
 * on each patch_ui_state call one get_schema over that socket, and the
 * revision into the DOM.
 */
const bareClient = (token: string) => `new Promise((resolve, reject) => {
  const root = document.createElement('div');
  root.id = 'bench-bare';
  const view = document.createElement('div');
  view.id = 'bench-bare-view';
  root.append(view);
  document.body.append(root);
  const url = new URL('/events?token=' + ${JSON.stringify(token)}, location.href);
  url.protocol = 'ws:';
  const socket = new WebSocket(url);
  let id = 0;
  window.__bareArmed = false;
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === 'uiApp.toolCalled' && data.pluginId === 'chatos.canvas' && data.tool === 'patch_ui_state') {
      if (window.__bareArmed) socket.send(JSON.stringify({ id: ++id, method: 'uiApps.callTool', params: { pluginId: 'chatos.canvas', appId: 'canvas', tool: 'get_schema', args: { instance_id: 'demo' }, conversationId: 'bench-bare' } }));
    } else if (data.reply && data.reply.ok && data.reply.result.structuredContent) {
      view.dataset.revision = String(data.reply.result.structuredContent.revision);
    }
  };
  socket.onopen = () => resolve();
  socket.onerror = () => reject(new Error('the bare client could not open /events'));
})`;

async function paintedAt(target: Page | Frame, revision: number): Promise<number> {
  return Promise.race([
    target.evaluate((wanted: number) => (globalThis as unknown as { __paintedAt(r: number): Promise<number> }).__paintedAt(wanted), revision),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`revision ${revision} never showed`)), PAINT_TIMEOUT_MS)),
  ]);
}

/** Opens the Canvas page in the shell and watches its revision; the frame is new each time. */
async function openCanvas(page: Page): Promise<Frame> {
  await page.evaluate(`window.location.hash = '#/apps/${CANVAS_PAGE}'`);
  await page.frameLocator('[data-testid="uiapp-frame"]').locator('[data-testid="canvas-view"]').waitFor({ timeout: 30_000 });
  const frame = page.frames().find((f) => f.url().includes('__shell?surface=full') && !f.isDetached());
  check(frame, 'the canvas frame is open');
  await frame.evaluate(observe('canvas-app', 'canvas-view'));
  return frame;
}

/** Leaves the Canvas page (its frame and its listeners go) for the Agents page. */
async function closeCanvas(page: Page): Promise<void> {
  await page.evaluate(`window.location.hash = '#/agents'`);
  await page.locator('[data-testid="page-agents"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="uiapp-frame"]').waitFor({ state: 'detached', timeout: 30_000 });
}

async function patchToPaint(): Promise<{ canvas: number[]; bare: number[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-canvas-paint-'));
  const served = await startServe(home);
  const browser = await launchChromium();
  try {
    const origin = new URL(served.url).origin;
    const token = new URL(served.url).searchParams.get('token')!;
    const api = async (method: string, params: Record<string, unknown>) => {
      const response = await fetch(`${origin}/api`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ method, params }) });
      const reply = (await response.json()) as { ok: boolean; result?: any; error?: { message: string } };
      check(reply.ok, `${method}: ${reply.error?.message}`);
      return reply.result;
    };
    await api('agents.save', { agent: { id: 'bench', name: 'Bench', uiApps: [{ pluginId: 'chatos.canvas', appId: 'canvas', mcp: true, mcpServerIds: ['chatos.canvas::chatos.canvas.canvas'] }] } });
    const page = await browser.context.newPage();
    await page.goto(served.url);
    await page.evaluate(bareClient(token));
    await page.evaluate(observe('bench-bare', 'bench-bare-view'));

    let calls = 0;
    /** One agent call; resolves with the time from its reply to the paint `target` shows. */
    const patchAndWait = async (target: Page | Frame): Promise<number> => {
      const outcome = await api('tools.call', { agentId: 'bench', flow: 'main', conversationId: 'bench', tool: PATCH_TOOL, args: setPatch(calls++).arguments });
      const completed = Date.now();
      const painted = await paintedAt(target, outcome.structuredContent.revision as number);
      // After it painted, the Canvas page reads the list and the history, then all of it once more when its backend
      // sees the folder change (it cannot tell that change from one by another process): an agent's next patch comes
      // after that, as when a model writes its next call.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return Math.max(0, painted - completed);
    };

    const canvas: number[] = [];
    const bare: number[] = [];
    // Blocks of calls, the Canvas page open and the bare client idle, then the page closed and the bare client
    // armed: each measured alone, under the same drift of the machine. The first calls of a block warm its paths.
    for (let block = 0; block < 2 * PAINT_BLOCKS; block++) {
      const onCanvas = block % 2 === 0;
      const target = onCanvas ? await openCanvas(page) : page;
      if (!onCanvas) await page.evaluate('window.__bareArmed = true');
      for (let i = 0; i < PAINT_WARMUP + PAINTS / PAINT_BLOCKS; i++) {
        const latency = await patchAndWait(target);
        if (i >= PAINT_WARMUP) (onCanvas ? canvas : bare).push(latency);
      }
      if (onCanvas) await closeCanvas(page);
      else await page.evaluate('window.__bareArmed = false');
    }
    return { canvas, bare };
  } finally {
    await browser.close();
    await new Promise((resolve) => {
      served.child.once('exit', resolve);
      served.child.kill('SIGTERM');
    });
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const ratio = (value: number, base: number) => Number((value / Math.max(base, 1)).toFixed(2));

export async function runCanvasBench(): Promise<BenchSection> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  const throughput = await serverThroughput();
  const paint = await patchToPaint();
  const rows: BenchRow[] = [
    ...grouped(`server: single set patches from the SDK Client over stdio, each on disk before it is answered (median of ${ROUNDS} rounds)`, [
      atLeast(`patches applied per second, ${IN_FLIGHT} calls in flight`, Math.round(throughput.pipelined), 'patches/s', 1_000),
      info(`baseline: bare SDK server's echo, ${IN_FLIGHT} in flight`, Math.round(throughput.barePipelined), 'calls/s'),
      info('ratio to baseline', ratio(throughput.pipelined, throughput.barePipelined), 'x'),
      info('patches applied per second, one call at a time', Math.round(throughput.sequential), 'patches/s'),
      info('baseline: bare echo, one call at a time', Math.round(throughput.bareSequential), 'calls/s'),
      info('ratio to baseline', ratio(throughput.sequential, throughput.bareSequential), 'x'),
    ]),
    ...grouped(`patch to DOM update on the open page (${PAINTS} agent calls through chatos serve, headless Chromium)`, [
      info('Canvas page: median', median(paint.canvas), 'ms'),
      atMost('Canvas page: p95', percentile(paint.canvas, 95), 'ms', 50),
      info('Canvas page: max', Math.max(...paint.canvas), 'ms'),
      info('baseline: bare client (event, one get_schema, DOM): median', median(paint.bare), 'ms'),
      info('baseline: p95', percentile(paint.bare, 95), 'ms'),
      info('ratio of medians', ratio(median(paint.canvas), median(paint.bare)), 'x'),
    ]),
  ];
  return {
    title: 'Canvas',
    rows,
    notes: [
      'a patch is answered once its instance file is written, fsynced and renamed into place: one call at a time pays a disk sync each; calls that arrive meanwhile share one lock and one write (each still all or nothing, in order)',
      `patch to paint: from the API reply to the agent's tools.call until a MutationObserver sees the new revision in the DOM (system clock, 1 ms resolution); blocks of ${PAINTS / PAINT_BLOCKS} calls alternate between the Canvas page open (the bare client idle) and closed (the bare client armed), so each is measured alone; an agent's calls come ${SETTLE_MS} ms apart (after the page's follow-up reads)`,
    ],
  };
}
