import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/runner/durationSequencer.js';
import TimingReporter from './test/runner/timingReporter.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run on their own afterwards (vitest.browser.config.ts): Chromium beside the process-heavy tests starves both on two cores.
    exclude: ['test/**/*.browser.test.ts', '**/node_modules/**'],
    // Integration tests spawn real processes; two cores, so keep parallelism modest.
    pool: 'forks',
    // Files share a worker's process and modules (not vitest's default): a fresh process and module graph per file cost
    // ~150 s of a ~550 s suite. What a file leaves behind is cleaned per file: helpers' servers, hosts and folders
    // (test/runner/helperCleanups.ts), the fetch connection pool (test/runner/freshConnections.ts).
    isolate: false,
    // The longest files first (test/durations.json), so the two workers finish together.
    sequence: { sequencer: DurationSequencer },
    // fast-check's seed fixed for every property test, so each run tries the same cases and a failure replays;
    // and a file that leaves a process running after its last hook fails, naming it (test/runner/childProcesses.ts).
    // And the helpers' cleanups after each test of each file (test/helpers/afterEachTest.ts).
    // The run's own temp folder, and each worker's inside it (test/runner/runTempRoot.ts, tempFolders.ts).
    globalSetup: ['test/runner/runTempRoot.ts'],
    setupFiles: ['test/runner/tempFolders.ts', 'test/runner/fixedSeeds.ts', 'test/runner/childProcesses.ts', 'test/runner/helperCleanups.ts', 'test/runner/freshConnections.ts'],
    reporters: ['default', new TimingReporter('core')],
    // Three files at a time, not vitest's default of cores - 1 (one file on these 2-core machines): much of a CLI or
    // serve test is waiting on the processes it started, so files overlap well. Quiet machine, whole suite: one at a
    // time 885 s, two 500 s; with files sharing workers, two kept the cores about four fifths busy.
    maxWorkers: 3,
    // The timeouts catch hangs, not slowness: a test that runs a dozen CLI processes took 30-65 s on a
    // 2-core machine at load 12, and 134 s at load 15, so a tight default made busy runs fail without a bug.
    // A test that sets its own (a hang guard for many processes) sets the same 300 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for an event to show (a write, a refetch): 1 s, vitest's default, is too short on a busy 2-core machine.
    expect: { poll: { timeout: 20_000 } },
  },
});
