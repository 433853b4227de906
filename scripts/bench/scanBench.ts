import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findAppRoot } from '../../src/core/appPaths.js';
import { createHost, type Host } from '../../src/core/host.js';
import type { ScanResult } from '../../src/core/plugins/pluginScanner.js';
import { promptText, writePluginFixtures, type FixtureApp } from './pluginFixtures.js';
import { below, check, grouped, info, median, percentile, timed, type BenchSection } from './section.js';

const PLUGINS = 1000;
const APPS_PER_PLUGIN = 2;
const EXPECTED_APPS = PLUGINS * APPS_PER_PLUGIN;
/** Way-B apps that get a bundled default exposure list ("a few"). */
const WITH_DEFAULTS = 10;
const COLD_RUNS = 7;
const RESCAN_RUNS = 20;
const COLD_TARGET_MS = 1000;
const ONE_CHANGED_TARGET_MS = 50;

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
 * The floor any scan has to pay: list the root, read and JSON.parse every
 * plugin.json, nothing else. Measured in the same process and on the same
 * files, so cold/baseline says how much validation and contribution add,
 * independent of how fast this machine's disk and CPU are.
 */
function readAllManifests(pluginsDir: string): number {
  let parsed = 0;
  for (const name of fs.readdirSync(pluginsDir)) {
    if (JSON.parse(fs.readFileSync(path.join(pluginsDir, name, 'plugin.json'), 'utf8'))) parsed++;
  }
  return parsed;
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
    const source = host.catalog.getAiContribution(app.pluginId, app.appId)?.exposure.mcpServers.source;
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
      const cold = timed(() => currentHost.catalog.rescan());
      checkFullScan(cold.result, `cold scan ${run + 1}`);
      coldMs.push(cold.ms);
    }
    check(host, 'a host was created');
    checkExposure(host, apps);

    const noChangeMs: number[] = [];
    for (let run = 0; run < RESCAN_RUNS; run++) {
      const rescan = timed(() => host.catalog.rescan());
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
      const rescan = timed(() => host.catalog.rescan());
      const reread = rescan.result.stats.reread;
      check(reread.length === 1 && reread[0] === target.pluginDir, `one-changed rescan re-read [${reread.join(', ')}], expected [${target.pluginDir}]`);
      check(rescan.result.problems.length === 0, `one-changed rescan reported ${rescan.result.problems.length} problems`);
      const seen = host.catalog.getAiContribution(target.pluginId, target.appId)?.prompt?.zh;
      check(seen === text, `getAiContribution does not show the rewritten prompt (run ${run + 1})`);
      oneChangedMs.push(rescan.ms);
    }
    await host.dispose();

    const baseline = median(baselineMs);
    const cold = median(coldMs);
    return {
      title: `Plugin scan: ${PLUGINS} plugins, ${EXPECTED_APPS} apps`,
      rows: [
        info('generate fixture tree (setup, not a target)', generated.ms, 'ms'),
        info('cold scan, first in process (JIT cold)', coldMs[0]!, 'ms'),
        below(`cold scan, median of ${COLD_RUNS} new hosts`, cold, 'ms', COLD_TARGET_MS),
        info(`cold scan, min of ${COLD_RUNS}`, Math.min(...coldMs), 'ms'),
        info(`no-change rescan, median of ${RESCAN_RUNS}`, median(noChangeMs), 'ms'),
        info(`no-change rescan, p95 of ${RESCAN_RUNS}`, percentile(noChangeMs, 95), 'ms'),
        below(`one-changed rescan, median of ${RESCAN_RUNS}`, median(oneChangedMs), 'ms', ONE_CHANGED_TARGET_MS),
        info(`one-changed rescan, p95 of ${RESCAN_RUNS}`, percentile(oneChangedMs, 95), 'ms'),
        info(`baseline: readdir + read + JSON.parse every plugin.json, median of ${COLD_RUNS}`, baseline, 'ms'),
        ...grouped('Ratios against a baseline measured in the same run', [
          info('cold scan median / baseline median', cold / baseline, 'x'),
          info('one-changed rescan median / no-change rescan median', median(oneChangedMs) / median(noChangeMs), 'x'),
        ]),
      ],
      notes: [
        'Cold scans use a new host (empty scan cache) each time, but the OS file cache is warm: the files were just written and read. A first scan after a reboot will be slower.',
        `Each cold scan is checked: 0 problems, ${EXPECTED_APPS} apps, ${PLUGINS} folders read; each one-changed rescan re-reads exactly ${path.basename(target.pluginDir)} and shows the new prompt text.`,
      ],
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
