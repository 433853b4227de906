// The build step of `npm start`: builds only when a build input changed
// since the last successful build (buildState.mjs says how it knows).
// `npm test` and `npm run build` always build in full.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inputsDigest, isBuildCurrent, markBuilt } from './buildState.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (isBuildCurrent(root)) console.log('Nothing changed since the last build; starting.');
else {
  const digest = inputsDigest(root);
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // The digest taken before the build: a file edited during it makes the next start build again.
  markBuilt(root, digest);
}
