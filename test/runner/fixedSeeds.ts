import fc from 'fast-check';

/**
 * Every property test runs from a fixed seed (docs/contributing/testing.md#seeded-randomness),
 * including one that names none: the same cases in every run, and a failure
 * replays. A test may still pass its own `seed`. Loaded before each test
 * file (vitest.config.ts, setupFiles).
 */
fc.configureGlobal({ seed: 20260401 });
