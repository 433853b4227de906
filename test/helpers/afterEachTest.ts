/**
 * Cleanup a helper module registers once, at its import, to run after every
 * test of every file: stop the servers, hosts and processes a test started
 * through it, remove its temp folders.
 *
 * A helper cannot call vitest's `afterEach` at its top level: the worker
 * may run file after file in one process (vitest.config.ts, `isolate: false`)
 * and imports the helper once, so the hook would belong to the first file
 * only and the next files' hosts would run on. test/runner/helperCleanups.ts,
 * a setup file (run again for each file), hooks these into every file.
 */

type Cleanup = () => unknown;

const cleanups: Cleanup[] = [];
const fileCleanups: Cleanup[] = [];

/** Runs `cleanup` after each test of each file from now on. */
export function afterEachTest(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

/** Runs `cleanup` after the last test of each file from now on: for what a helper starts once per file. */
export function afterEachFile(cleanup: Cleanup): void {
  fileCleanups.push(cleanup);
}

/**
 * Runs every cleanup, the last registered first, as vitest runs a file's own
 * hooks (a host is disposed before the temp folder under it is removed). One
 * that fails does not keep the others from stopping what they hold; the
 * first failure is thrown after them all.
 */
export const runAfterEachTest = (): Promise<void> => runAll(cleanups);

/** As runAfterEachTest, for the cleanups after a file's last test. */
export const runAfterEachFile = (): Promise<void> => runAll(fileCleanups);

async function runAll(list: readonly Cleanup[]): Promise<void> {
  const failures: unknown[] = [];
  for (const cleanup of [...list].reverse()) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}
