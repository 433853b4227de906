import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/tempDir.js';

/** The compiled desktop shell, as package.json "main" and the packager use it. */
export const builtElectronDir = path.join(repoRoot, 'dist', 'electron');

/**
 * `dist/electron/<name>`, failing with the fix when it is missing: these
 * tests check what Electron would load, which `npm test` builds first.
 */
export function builtElectronFile(name: string): string {
  const file = path.join(builtElectronDir, name);
  if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: build first with npm run build (npm test does)`);
  return file;
}
