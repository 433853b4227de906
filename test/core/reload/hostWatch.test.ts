import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host, type HostEvent } from '../../../src/core/host.js';
import { ChangeWatcher } from '../../../src/core/reload/changeWatcher.js';
import { writeProviderPlugin } from '../../helpers/plugins.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

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
  it('debounces a burst of writes into one run and never runs twice at once', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'watched.yaml');
    fs.writeFileSync(file, 'a');
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const watcher = new ChangeWatcher(
      [{ path: file }],
      async () => {
        runs++;
        maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        await new Promise((resolve) => setTimeout(resolve, 100));
        concurrent--;
      },
      { debounceMs: 100 },
    );
    watcher.start();
    stops.push(() => watcher.dispose());
    for (let i = 0; i < 10; i++) fs.writeFileSync(file, `write ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await watcher.settled();
    expect(runs).toBe(1);
    watcher.trigger();
    await new Promise((resolve) => setTimeout(resolve, 20));
    watcher.trigger();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await watcher.settled();
    expect(maxConcurrent).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
