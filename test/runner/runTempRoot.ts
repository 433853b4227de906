import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The run's temp folder (vitest's globalSetup): TMPDIR for the run, so the
 * workers forked after it make their own folders inside it
 * (test/runner/tempFolders.ts) and one run never sees another's. Removed
 * when the run ends, with whatever a killed worker could not remove itself.
 */
export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-run-'));
  // Passable (not listable) by other users, as /tmp is: a test runs the CLI as `nobody` against a home in here.
  fs.chmodSync(root, 0o711);
  process.env.TMPDIR = root;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
