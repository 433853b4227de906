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
 *   fsync), so waiters poll fast with jitter; about 20 processes flushing at
 *   once all get through, and the total wait (~30 s) outlasts a stale lock.
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
      return lockfile.lock(file, options);
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
