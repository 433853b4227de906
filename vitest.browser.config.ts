import { defineConfig } from 'vitest/config';

/** The UI in Debian's Chromium against real `chatos serve` processes: one file at a time. */
export default defineConfig({
  test: {
    include: ['test/**/*.browser.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event to show (a write, a refetch): 1 s, vitest's default, is too short on a busy 2-core machine.
    expect: { poll: { timeout: 20_000 } },
  },
});
