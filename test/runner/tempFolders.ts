import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A test file removes the folders it makes. Each worker gets a temp folder of
 * its own (TMPDIR, which os.tmpdir() and every process the file starts read),
 * and after a file's last hook, whatever it added there fails the file,
 * naming what was left. Without this, two files leaked a folder into /tmp on
 * every run, unseen (the manifest fuzz's home, the UI test's plugins). The
 * worker's folder is inside the run's (test/runner/runTempRoot.ts), which
 * goes when the run ends: vitest stops its workers without their exit
 * handlers, so a worker cannot remove its own.
 * Loaded before each test file (setupFiles); its afterAll runs after the file's own.
 */

const WORKER_FOLDER = 'CHATOS_TEST_WORKER_TMP';
/**
 * Caches kept from file to file, made in os.tmpdir() by what the tests run: the CLI's compile cache (bin/chatos.js,
 * module.enableCompileCache), and jiti's (electron-builder loads its TypeScript config with it: the packaging check).
 */
const SHARED = new Set(['node-compile-cache', 'jiti']);

function workerFolder(): string {
  // Marked with this process's pid: a test that runs vitest itself hands its worker's environment down.
  const [pid, made] = (process.env[WORKER_FOLDER] ?? '').split(':');
  if (pid === String(process.pid) && made) return made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-worker-'));
  fs.chmodSync(dir, 0o711); // as the run's folder (runTempRoot.ts)
  process.env[WORKER_FOLDER] = `${process.pid}:${dir}`;
  process.env.TMPDIR = dir;
  return dir;
}

const dir = workerFolder();
let before = new Set<string>();

beforeAll(() => {
  before = new Set(fs.readdirSync(dir));
});

afterAll(() => {
  const left = fs.readdirSync(dir).filter((name) => !before.has(name) && !SHARED.has(name));
  for (const name of left) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  if (left.length > 0)
    throw new Error(
      `this file left ${left.join(', ')} in the temp folder: remove what it makes in its afterAll, or make folders with tempDir() (test/helpers/tempDir.ts), which removes them after each test`,
    );
});
