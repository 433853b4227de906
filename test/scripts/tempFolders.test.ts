import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * The runner's temp folder check (test/runner/runTempRoot.ts, tempFolders.ts), run as vitest runs it: a small
 * project of two test files, one that leaves a folder behind and one that cleans up, under the same setup as the
 * suites. The leaking file fails, named with what it left; the other passes; the run's folder is gone afterwards.
 */

const vitest = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

function project(): string {
  const dir = tempDir('chatos-temp-check-');
  const runner = (name: string) => JSON.stringify(path.join(repoRoot, 'test', 'runner', name));
  fs.writeFileSync(
    path.join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], globals: true, pool: 'forks', maxWorkers: 1, isolate: false,
      globalSetup: [${runner('runTempRoot.ts')}], setupFiles: [${runner('tempFolders.ts')}] } };\n`,
  );
  const body = (keep: boolean) =>
    `import * as fs from 'node:fs'; import * as os from 'node:os'; import * as path from 'node:path';
     it('makes a folder', () => { const made = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-made-'));
       ${keep ? '' : 'fs.rmSync(made, { recursive: true });'} });\n`;
  fs.writeFileSync(path.join(dir, 'a-leaks.test.mjs'), body(true));
  fs.writeFileSync(path.join(dir, 'b-cleans.test.mjs'), body(false));
  return dir;
}

describe('a test file that leaves a temp folder behind', () => {
  it('fails, naming what it left, while a file that removes its folder passes; the run leaves nothing in TMPDIR', () => {
    const dir = project();
    const outside = tempDir('chatos-temp-outside-');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', dir, '--config', path.join(dir, 'vitest.config.mjs'), '--reporter', 'verbose'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: outside, NO_COLOR: '1', CI: 'true' },
    });
    const output = run.stdout + run.stderr;
    expect(run.status, output).toBe(1);
    expect(output).toMatch(/FAIL\s+a-leaks\.test\.mjs/);
    expect(output).toMatch(/this file left chatos-made-\w+ in the temp folder/);
    expect(output).not.toMatch(/FAIL\s+b-cleans\.test\.mjs/);
    expect(output).toMatch(/Test Files\s+1 failed \| 1 passed/);
    // Each file made its folder where os.tmpdir() was: a worker's folder inside the run's, inside the TMPDIR given; all gone.
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
