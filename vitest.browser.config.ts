import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/runner/durationSequencer.js';
import TimingReporter from './test/runner/timingReporter.js';

/** The UI in Debian's Chromium against real `chatos serve` processes: two files at a time. */
export default defineConfig({
  test: {
    include: ['test/**/*.browser.test.ts'],
    pool: 'forks',
    sequence: { sequencer: DurationSequencer },
    reporters: ['default', new TimingReporter('browser')],
    // One Chromium for the run; each file connects and opens a context of its own.
    // And the run's own temp folder, each worker's inside it (test/runner/runTempRoot.ts, tempFolders.ts).
    globalSetup: ['test/runner/runTempRoot.ts', 'test/helpers/browserServer.ts'],
    // Files share a worker's process and modules, as the core suite's do (vitest.config.ts): playwright-core and the
    // helpers are loaded once per worker, not once per file. The helpers' cleanups (temp folders, serve processes)
    // run after each test (test/helpers/afterEachTest.ts), and each file's fetch connections are dropped after it.
    isolate: false,
    setupFiles: ['test/runner/tempFolders.ts', 'test/runner/helperCleanups.ts', 'test/runner/freshConnections.ts'],
    // Four files at a time: each has its own serve process, provider and browser context, so they share nothing but
    // the Chromium. A browser file mostly waits (on its serve process, the page's timers, the provider's pace): the
    // whole suite used about 300 s of CPU (user + sys, Chromium included) in a run of 452 s on two cores with two
    // files at a time, a third of what the cores had. With four, the same CPU in less time (672 s -> 559 s under
    // another job's load of 14-17; all 202 tests passed).
    maxWorkers: 4,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event to show (a write, a refetch): 1 s, vitest's default, is too short on a busy 2-core machine.
    expect: { poll: { timeout: 20_000 } },
  },
});
