import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../../src/core/contributions/pluginScanner.js';
import type { RescanPlugins } from '../../../src/core/operations/rescanPlugins.js';
import { HostWatcher } from '../../../src/core/reload/hostWatcher.js';
import { tempDir } from '../../helpers/tempDir.js';

/** The watcher's policy alone: real files and fs.watch, a rescan and a reload that only record what they were asked. */

const scanOf = (reread: string[] = []): ScanResult => ({ plugins: [], apps: [], problems: [], roots: [], stats: { folders: 0, reread, removed: [], durationMs: 0 } });

/** How many times something was asked; `grows()` resolves at the next time, so a test waits for the call itself. */
class Count {
  value = 0;
  private waiters: (() => void)[] = [];
  add(): void {
    this.value++;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
  grows(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** A rescan operation that records its calls; each rescan answers the next queued scan (else an unchanged one). */
class TestRescan implements Pick<RescanPlugins, 'rescan' | 'apply'> {
  readonly applied: ScanResult[] = [];
  readonly rescans = new Count();
  next: ScanResult[] = [];
  rescan(): ScanResult {
    this.rescans.add();
    return this.next.shift() ?? scanOf();
  }
  apply(result: ScanResult): ScanResult {
    this.applied.push(result);
    return result;
  }
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function world() {
  const dir = tempDir('chatos-watcher-');
  const mcpConfigFile = path.join(dir, 'mcp.yaml');
  const rootsFile = path.join(dir, 'plugin-roots.json');
  const rootA = path.join(dir, 'a');
  const rootB = path.join(dir, 'b');
  for (const root of [rootA, rootB]) fs.mkdirSync(root);
  fs.writeFileSync(mcpConfigFile, 'version: 1\n');
  let roots = [rootA];
  const reloads = new Count();
  let scans: ScanResult[] = [];
  const rescan = new TestRescan();
  const watcher = new HostWatcher({
    mcpConfigFile,
    pluginRoots: () => roots.map((root) => ({ dir: root })),
    rootsFiles: [rootsFile],
    scan: () => scans.shift() ?? scanOf(),
    rescan,
    reloadMcp: async () => reloads.add(),
  });
  return {
    dir,
    mcpConfigFile,
    rootsFile,
    rootA,
    rootB,
    rescan,
    reloads,
    setRoots: (next: string[]) => void (roots = next),
    queueScan: (scan: ScanResult) => void (scans = [scan]),
    watch: (times = { debounceMs: 10, pollMs: 50 }) => {
      const stop = watcher.watch(times);
      stops.push(stop);
      return stop;
    },
  };
}

describe('HostWatcher', () => {
  it('reloads the servers when mcp.yaml changes', async () => {
    const w = world();
    w.watch();
    const reloaded = w.reloads.grows();
    fs.writeFileSync(w.mcpConfigFile, 'version: 1\nservers: {}\n');
    await reloaded;
    expect(w.rescan.rescans.value).toBe(0);
  });

  it('rescans when a plugin root changes, and reloads only when the scan found a plugin re-read or gone', async () => {
    const w = world();
    w.watch({ debounceMs: 10, pollMs: 60_000 });
    const rescanned = w.rescan.rescans.grows();
    fs.writeFileSync(path.join(w.rootA, 'plugin.json'), '{}');
    await rescanned;
    expect(w.reloads.value).toBe(0);

    w.rescan.next = [scanOf([path.join(w.rootA, 'x')])];
    const reloaded = w.reloads.grows();
    fs.writeFileSync(path.join(w.rootA, 'plugin.json'), '{"id":"x"}');
    await reloaded;
  });

  it('applies what its poll found at once (the events name the edited plugins), then reloads', async () => {
    const w = world();
    const found = scanOf([path.join(w.rootA, 'edited')]);
    w.queueScan(found);
    w.watch({ debounceMs: 10, pollMs: 20 });
    await w.reloads.grows();
    expect(w.rescan.applied).toContain(found);
  });

  it('watches the new set of roots when the roots file changes, and scans them now', async () => {
    const w = world();
    w.watch({ debounceMs: 10, pollMs: 60_000 });
    w.setRoots([w.rootA, w.rootB]);
    const rescanned = w.rescan.rescans.grows();
    fs.writeFileSync(w.rootsFile, JSON.stringify({ roots: [w.rootB] }));
    await rescanned;

    const again = w.rescan.rescans.grows();
    fs.writeFileSync(path.join(w.rootB, 'plugin.json'), '{}');
    await again;
  });

  it('does nothing once stopped', async () => {
    const w = world();
    const stop = w.watch({ debounceMs: 10, pollMs: 60_000 });
    stop();
    fs.writeFileSync(w.mcpConfigFile, 'version: 1\nservers: {}\n');
    fs.writeFileSync(path.join(w.rootA, 'plugin.json'), '{}');
    // A watcher that still ran would have reloaded for this write; a second, still watching, shows the write was seen.
    const control = world();
    control.watch();
    const seen = control.reloads.grows();
    fs.writeFileSync(control.mcpConfigFile, 'version: 1\nservers: {}\n');
    await seen;
    expect(w.reloads.value).toBe(0);
    expect(w.rescan.rescans.value).toBe(0);
  });
});
