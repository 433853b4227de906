import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests spawn real processes; two cores, so keep parallelism modest.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
