import type { Database, SqlJsStatic } from 'sql.js';
import type { Problem } from '../../shared/problems.js';
import type { Logger } from '../ports.js';
import { contentHash, readDbFile, statStamp, writeFileAtomic, type DbFileContent, type KnownContent } from './dbFile.js';
import { withFileLock } from './dbLock.js';
import { addBackup, findGoodBackup, quarantine } from './dbRecovery.js';
import { checkRecordsBytes, createEmptyDatabase } from './recordsSchema.js';
import { StoreError, messageOf } from './storeError.js';
import { backupFailed, corruptReadOnly, corruptReset, corruptRestored, tooNew } from './storeProblems.js';

export interface OpenContext {
  SQL: SqlJsStatic;
  file: string;
  now: () => number;
  logger: Logger;
  backups: number;
}

export interface OpenedDb {
  db: Database;
  /** What is on disk now, as far as this process knows; undefined when there is no file. */
  known: KnownContent | undefined;
  problems: Problem[];
  /** A backup of the current content exists (made now or already there). */
  backedUp: boolean;
  /** Read-only opens: the file is there but neither it nor a backup could be read, so the DB is empty. */
  unreadable?: boolean;
}

/**
 * Opens our own DB: a good file is backed up and used; an unreadable one is
 * moved aside under the lock and replaced by the newest good backup (else a
 * fresh DB), with a problem saying so. A DB from a newer ChatOS is refused,
 * never moved.
 */
export async function openWritable(ctx: OpenContext): Promise<OpenedDb> {
  const disk = readOrThrow(ctx.file);
  if (!disk) return { db: createEmptyDatabase(ctx.SQL), known: undefined, problems: [], backedUp: false };
  const check = checkRecordsBytes(ctx.SQL, disk.bytes);
  switch (check.kind) {
    case 'ok': {
      const problems: Problem[] = [];
      const backedUp = backupQuietly(ctx, disk.bytes, problems);
      return { db: check.db, known: disk, problems, backedUp };
    }
    case 'too-new':
      throw tooNewError(ctx.file, check.schemaVersion);
    case 'corrupt':
      // Under the lock, so two processes never both move files around, and
      // re-read there: another process may have repaired it meanwhile.
      return withFileLock(ctx.file, ctx.logger, () => recoverLocked(ctx));
  }
}

function recoverLocked(ctx: OpenContext): OpenedDb {
  const disk = readOrThrow(ctx.file);
  if (!disk) return { db: createEmptyDatabase(ctx.SQL), known: undefined, problems: [], backedUp: false };
  const check = checkRecordsBytes(ctx.SQL, disk.bytes);
  if (check.kind === 'ok') return { db: check.db, known: disk, problems: [], backedUp: false };
  if (check.kind === 'too-new') throw tooNewError(ctx.file, check.schemaVersion);

  const movedTo = quarantine(ctx.file, ctx.now());
  const backup = findGoodBackup(ctx.SQL, ctx.file, ctx.backups);
  const db = backup ? backup.db : createEmptyDatabase(ctx.SQL);
  const bytes = backup ? backup.content.bytes : db.export();
  try {
    writeFileAtomic(ctx.file, bytes);
  } catch (error) {
    throw new StoreError('DB_WRITE_FAILED', ctx.file, `${ctx.file} could not be read (${check.reason}) and was moved to ${movedTo}, but its replacement could not be written: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const problem = backup ? corruptRestored(ctx.file, check.reason, movedTo, backup.path) : corruptReset(ctx.file, check.reason, movedTo);
  ctx.logger.error(problem.message);
  const stamp = statStamp(ctx.file);
  return { db, known: stamp && { stamp, hash: contentHash(bytes) }, problems: [problem], backedUp: backup !== undefined };
}

/**
 * Opens another app's DB: reads only. An unreadable file is left exactly as
 * it is (it is not ours to repair); its newest good backup is read instead
 * if there is one, else nothing.
 */
export function openReadOnly(ctx: OpenContext): OpenedDb {
  const disk = readOrThrow(ctx.file);
  const known = disk ? { stamp: disk.stamp, hash: disk.hash } : undefined;
  const problems: Problem[] = [];
  if (!disk) return { db: createEmptyDatabase(ctx.SQL), known, problems, backedUp: false };
  const read = readOnlyDatabase(ctx, disk, problems);
  return { db: read ?? createEmptyDatabase(ctx.SQL), known, problems, backedUp: false, unreadable: !read };
}

function readOnlyDatabase(ctx: OpenContext, disk: DbFileContent, problems: Problem[]): Database | undefined {
  const check = checkRecordsBytes(ctx.SQL, disk.bytes);
  if (check.kind === 'ok') return check.db;
  if (check.kind === 'too-new') {
    problems.push(tooNew(ctx.file, check.schemaVersion));
    return undefined;
  }
  const backup = findGoodBackup(ctx.SQL, ctx.file, ctx.backups);
  problems.push(corruptReadOnly(ctx.file, check.reason, backup?.path));
  return backup?.db;
}

function backupQuietly(ctx: OpenContext, bytes: Uint8Array, problems: Problem[]): boolean {
  try {
    addBackup(ctx.file, bytes, ctx.backups);
    return ctx.backups > 0;
  } catch (error) {
    // A missing backup weakens recovery but must not stop the DB from working.
    const problem = backupFailed(ctx.file, messageOf(error));
    ctx.logger.warn(problem.message);
    problems.push(problem);
    return false;
  }
}

export function readOrThrow(file: string): DbFileContent | undefined {
  try {
    return readDbFile(file);
  } catch (error) {
    throw new StoreError('DB_READ_FAILED', file, `Could not read ${file}: ${messageOf(error)}`, { cause: error });
  }
}

export function tooNewError(file: string, schemaVersion: number): StoreError {
  return new StoreError('DB_TOO_NEW', file, tooNew(file, schemaVersion).message);
}
