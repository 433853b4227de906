import * as fs from 'node:fs';
import lockfile from 'proper-lockfile';
import type { Logger } from '../ports.js';
import { StoreError, messageOf, systemCodeOf } from './storeError.js';

/**
 * Inter-process lock around every write of a DB file: `<file>.lock` is a
 * folder created with mkdir (atomic on every filesystem we care about).
 *
 * - realpath: false, because the DB may not exist yet; the store resolves
 *   the path itself.
 * - stale 10 s (refreshed every 2 s while held): a lock left by a killed
 *   process is taken over after that, while a live holder, even one blocked
 *   on a slow disk for a few seconds, keeps it.
 * - retries: a holder keeps the lock for milliseconds (read, compare, write,
 *   fsync), so waiters poll fast with jitter. A round of them lasts ~30 s,
 *   longer than a stale lock; a waiter gives up only after a whole round in
 *   which the same holder kept the lock (see lockWhileOthersProgress).
 */
const LOCK_OPTIONS = {
  realpath: false,
  stale: 10_000,
  update: 2_000,
  retries: { retries: 250, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
} as const;

/**
 * How long a waiter keeps trying: `short` (the default) for locks held for
 * a read-compare-write; `long` (10 minutes) for work that waits on the
 * network while it holds the lock (a knowledge base embedding a file).
 */
export type LockPatience = 'short' | 'long';
const LONG_RETRIES = { retries: 6_000, factor: 1, minTimeout: 100, maxTimeout: 100, randomize: true } as const;

export async function withFileLock<T>(file: string, logger: Logger, fn: () => T | Promise<T>, patience: LockPatience = 'short'): Promise<T> {
  let release: () => Promise<void>;
  const options = {
    ...LOCK_OPTIONS,
    ...(patience === 'long' ? { retries: LONG_RETRIES } : {}),
    // The default throws from a timer, which would crash the process; a
    // compromised lock only means our next write re-checks the file anyway.
    onCompromised: (error: Error) => logger.warn(`lock on ${file} was lost while held: ${error.message}`),
  };
  try {
    // One try first: proper-lockfile retries every error alike, and a folder we may not write (EACCES, EROFS)
    // or a full disk would take half a minute to report. Only a lock held by another process is worth waiting for.
    release = await lockfile.lock(file, { ...options, retries: 0 }).catch((error: unknown) => {
      if (systemCodeOf(error) !== 'ELOCKED') throw error;
      return lockWhileOthersProgress(file, options);
    });
  } catch (error) {
    const busy = systemCodeOf(error) === 'ELOCKED';
    throw new StoreError(
      'DB_LOCK_FAILED',
      file,
      busy ? `Could not lock ${file}: another process kept ${file}.lock for too long. If no ChatOS process is running, delete that folder.` : `Could not lock ${file}: ${messageOf(error)}`,
      { cause: error },
    );
  }
  try {
    // Awaited here: an async fn keeps the lock until it settles.
    return await fn();
  } finally {
    await release().catch((error: unknown) => logger.warn(`could not release the lock on ${file}: ${messageOf(error)}`));
  }
}

/** Which lock folder is there now: a new holder makes a new folder (mkdir), so a new inode and birth time. */
function holderOf(file: string): string | undefined {
  try {
    const stat = fs.statSync(`${file}.lock`);
    return `${stat.ino}:${stat.birthtimeMs || stat.ctimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Waits for the lock in rounds of `options.retries`, for as long as other
 * processes keep taking their turns: many processes writing at once on a
 * busy machine (20 `chatos grant`s started together at load 15) can each
 * wait longer than one round, though the lock changes hands all along.
 * Only a round in which one holder kept the lock throughout is an error
 * (proper-lockfile has already taken over a holder that stopped refreshing it).
 */
export async function lockWhileOthersProgress(file: string, options: lockfile.LockOptions): Promise<() => Promise<void>> {
  let holder = holderOf(file);
  for (;;) {
    try {
      return await lockfile.lock(file, options);
    } catch (error) {
      const now = holderOf(file);
      if (systemCodeOf(error) !== 'ELOCKED' || now === holder) throw error;
      holder = now;
    }
  }
}
