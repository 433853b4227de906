import { onTestFailed } from 'vitest';
import { mulberry32 } from '../../scripts/seededRandom.js';

/**
 * Randomness a failure can replay (docs/contributing/testing.md#seeded-randomness):
 * a small PRNG (mulberry32) from a fixed seed, or from CHATOS_SEED when set.
 * Called inside a test, it prints the seed when that test fails, so the
 * same sequence can be run again. Never Math.random() in a test.
 */
export function seededRandom(seed = Number(process.env.CHATOS_SEED ?? 20260401)): () => number {
  onTestFailed(() => console.error(`seeded randomness: seed ${seed} (run again with CHATOS_SEED=${seed})`));
  return mulberry32(seed);
}
