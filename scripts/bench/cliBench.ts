/**
 * What a user feels at the terminal: how long a `chatos` command takes from
 * start to exit, against the same machine's bare `node` start measured in
 * the same run (interleaved, so a busy moment touches both sides).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { findAppRoot } from '../../src/core/appPaths.js';
import { atMost, check, grouped, info, median, type BenchRow, type BenchSection } from './section.js';

const RUNS = 15;
/** `chatos --help` may take this many bare Node starts: the command definitions alone, no action, no core, no zod. */
const START_RATIO_LIMIT = 3;
/** `chatos apps --json` may take this many bare Node starts (it loads and runs the host core: registry, scan, MCP config). */
const APPS_RATIO_LIMIT = 12;

function timedRun(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  check(run.status === 0, `${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

export async function runCliBench(): Promise<BenchSection> {
  const bin = path.join(findAppRoot(), 'bin', 'chatos.js');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-cli-'));
  try {
    const node: number[] = [];
    const help: number[] = [];
    const apps: number[] = [];
    // One unmeasured round warms the file cache; then each round runs the three back to back.
    for (let round = -1; round < RUNS; round++) {
      const times = [timedRun(['-e', '0']), timedRun([bin, '--help']), timedRun([bin, 'apps', '--json', '--home', home])];
      if (round < 0) continue;
      node.push(times[0]!);
      help.push(times[1]!);
      apps.push(times[2]!);
    }
    const rows: BenchRow[] = [
      info('bare node start (median)', median(node), 'ms'),
      info('chatos --help (median)', median(help), 'ms'),
      info('chatos apps --json, empty data home (median)', median(apps), 'ms'),
      ...grouped('against the bare node start', [
        atMost('chatos --help / node', median(help) / median(node), 'x', START_RATIO_LIMIT),
        atMost('chatos apps --json / node', median(apps) / median(node), 'x', APPS_RATIO_LIMIT),
      ]),
    ];
    return { title: 'CLI start', rows, notes: [`${RUNS} rounds, each a bare \`node -e 0\`, \`chatos --help\` and \`chatos apps --json\` back to back; the built CLI (npm run build)`] };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
