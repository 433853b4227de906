// Whether `npm start` must build: a digest of everything the build reads,
// compared with the one written after the last successful build. Content,
// not timestamps: a checkout, a branch switch or an editor that rewrites a
// file unchanged must not fool it, and hashing the ~2,000 input files takes
// well under a second where the build takes a minute.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** What `npm run build` reads: the core (tsc), the renderer (Vite), and the files that set them up. */
const INPUT_DIRS = ['src', 'scripts', 'electron', 'renderer'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const SKIPPED = new Set(['node_modules', 'dist']);

/** Where the digest of the inputs of the last successful build is kept (inside dist/: `rm -rf dist` forgets it too). */
export function stampPath(root) {
  return path.join(root, 'dist', '.build-inputs');
}

function filesUnder(root, dir) {
  const found = [];
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  if (existsSync(path.join(root, dir))) walk(dir);
  return found;
}

/** One digest of the names and bytes of every build input, in a fixed order. */
export function inputsDigest(root) {
  const hash = createHash('sha256');
  const files = [...INPUT_DIRS.flatMap((dir) => filesUnder(root, dir)), ...INPUT_FILES.filter((file) => existsSync(path.join(root, file)))].sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

/** True when dist/ was built from exactly the inputs there are now. */
export function isBuildCurrent(root) {
  const stamp = stampPath(root);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsDigest(root);
}

/** Records that dist/ now matches the inputs; call only after a build that succeeded. */
export function markBuilt(root, digest) {
  writeFileSync(stampPath(root), `${digest}\n`);
}
