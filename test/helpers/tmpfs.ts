import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A real filesystem of `bytes` (a tmpfs mounted on a fresh folder): a disk
 * that fills up for real, so SQLite and Node see ENOSPC / SQLITE_FULL as
 * they would on a user's full disk. Mounting needs root, which the
 * machines and CI run as; `unmount` removes it and the folder.
 */
export function smallDisk(bytes: number): { dir: string; unmount(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
