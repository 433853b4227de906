import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * The packaging check (scripts/packageCheck.mjs, `npm run package:check`):
 * electron-builder's `dir` target with a stand-in Electron, then the packaged
 * tree is inspected and its servers started; the other Linux targets pack
 * that same tree, so their configuration is checked as written (building the
 * tar.gz too, `--tar`, copied the 150 MB tree a second time). About a minute
 * on two cores, mostly writing files, so it runs only when asked:
 * CHATOS_PACKAGE_CHECK=1 npx vitest run test/electron/packageCheck.test.ts
 */
describe('packaging', () => {
  it.runIf(Boolean(process.env.CHATOS_PACKAGE_CHECK))(
    'electron-builder packs a desktop app whose child processes can start from app.asar.unpacked',
    () => {
      // npm test has just built dist/; the script checks it is there.
      const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'packageCheck.mjs'), '--no-build'], { cwd: repoRoot, encoding: 'utf8', timeout: 280_000 });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(0);
      expect(output).toMatch(/package check passed/);
      expect(output).toMatch(/✓ the packaged config associates \.mcpb files with the app/);
      expect(output).toMatch(/the Notes plugin server starts from the unpacked tree/);
      expect(output).toMatch(/the packaged host started the Notes server with PATH=\S+ \(no node\)/);
      expect(output).toMatch(/nothing was written inside the app/);
      expect(output).toMatch(/builds the Linux targets AppImage, deb and tar\.gz/);
      expect(output).toMatch(/the tar\.gz is named ChatOS-\S+-linux-x64\.tar\.gz/);
    },
    300_000,
  );
});
