import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * No helper module registers a vitest hook at its top level
 * (docs/contributing/testing.md#stop-what-you-start): a worker runs file
 * after file in one process (vitest.config.ts, `isolate: false`) and
 * imports a helper once, so such a hook would run for the first file that
 * imported it and never again, and the next files' hosts, servers and temp
 * folders would be left behind. A helper calls afterEachTest()
 * (test/helpers/afterEachTest.ts) instead. Test files and the setup files
 * (test/runner/, run again for each file) may.
 */

const HOOK = /^(?:afterEach|afterAll|beforeEach|beforeAll)\(/;
const SKIPPED = new Set(['test/fixtures', 'test/runner']);

function helperModules(root: string, dir = 'test', out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(rel)) helperModules(root, rel, out);
    } else if (/\.(ts|mts)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

function topLevelHooks(root: string): string[] {
  const found: string[] = [];
  for (const file of helperModules(root)) {
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (HOOK.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}\n    fix: afterEachTest(...) from test/helpers/afterEachTest.ts`);
      });
  }
  return found;
}

describe('helpers clean up after every file, not only the first', () => {
  it('no helper module registers a vitest hook at its top level', () => {
    const found = topLevelHooks(repoRoot);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('refuses one in a new helper, naming the file and the line; a hook inside a function, a test file and a setup file may', () => {
    const root = tempDir('chatos-helper-hooks-');
    for (const dir of ['helpers', 'core', 'runner']) fs.mkdirSync(path.join(root, 'test', dir), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'test', 'helpers', 'server.ts'),
      "import { afterAll, afterEach } from 'vitest';\nafterEach(async () => stopAll());\nexport function useServer() {\n  afterAll(() => stop());\n}\n",
    );
    fs.writeFileSync(path.join(root, 'test', 'core', 'server.test.ts'), "import { afterEach } from 'vitest';\nafterEach(() => undefined);\n");
    fs.writeFileSync(path.join(root, 'test', 'runner', 'setup.ts'), "import { afterAll } from 'vitest';\nafterAll(() => undefined);\n");
    expect(topLevelHooks(root).map((f) => f.split('\n')[0])).toEqual(['test/helpers/server.ts:2: afterEach(async () => stopAll());']);
  });
});
