/**
 * One cold measurement in a fresh Node process, run by scanBench.ts: nothing
 * is JIT-compiled or cached yet, as at the first scan after `chatos` starts.
 *
 *   node dist/scripts/bench/coldScanChild.js '<ColdScanRequest as JSON>'
 *
 * Prints one JSON line (ColdScanReply). The host's modules are imported
 * dynamically, after the clock starts, so their load time is reported apart
 * from the scan itself; the baseline mode never loads them.
 */
import { performance } from 'node:perf_hooks';
import { readAllManifests } from './pluginFixtures.js';

export interface ColdScanRequest {
  mode: 'scan' | 'baseline';
  pluginsDir: string;
  defaultsDir: string;
  home: string;
}

export interface ColdScanReply {
  mode: ColdScanRequest['mode'];
  /** Time of the measured call: one catalog.rescan(), or readAllManifests(). */
  ms: number;
  /** Scan mode: loading host.js and its module graph, and createHost. */
  importMs?: number;
  /** Baseline: manifests parsed. */
  parsed?: number;
  /** Scan: what the scan found, so the parent can check it. */
  apps?: number;
  problems?: number;
  firstProblem?: string;
  reread?: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '') as ColdScanRequest;
  let reply: ColdScanReply;
  if (request.mode === 'baseline') {
    const started = performance.now();
    const parsed = readAllManifests(request.pluginsDir);
    reply = { mode: 'baseline', ms: performance.now() - started, parsed };
  } else {
    const loadStarted = performance.now();
    const { createHost } = await import('../../src/core/host.js');
    const { findAppRoot } = await import('../../src/core/appPaths.js');
    // Every path the scan reads or could write under points into the temp tree, as in the in-process bench.
    const host = createHost({ home: request.home, appRoot: findAppRoot(), builtinPluginsDir: request.pluginsDir, defaultsDir: request.defaultsDir });
    const importMs = performance.now() - loadStarted;
    const started = performance.now();
    const result = host.plugins.catalog.rescan();
    const ms = performance.now() - started;
    await host.dispose();
    const first = result.problems[0];
    reply = {
      mode: 'scan',
      ms,
      importMs,
      apps: result.apps.length,
      problems: result.problems.length,
      reread: result.stats.reread.length,
      ...(first ? { firstProblem: `${first.code} ${first.message}` } : {}),
    };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}

await main();
