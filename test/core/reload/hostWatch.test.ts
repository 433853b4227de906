import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host, type HostEvent } from '../../../src/core/host.js';
import { ChangeWatcher } from '../../../src/core/reload/changeWatcher.js';
import { writeProviderPlugin } from '../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

const hosts: Host[] = [];
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const host of hosts.splice(0)) await host.dispose();
});

function nextEvent(host: Host, kind: HostEvent['kind'], matches: (event: HostEvent) => boolean = () => true, ms = 10_000): Promise<HostEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${kind} event within ${ms} ms`)), ms);
    const off = host.events.on((event) => {
      if (event.kind === kind && matches(event)) {
        clearTimeout(timer);
        off();
        resolve(event);
      }
    });
  });
}

const yaml = (servers: string[]) => `version: 1\nservers:\n${servers.map((name) => `  ${name}:\n    transport: stdio\n    command: node\n    args: ["server.mjs"]\n`).join('')}`;

describe('hot reload (docs/rules/mcp-yaml.md#hot-reload)', () => {
  it('picks up mcp.yaml edits and deletion without a restart', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    const config = path.join(home, 'chatos', 'mcp.yaml');
    fs.writeFileSync(config, yaml(['alpha']));
    const host = createHost({ home, appRoot: repoRoot, extraPluginRoots: [] });
    hosts.push(host);
    await host.start();
    expect(host.mcp.definition('chatos::alpha')).toBeDefined();
    stops.push(host.watcher.watch({ debounceMs: 50, pollMs: 200 }));

    const added = nextEvent(host, 'mcp-reloaded', (e) => e.kind === 'mcp-reloaded' && e.report.added.includes('chatos::beta'));
    fs.writeFileSync(config, yaml(['alpha', 'beta']));
    const report = (await added) as Extract<HostEvent, { kind: 'mcp-reloaded' }>;
    expect(report.report.removed).toEqual([]);
    expect(host.registry.getServer('chatos::beta')?.source).toEqual({ kind: 'mcp-yaml', file: config });

    const removed = nextEvent(host, 'mcp-reloaded', (e) => e.kind === 'mcp-reloaded' && e.report.removed.length === 2);
    fs.rmSync(config);
    await removed;
    expect(host.mcp.definitions().filter((d) => d.origin === 'mcp.yaml')).toEqual([]);
    // Kept (with any grants), marked missing, until it is back or pruned.
    expect(host.registry.getServer('chatos::alpha')?.missing?.reason).toBe(`no longer in ${config}`);
  });

  it('registers a plugin dropped into a watched root, and marks it missing when removed', async () => {
    const extra = tempDir();
    const host = createHost({ home: tempDir(), appRoot: repoRoot, extraPluginRoots: [extra] });
    hosts.push(host);
    await host.start();
    stops.push(host.watcher.watch({ debounceMs: 50, pollMs: 200 }));

    const appeared = nextEvent(host, 'mcp-reloaded', () => host.registry.getServer('vcs_app::com.example.git.main') !== undefined);
    const dir = writeProviderPlugin(extra, 'com.example.git', 'vcs_app');
    await appeared;
    expect(host.mcp.definition('vcs_app::com.example.git.main')?.plugin?.pluginDir).toBe(dir);

    const gone = nextEvent(host, 'mcp-reloaded', () => host.registry.getServer('vcs_app::com.example.git.main')?.missing !== undefined);
    fs.rmSync(dir, { recursive: true });
    await gone;
    expect(host.mcp.definition('vcs_app::com.example.git.main')).toBeUndefined();
  });
});

describe('ChangeWatcher', () => {
  /** A watcher on the test's scheduler whose runs end when the test says: `started()` resolves as the next run begins. */
  function controlledWatcher(options: { poll?: () => boolean; pollMs?: number } = {}) {
    const scheduler = new TestScheduler();
    const seen = { runs: 0, concurrent: 0, maxConcurrent: 0 };
    let onStart = () => {};
    const ends: (() => void)[] = [];
    const watcher = new ChangeWatcher(
      [],
      async () => {
        seen.runs++;
        seen.maxConcurrent = Math.max(seen.maxConcurrent, ++seen.concurrent);
        onStart();
        await new Promise<void>((resolve) => ends.push(resolve));
        seen.concurrent--;
      },
      { debounceMs: 100, scheduler, ...options },
    );
    stops.push(() => watcher.dispose());
    const started = () => new Promise<void>((resolve) => (onStart = resolve));
    const endRun = () => ends.shift()!();
    return { watcher, scheduler, seen, started, endRun };
  }

  it('debounces a burst of changes into one run, 100 ms after the last', () => {
    const { watcher, scheduler, seen } = controlledWatcher();
    // Ten changes 50 ms apart: never 100 ms of quiet until the last.
    for (let i = 0; i < 10; i++) {
      watcher.trigger();
      scheduler.advance(50);
    }
    expect(seen.runs).toBe(0);
    scheduler.advance(49);
    expect(seen.runs).toBe(0);
    scheduler.advance(1);
    expect(seen.runs).toBe(1);
  });

  it('never runs twice at once: changes during a run make exactly one more run, after it', async () => {
    const { watcher, scheduler, seen, started, endRun } = controlledWatcher();
    const first = started();
    watcher.trigger();
    scheduler.advance(100);
    await first;
    for (let i = 0; i < 3; i++) {
      watcher.trigger();
      scheduler.advance(100);
    }
    expect(seen).toEqual({ runs: 1, concurrent: 1, maxConcurrent: 1 });
    const second = started();
    endRun();
    await second;
    expect(seen).toEqual({ runs: 2, concurrent: 1, maxConcurrent: 1 });
    endRun();
    await watcher.settled();
    expect(seen).toEqual({ runs: 2, concurrent: 0, maxConcurrent: 1 });
  });

  it('runs when its poll finds a change, on the same debounce', async () => {
    let changed = false;
    const { watcher, scheduler, seen, started, endRun } = controlledWatcher({ poll: () => changed, pollMs: 200 });
    watcher.start();
    scheduler.advance(1_000);
    expect(seen.runs).toBe(0);
    changed = true;
    const run = started();
    scheduler.advance(200 + 100);
    await run;
    expect(seen.runs).toBe(1);
    changed = false;
    endRun();
    await watcher.settled();
  });
});
