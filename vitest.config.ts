import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run on their own afterwards (vitest.browser.config.ts): Chromium beside the process-heavy tests starves both on two cores.
    exclude: ['test/**/*.browser.test.ts', '**/node_modules/**'],
    // Integration tests spawn real processes; two cores, so keep parallelism modest.
    pool: 'forks',
    // The timeouts catch hangs, not slowness: a test that runs a dozen CLI processes took 30-65 s on a
    // 2-core machine at load 12, so a tight default made busy runs fail without a bug.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
