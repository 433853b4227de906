import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run on their own afterwards (vitest.browser.config.ts): Chromium beside the process-heavy tests starves both on two cores.
    exclude: ['test/**/*.browser.test.ts', '**/node_modules/**'],
    // Integration tests spawn real processes; two cores, so keep parallelism modest.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
