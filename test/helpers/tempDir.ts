import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEachTest } from './afterEachTest.js';

const made: string[] = [];

/** A fresh temp folder, removed after the test. */
export function tempDir(prefix = 'chatos-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEachTest(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
