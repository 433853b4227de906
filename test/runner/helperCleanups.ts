import { afterAll, afterEach } from 'vitest';
import { runAfterEachFile, runAfterEachTest } from '../helpers/afterEachTest.js';

/**
 * The helpers' cleanups (test/helpers/afterEachTest.ts) after each test of
 * this file, and those after its last test: a helper module is imported once per worker, this setup file is
 * run again for each file (vitest.config.ts, setupFiles). Registered before
 * the file's own hooks, so it runs after them, as a helper's own hook did.
 * 300 s: the longest a helper's hook had, stopping `chatos serve`
 * (test/serve/serveProcess.ts) on a busy machine.
 */
afterEach(runAfterEachTest, 300_000);
afterAll(runAfterEachFile, 300_000);
