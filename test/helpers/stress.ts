/**
 * Stress mode (docs/contributing/testing.md#stress-mode): `CHATOS_STRESS=1`
 * runs the tests that loop over many processes, kills or writers at their
 * full size. A default run uses a smaller count with the same assertions,
 * so `npm test` on a busy 2-core machine stays fast and the full size is
 * one variable away.
 */
const STRESS = process.env.CHATOS_STRESS === '1';

/** `full` in stress mode, else `quick`. */
export const stressSize = (full: number, quick: number): number => (STRESS ? full : quick);
