/**
 * One scripted 30-minute session in a fresh Node process, run by
 * processBudgetBench.ts: the host (as `chatos serve` runs it, through the
 * same API the pages call) and every process it starts, measured together
 * at the session's end.
 *
 *   node dist/scripts/bench/processBudgetChild.js '<BudgetRequest as JSON>'
 *
 * Prints one JSON line (BudgetReply). The session's time is the host's
 * scheduler, moved by the script: its 30 minutes pass in seconds, and the
 * idle sweeps fire when they would have. The servers and backends run in
 * real time; after each step the script waits for what it started.
 */
import * as fs from 'node:fs';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { createHost } from '../../src/core/host.js';
import { findAppRoot } from '../../src/core/appPaths.js';
import type { Scheduler } from '../../src/core/ports.js';
import { indexSnapshot, procSnapshot, treeIn, identityIn } from '../../src/core/process/processTree.js';

export interface BudgetRequest {
  /** `before`: the layout issue 28 measured (per-conversation Notes, backends and instances kept up to 30 minutes); `after`: today's defaults. */
  layout: 'before' | 'after';
  home: string;
  pluginsDir: string;
}

export interface BudgetReply {
  layout: BudgetRequest['layout'];
  /** The host's process and everything it started, at minute 30. */
  rssMb: number;
  hostRssMb: number;
  /** Processes besides the host's own, at minute 30. */
  children: number;
  /** The most child processes at once during the session. */
  mostChildren: number;
}

const MINUTE = 60_000;

/** Timers on a time the script moves (as the host's tests do): the idle sweeps run on it. */
class SessionClock implements Scheduler {
  private time = Date.parse('2026-01-01T09:00:00Z');
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.time;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }
  /** Fires every timer due by `until`, in order. */
  advanceTo(until: number): void {
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = Math.max(this.time, until);
  }
}

/** Every process below this one (treeIn never counts the host's own process): its children and what they started. */
function descendants(): number[] {
  const snapshot = procSnapshot();
  if (!snapshot) return [];
  const seeds = [...snapshot]
    .filter(([, stat]) => stat.ppid === process.pid)
    .flatMap(([pid]) => {
      const identity = identityIn(snapshot, pid);
      return identity === undefined ? [] : [{ pid, identity }];
    });
  return treeIn(snapshot, seeds, indexSnapshot(snapshot)).map((member) => member.pid);
}

/** VmRSS of one process; 0 once it is gone. */
function rssBytesOf(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the set of child processes has stayed the same for a second (a start or a stop has settled), at most 60 s. */
async function settled(): Promise<number[]> {
  let last = descendants().sort().join(',');
  let steadySince = performance.now();
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    await pause(100);
    const now = descendants().sort().join(',');
    if (now !== last) {
      last = now;
      steadySince = performance.now();
    } else if (performance.now() - steadySince >= 1_000) break;
  }
  return last === '' ? [] : last.split(',').map(Number);
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]!) as BudgetRequest;
  const clock = new SessionClock();
  const before = request.layout === 'before';
  const host = createHost({
    home: request.home,
    appRoot: findAppRoot(),
    builtinPluginsDir: request.pluginsDir,
    sessionRoot: request.home,
    scheduler: clock,
    clock,
    ...(before ? { leaseIdleMs: 30 * MINUTE, backendIdleMs: 30 * MINUTE } : {}),
  });
  await host.start();
  // No page is shown: the urls a page would load are never asked for.
  const urls = {
    uiAppUrl: () => 'about:blank',
    artifactUrl: () => 'about:blank',
    appView: () => ({ url: 'about:blank', origin: 'null' }),
    viewPlace: () => ({ framers: [], hostOrigins: [] }),
  };
  const api = createHostApiService(host, { face: 'serve', urls, version: 'bench', locale: 'en' });
  const call = async (method: string, params: Record<string, unknown>) => {
    const reply = await api.handle({ method, params });
    if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
  };
  const start = clock.now();
  let mostChildren = 0;
  const look = async () => {
    mostChildren = Math.max(mostChildren, (await settled()).length);
  };
  const at = async (minute: number) => {
    // A minute at a time: each sweep's releases start (and finish) before the next look.
    while (clock.now() < start + minute * MINUTE) {
      clock.advanceTo(Math.min(clock.now() + MINUTE, start + minute * MINUTE));
      await pause(20);
    }
    await look();
  };
  /** One conversation's use of both plugins, as an agent or its pages make it. */
  const converse = async (conversationId: string) => {
    await call('uiApps.callTool', { pluginId: 'chatos.notes', appId: 'notes', tool: 'add_note', args: { title: conversationId, text: 'a note' }, conversationId });
    await call('uiApps.callTool', {
      pluginId: 'chatos.canvas',
      appId: 'canvas',
      tool: 'patch_ui_state',
      args: { instance_id: conversationId, patches: [{ op: 'set', path: 'state.params.step', value: 1 }] },
      conversationId,
    });
  };
  const openPage = (pluginId: string, appId: string, method: string) => call('uiApps.invokeBackend', { pluginId, appId, method, params: {} });

  await at(0);
  await openPage('chatos.notes', 'notes', 'stats');
  await openPage('chatos.canvas', 'canvas', 'history');
  await converse('bench-a');
  await look();
  await at(10);
  await converse('bench-b');
  await look();
  await at(22);
  await converse('bench-c');
  await look();
  await at(27);
  await openPage('chatos.canvas', 'canvas', 'history');
  await at(30);
  const children = await settled();
  const childrenRss = children.reduce((sum, pid) => sum + rssBytesOf(pid), 0);
  const own = rssBytesOf(process.pid);
  const reply: BudgetReply = {
    layout: request.layout,
    rssMb: (own + childrenRss) / 2 ** 20,
    hostRssMb: own / 2 ** 20,
    children: children.length,
    mostChildren,
  };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  api.dispose();
  await host.dispose();
}

await main();
