import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockWhileOthersProgress } from '../../../src/core/store/dbLock.js';
import { tempDir } from '../../helpers/tempDir.js';

/** One round of waiting: 20 polls 100 ms apart (~2 s), against a stale time no holder here reaches. */
const ROUND = { realpath: false, stale: 60_000, retries: { retries: 20, factor: 1, minTimeout: 100, maxTimeout: 100 } } as const;
const tick = () => new Promise((resolve) => setTimeout(resolve, 25));

/**
 * Holders taking turns on `<file>.lock` with no gap between them (each new
 * folder is renamed over the last: a new holder, as a new process's mkdir
 * makes one), `turns` times, then the lock is free.
 */
async function holdersInTurn(file: string, turns: number): Promise<void> {
  const lock = `${file}.lock`;
  fs.mkdirSync(lock);
  for (let turn = 0; turn < turns; turn++) {
    await tick();
    const next = `${lock}.next`;
    fs.mkdirSync(next);
    fs.renameSync(next, lock);
  }
  fs.rmdirSync(lock);
}

describe('waiting for the DB lock', () => {
  it('goes on past a round while the lock changes hands, and gets it once the others are done', async () => {
    const file = path.join(tempDir(), 'admin.db');
    // 160 turns of >= 25 ms: at least 4 s, two rounds and more, the lock never free until the end.
    const holders = holdersInTurn(file, 160);
    await tick();
    const release = await lockWhileOthersProgress(file, ROUND);
    await holders;
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
