import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanResult } from '../../../src/core/contributions/pluginScanner.js';
import type { RescanPlugins } from '../../../src/core/operations/rescanPlugins.js';
import { HostWatcher } from '../../../src/core/reload/hostWatcher.js';
import { tempDir } from '../../helpers/tempDir.js';

/** The watcher's policy alone: real files and fs.watch, a rescan and a reload that only record what they were asked. */

const scanOf = (reread: string[] = []): ScanResult => ({ plugins: [], apps: [], problems: [], roots: [], stats: { folders: 0, reread, removed: [], durationMs: 0 } });

/** A rescan operation that records its calls; each rescan answers the next queued scan (else an unchanged one). */
class TestRescan implements Pick<RescanPlugins, 'rescan' | 'apply'> {
  readonly applied: ScanResult[] = [];
  rescans = 0;
  next: ScanResult[] = [];
  rescan(): ScanResult {
    this.rescans++;
    return this.next.shift() ?? scanOf();
  }
  apply(result: ScanResult): ScanResult {
    this.applied.push(result);
    return result;
  }
}

/** Resolves the next time `count()` grows past what it is now. */
function grows(count: () => number, what: string): Promise<void> {
  const start = count();
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 20_000;
    const look = () => {
      if (count() > start) return resolve();
      if (Date.now() > deadline) return reject(new Error(`no ${what}`));
      setTimeout(look, 10);
    };
    look();
  });
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
  let reloads = 0;
  let scans: ScanResult[] = [];
  const rescan = new TestRescan();
  const watcher = new HostWatcher({
    mcpConfigFile,
    pluginRoots: () => roots.map((root) => ({ dir: root })),
    rootsFiles: [rootsFile],
    scan: () => scans.shift() ?? scanOf(),
    rescan,
    reloadMcp: async () => void reloads++,
  });
  return {
    dir,
    mcpConfigFile,
    rootsFile,
    rootA,
    rootB,
    rescan,
    reloads: () => reloads,
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
    const reloaded = grows(w.reloads, 'reload after mcp.yaml changed');
    fs.writeFileSync(w.mcpConfigFile, 'version: 1\nservers: {}\n');
    await reloaded;
    expect(w.rescan.rescans).toBe(0);
  });

  it('rescans when a plugin root changes, and reloads only when the scan found a plugin re-read or gone', async () => {
    const w = world();
    w.watch({ debounceMs: 10, pollMs: 60_000 });
    const rescanned = grows(() => w.rescan.rescans, 'rescan after a plugin file changed');
    fs.writeFileSync(path.join(w.rootA, 'plugin.json'), '{}');
    await rescanned;
    expect(w.reloads()).toBe(0);

    w.rescan.next = [scanOf([path.join(w.rootA, 'x')])];
    const reloaded = grows(w.reloads, 'reload after a scan that re-read a plugin');
    fs.writeFileSync(path.join(w.rootA, 'plugin.json'), '{"id":"x"}');
    await reloaded;
  });

  it('applies what its poll found at once (the events name the edited plugins), then reloads', async () => {
    const w = world();
    const found = scanOf([path.join(w.rootA, 'edited')]);
    w.queueScan(found);
    w.watch({ debounceMs: 10, pollMs: 20 });
    await grows(w.reloads, 'reload after the poll found an edit');
    expect(w.rescan.applied).toContain(found);
  });

  it('watches the new set of roots when the roots file changes, and scans them now', async () => {
    const w = world();
    w.watch({ debounceMs: 10, pollMs: 60_000 });
    w.setRoots([w.rootA, w.rootB]);
    const rescanned = grows(() => w.rescan.rescans, 'rescan after the roots changed');
    fs.writeFileSync(w.rootsFile, JSON.stringify({ roots: [w.rootB] }));
    await rescanned;

    const again = grows(() => w.rescan.rescans, 'rescan after a change in the new root');
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
    const seen = grows(control.reloads, 'the control watcher reload');
    fs.writeFileSync(control.mcpConfigFile, 'version: 1\nservers: {}\n');
    await seen;
    expect(w.reloads()).toBe(0);
    expect(w.rescan.rescans).toBe(0);
  });
});
