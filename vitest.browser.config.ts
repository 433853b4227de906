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
    globalSetup: ['test/helpers/browserServer.ts'],
    // The helpers' cleanups (temp folders, serve processes) after each test (test/helpers/afterEachTest.ts).
    setupFiles: ['test/runner/helperCleanups.ts'],
    // Two files at a time: each has its own serve process, provider and browser context, so they share nothing but
    // the Chromium; much of a file is waiting on its serve process and the page, so two overlap on two cores.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event to show (a write, a refetch): 1 s, vitest's default, is too short on a busy 2-core machine.
    expect: { poll: { timeout: 20_000 } },
  },
});
