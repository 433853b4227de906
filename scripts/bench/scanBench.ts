import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost, type Host } from '../../src/core/host.js';
import type { ScanResult } from '../../src/core/contributions/pluginScanner.js';
import type { ColdScanReply, ColdScanRequest } from './coldScanChild.js';
import { promptText, readAllManifests, writePluginFixtures, type FixtureApp } from './pluginFixtures.js';
import { below, check, grouped, info, median, percentile, timed, type BenchSection } from './section.js';

const PLUGINS = 1000;
const APPS_PER_PLUGIN = 2;
const EXPECTED_APPS = PLUGINS * APPS_PER_PLUGIN;
/** Way-B apps that get a bundled default exposure list ("a few"). */
const WITH_DEFAULTS = 10;
/** Cold scans judged against the target, each in a fresh Node process. */
const CHILD_RUNS = 5;
/** In-process cold scans (new host, JIT warm after the first): information only. */
const COLD_RUNS = 7;
const RESCAN_RUNS = 20;
const COLD_TARGET_MS = 1000;
const ONE_CHANGED_TARGET_MS = 50;
/** Compiled next to this file (dist/scripts/bench/). */
const CHILD_SCRIPT = fileURLToPath(new URL('./coldScanChild.js', import.meta.url));

interface Layout {
  root: string;
  pluginsDir: string;
  defaultsDir: string;
  home: string;
}

function makeHost(layout: Layout): Host {
  // appRoot is the repo (read-only to the host); every path the scan reads or
  // could write under is overridden to point into the temp tree.
  return createHost({ home: layout.home, appRoot: findAppRoot(), builtinPluginsDir: layout.pluginsDir, defaultsDir: layout.defaultsDir });
}

/**
 * Runs coldScanChild.js in a new `node` process: one cold scan (or the
 * baseline) with nothing JIT-compiled or cached, which is what a user
 * starting ChatOS gets. Returns its reply plus the process's wall time.
 */
function inFreshProcess(layout: Layout, mode: ColdScanRequest['mode']): ColdScanReply & { wallMs: number } {
  const request: ColdScanRequest = { mode, pluginsDir: layout.pluginsDir, defaultsDir: layout.defaultsDir, home: layout.home };
  const started = performance.now();
  const child = spawnSync(process.execPath, [CHILD_SCRIPT, JSON.stringify(request)], { encoding: 'utf8', timeout: 120_000 });
  const wallMs = performance.now() - started;
  check(!child.error, `cold ${mode} child could not run: ${child.error?.message}`);
  check(child.status === 0, `cold ${mode} child exited with ${child.status ?? child.signal}: ${child.stderr.trim().slice(0, 2000)}`);
  const line = child.stdout.trim().split('\n').pop() ?? '';
  let reply: ColdScanReply;
  try {
    reply = JSON.parse(line) as ColdScanReply;
  } catch {
    throw new Error(`check failed: cold ${mode} child printed no JSON: ${child.stdout.slice(0, 500)}`);
  }
  check(reply.mode === mode && Number.isFinite(reply.ms), `cold ${mode} child reply: ${line}`);
  return { ...reply, wallMs };
}

function checkChildScan(reply: ColdScanReply, label: string): void {
  check(reply.problems === 0, `${label}: expected no problems, got ${reply.problems} (first: ${reply.firstProblem})`);
  check(reply.apps === EXPECTED_APPS, `${label}: expected ${EXPECTED_APPS} apps, got ${reply.apps}`);
  check(reply.reread === PLUGINS, `${label}: expected ${PLUGINS} folders read, got ${reply.reread}`);
}

function checkFullScan(result: ScanResult, label: string): void {
  const first = result.problems[0];
  check(result.problems.length === 0, `${label}: expected no problems, got ${result.problems.length} (first: ${first?.code} ${first?.message})`);
  check(result.apps.length === EXPECTED_APPS, `${label}: expected ${EXPECTED_APPS} apps, got ${result.apps.length}`);
  check(result.stats.reread.length === PLUGINS, `${label}: expected ${PLUGINS} folders read, got ${result.stats.reread.length}`);
}

/** The benchmark only means something if the scan produced the right contributions, so spot-check exposure of each kind. */
function checkExposure(host: Host, apps: FixtureApp[]): void {
  const kinds = [apps.find((a) => a.hasDefaults), apps.find((a) => a.wayB && !a.hasDefaults), apps.find((a) => !a.wayB)];
  const expected = ['defaults', 'inline', 'none'];
  kinds.forEach((app, i) => {
    check(app, `fixture has an app of kind ${expected[i]}`);
    const source = host.plugins.catalog.getAiContribution(app.pluginId, app.appId)?.exposure.mcpServers.source;
    check(source === expected[i], `${app.pluginId}/${app.appId}: exposure source ${source}, expected ${expected[i]}`);
  });
}

export async function runScanBench(): Promise<BenchSection> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-scan-'));
  const layout: Layout = { root, pluginsDir: path.join(root, 'plugins'), defaultsDir: path.join(root, 'defaults'), home: path.join(root, 'home') };
  try {
    const generated = timed(() =>
      writePluginFixtures({ pluginsDir: layout.pluginsDir, defaultsDir: layout.defaultsDir, plugins: PLUGINS, appsPerPlugin: APPS_PER_PLUGIN, withDefaults: WITH_DEFAULTS }),
    );
    const apps = generated.result;

    // The judged cold figure: fresh processes, each preceded by a fresh-process baseline so drift hits both alike.
    const childBaselineMs: number[] = [];
    const childColdMs: number[] = [];
    const childImportMs: number[] = [];
    const childWallMs: number[] = [];
    for (let run = 0; run < CHILD_RUNS; run++) {
      const baseline = inFreshProcess(layout, 'baseline');
      check(baseline.parsed === PLUGINS, `fresh-process baseline parsed ${baseline.parsed} manifests`);
      childBaselineMs.push(baseline.ms);
      const cold = inFreshProcess(layout, 'scan');
      checkChildScan(cold, `fresh-process cold scan ${run + 1}`);
      childColdMs.push(cold.ms);
      childImportMs.push(cold.importMs!);
      childWallMs.push(cold.wallMs);
    }

    // Baseline and cold scans alternate so drift (thermal, other load) hits both alike.
    const baselineMs: number[] = [];
    const coldMs: number[] = [];
    let host: Host | undefined;
    for (let run = 0; run < COLD_RUNS; run++) {
      const baseline = timed(() => readAllManifests(layout.pluginsDir));
      check(baseline.result === PLUGINS, `baseline parsed ${baseline.result} manifests`);
      baselineMs.push(baseline.ms);

      await host?.dispose();
      host = makeHost(layout); // a new host each time: empty scan cache
      const currentHost = host;
      const cold = timed(() => currentHost.plugins.catalog.rescan());
      checkFullScan(cold.result, `cold scan ${run + 1}`);
      coldMs.push(cold.ms);
    }
    check(host, 'a host was created');
    checkExposure(host, apps);

    const noChangeMs: number[] = [];
    for (let run = 0; run < RESCAN_RUNS; run++) {
      const rescan = timed(() => host.plugins.catalog.rescan());
      check(rescan.result.stats.reread.length === 0, `no-change rescan re-read ${rescan.result.stats.reread.length} folders`);
      check(rescan.result.apps.length === EXPECTED_APPS, `no-change rescan lost apps: ${rescan.result.apps.length}`);
      noChangeMs.push(rescan.ms);
    }

    // The middle plugin, so neither end of the sorted folder list is favoured.
    const target = apps[Math.floor(apps.length / 2)]!;
    const oneChangedMs: number[] = [];
    for (let run = 0; run < RESCAN_RUNS; run++) {
      // One more line each run: the size changes, so the stamp changes even
      // where mtime resolution is coarse; the inode stays (same file rewritten).
      const text = `${promptText('zh', target.pluginId, target.appId)}${'修订\n'.repeat(run + 1)}`;
      fs.writeFileSync(target.zhPromptFile, text);
      const rescan = timed(() => host.plugins.catalog.rescan());
      const reread = rescan.result.stats.reread;
      check(reread.length === 1 && reread[0] === target.pluginDir, `one-changed rescan re-read [${reread.join(', ')}], expected [${target.pluginDir}]`);
      check(rescan.result.problems.length === 0, `one-changed rescan reported ${rescan.result.problems.length} problems`);
      const seen = host.plugins.catalog.getAiContribution(target.pluginId, target.appId)?.prompt?.zh;
      check(seen === text, `getAiContribution does not show the rewritten prompt (run ${run + 1})`);
      oneChangedMs.push(rescan.ms);
    }
    await host.dispose();

    const baseline = median(baselineMs);
    const cold = median(coldMs);
    const childCold = median(childColdMs);
    const childBaseline = median(childBaselineMs);
    return {
      title: `Plugin scan: ${PLUGINS} plugins, ${EXPECTED_APPS} apps`,
      rows: [
        info('generate fixture tree (setup, not a target)', generated.ms, 'ms'),
        below(`cold scan in a fresh node process, median of ${CHILD_RUNS}`, childCold, 'ms', COLD_TARGET_MS),
        info(`cold scan in a fresh node process, min of ${CHILD_RUNS}`, Math.min(...childColdMs), 'ms'),
        info(`cold scan in a fresh node process, max of ${CHILD_RUNS}`, Math.max(...childColdMs), 'ms'),
        info(`fresh process: import host modules + createHost, median of ${CHILD_RUNS}`, median(childImportMs), 'ms'),
        info(`fresh process: spawn to exit (node start, imports, scan), median of ${CHILD_RUNS}`, median(childWallMs), 'ms'),
        info('in-process cold scan, first in process (JIT cold, not a fresh process)', coldMs[0]!, 'ms'),
        info(`in-process cold scan, median of ${COLD_RUNS} new hosts (JIT warm)`, cold, 'ms'),
        info(`in-process cold scan, min of ${COLD_RUNS}`, Math.min(...coldMs), 'ms'),
        info(`no-change rescan, median of ${RESCAN_RUNS}`, median(noChangeMs), 'ms'),
        info(`no-change rescan, p95 of ${RESCAN_RUNS}`, percentile(noChangeMs, 95), 'ms'),
        below(`one-changed rescan, median of ${RESCAN_RUNS}`, median(oneChangedMs), 'ms', ONE_CHANGED_TARGET_MS),
        info(`one-changed rescan, p95 of ${RESCAN_RUNS}`, percentile(oneChangedMs, 95), 'ms'),
        info(`baseline: readdir + read + JSON.parse every plugin.json, fresh process, median of ${CHILD_RUNS}`, childBaseline, 'ms'),
        info(`baseline: the same, in process, median of ${COLD_RUNS}`, baseline, 'ms'),
        ...grouped('Ratios against a baseline measured in the same run', [
          info('fresh-process cold scan median / fresh-process baseline median', childCold / childBaseline, 'x'),
          info('in-process cold scan median / in-process baseline median', cold / baseline, 'x'),
          info('one-changed rescan median / no-change rescan median', median(oneChangedMs) / median(noChangeMs), 'x'),
        ]),
      ],
      notes: [
        `The judged cold scan runs in ${CHILD_RUNS} fresh node processes (${path.basename(CHILD_SCRIPT)}): one catalog.rescan() each, timed after the host's modules are loaded; in-process figures are information only.`,
        'Cold scans use a new host (empty scan cache) each time, but the OS file cache is warm: the files were just written and read. A first scan after a reboot will be slower.',
        `Each cold scan is checked: 0 problems, ${EXPECTED_APPS} apps, ${PLUGINS} folders read; each one-changed rescan re-reads exactly ${path.basename(target.pluginDir)} and shows the new prompt text.`,
      ],
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
