/**
 * A seeded PRNG (mulberry32): the same numbers from the same seed, in every
 * run. For the bench's probes and the tests' random inputs
 * (test/helpers/seededRandom.ts), never Math.random(), so a run replays.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
