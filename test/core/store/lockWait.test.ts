import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LockOptions } from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { lockWhileOthersProgress } from '../../../src/core/store/dbLock.js';
import { tempDir } from '../../helpers/tempDir.js';

/** One round of waiting: 20 retries 1 ms apart, against a stale time no holder here reaches. */
const ROUND = { realpath: false, stale: 60_000, retries: { retries: 20, factor: 1, minTimeout: 1, maxTimeout: 1 } } as const;

/**
 * Other holders of `<file>.lock`, taking turns with no gap between them:
 * each time the waiter finds the lock held (its mkdir refused), a new holder
 * takes it (a new folder renamed over the last, as a new process's mkdir
 * makes one), `turns` times; then the lock is free. The turns follow the
 * waiter's own tries, not a clock, so a loaded machine changes nothing.
 * `fs` is the file system the waiter's lock library uses: the real one,
 * told when a mkdir of the lock was refused.
 */
function holdersInTurn(file: string, turns: number): { fs: LockOptions['fs']; refused(): number } {
  const lock = `${file}.lock`;
  fs.mkdirSync(lock);
  let refused = 0;
  const handOver = () => {
    refused++;
    if (refused > turns) return void fs.rmSync(lock, { recursive: true, force: true });
    fs.mkdirSync(`${lock}.next`);
    fs.renameSync(`${lock}.next`, lock);
  };
  const mkdir = (target: fs.PathLike, callback: (error: NodeJS.ErrnoException | null) => void) =>
    fs.mkdir(target, (error) => {
      if (error?.code === 'EEXIST' && String(target) === lock) handOver();
      callback(error);
    });
  return { fs: { ...fs, mkdir }, refused: () => refused };
}

describe('waiting for the DB lock', () => {
  it('goes on past a round while the lock changes hands, and gets it once the others are done', async () => {
    const file = path.join(tempDir(), 'admin.db');
    // 50 turns: two rounds and a half, the lock never free until the end.
    const holders = holdersInTurn(file, 50);
    const release = await lockWhileOthersProgress(file, { ...ROUND, fs: holders.fs });
    expect(holders.refused()).toBe(51);
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
    await release();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('gives up after a round in which one holder kept the lock', async () => {
    const file = path.join(tempDir(), 'admin.db');
    fs.mkdirSync(`${file}.lock`);
    await expect(lockWhileOthersProgress(file, ROUND)).rejects.toMatchObject({ code: 'ELOCKED' });
    // The holder's folder is left as it was.
    expect(fs.existsSync(`${file}.lock`)).toBe(true);
  });
});
