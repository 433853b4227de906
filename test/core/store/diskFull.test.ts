import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tempDir.js';
import { fixturesDir, requireBuiltStore } from './storeTestKit.js';

const TMPFS_SIZE = '256k';
const MOUNT_FAILED = 97;

interface DiskFullReport {
  before: string;
  after: string;
  flushed?: true;
  error?: { name: string; code: string; systemCode?: string; message: string };
  files: string[];
  pending: number;
  rowsAfterRetry: number;
  problemsAfterRetry: unknown[];
}

/**
 * Runs fixtures/diskFull.mjs on a real, small tmpfs: mounted directly (we
 * run as root in CI), else inside `unshare -rm` (a user and mount namespace
 * of its own). If neither can mount, the test fails saying why; it is never
 * skipped silently.
 */
function runOnSmallTmpfs(): DiskFullReport {
  const script = path.join(fixturesDir, 'diskFull.mjs');
  const mountPoint = path.join(tempDir(), 'tmpfs');
  fs.mkdirSync(mountPoint);
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', mountPoint], { encoding: 'utf8' });
  let run: SpawnSyncReturns<string>;
  if (mount.status === 0) {
    try {
      run = spawnSync(process.execPath, [script, mountPoint], { encoding: 'utf8' });
    } finally {
      spawnSync('umount', [mountPoint]);
    }
  } else {
    run = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=${TMPFS_SIZE} tmpfs "$1" || exit ${MOUNT_FAILED}; exec "$2" "$3" "$1"`, 'sh', mountPoint, process.execPath, script], {
      encoding: 'utf8',
    });
    if (run.error || run.status === MOUNT_FAILED) {
      throw new Error(
        `cannot mount a tmpfs for the disk-full test: mount said "${(mount.stderr || String(mount.error)).trim()}", ` +
          `unshare -rm said "${(run.stderr || String(run.error)).trim()}". Run the tests as root or where unprivileged user namespaces are allowed.`,
      );
    }
  }
  if (run.status !== 0) throw new Error(`diskFull.mjs failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as DiskFullReport;
}

describe('full disk', () => {
  it('a flush fails with a clear ENOSPC error naming the file; the file is unchanged, no temp file is left, and the changes save once there is room', () => {
    requireBuiltStore();
    const report = runOnSmallTmpfs();
    expect(report.flushed).toBeUndefined();
    expect(report.error).toMatchObject({ name: 'StoreError', code: 'DB_WRITE_FAILED', systemCode: 'ENOSPC' });
    expect(report.error?.message).toMatch(/^Could not write \/.*\/admin\.db: ENOSPC/);
    expect(report.error?.message).toContain('The file on disk is unchanged');
    expect(report.after).toBe(report.before);
    expect(report.files).toEqual(['admin.db', 'admin.db.bak-1', 'filler']); // no temp file, no lock left
    expect(report.pending).toBe(200);
    expect(report.rowsAfterRetry).toBe(250);
    expect(report.problemsAfterRetry).toEqual([]);
  });
});
