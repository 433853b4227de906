import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { busySince, cpuTicks, type CpuTicks } from './machineBusy.js';
import { mergeDurations, readDurations } from './timings.js';

/**
 * Writes test-output/timings-<suite>.json after a run: the run's wall time
 * and each file's duration. `CHATOS_UPDATE_DURATIONS=1` also writes the
 * files' durations into test/durations.json, which orders the next run.
 */
export default class TimingReporter implements Reporter {
  private started = 0;
  private startTicks: CpuTicks | undefined;
  private root = process.cwd();

  constructor(private readonly suite: string) {}

  onInit(ctx: { config: { root: string } }): void {
    this.root = ctx.config.root;
  }

  onTestRunStart(): void {
    this.started = Date.now();
    this.startTicks = cpuTicks();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = new Map<string, number>();
    for (const module of modules) {
      const { duration, collectDuration, setupDuration, prepareDuration } = module.diagnostic();
      files.set(path.relative(this.root, module.moduleId), (duration + collectDuration + setupDuration + prepareDuration) / 1000);
    }
    const wallSeconds = (Date.now() - this.started) / 1000;
    const dir = path.join(this.root, 'test-output');
    fs.mkdirSync(dir, { recursive: true });
    process.stdout.write(`\n${this.suite} suite: ${files.size} files in ${Math.round(wallSeconds)} s${busySince(this.startTicks)} (test-output/timings-${this.suite}.json has each file's time)\n`);
    fs.writeFileSync(
      path.join(dir, `timings-${this.suite}.json`),
      `${JSON.stringify({ suite: this.suite, wallSeconds, files: Object.fromEntries([...files].sort((a, b) => b[1] - a[1])) }, null, 2)}\n`,
    );
    if (process.env.CHATOS_UPDATE_DURATIONS === '1') {
      const file = path.join(this.root, 'test', 'durations.json');
      fs.writeFileSync(file, `${JSON.stringify(mergeDurations(readDurations(file), files), null, 2)}\n`);
    }
  }
}
