import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed application's root (where package.json, plugins/ and
 * defaults/ ship). Found by walking up from this file, so it is the same
 * whether code runs from src/ (tests) or dist/ (the built CLI and app).
 * Read-only: nothing is ever written here.
 */
export function findAppRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'chatos') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ChatOS application root above ${from}`);
    dir = parent;
  }
}

/**
 * A compiled module the host starts by path (a forked runner, a worker
 * thread): `beside` (a URL made from the caller's `import.meta.url`) when it
 * exists, which it does in dist/; from src/ (tests), the built one under
 * dist/src/ at `fromDistSrc`, so `npm run build` must have run.
 */
export function builtModulePath(beside: URL, ...fromDistSrc: string[]): string {
  const file = fileURLToPath(beside);
  if (fs.existsSync(file)) return file;
  return path.join(findAppRoot(), 'dist', 'src', ...fromDistSrc);
}
