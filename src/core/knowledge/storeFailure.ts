import { KnowledgeError } from './knowledgeError.js';

/** SQLite's primary result codes this maps (sqlite3.h). */
const SQLITE_BUSY = 5;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/**
 * An error of a base's SQLite store as a KnowledgeError that names the base,
 * the file and what to do: the transaction it broke was rolled back, so the
 * base holds what it held before (nothing of the change, nothing lost).
 */
export function storeFailure(base: string, file: string, error: unknown): KnowledgeError {
  const e = error as { errcode?: number; code?: string; message?: string };
  const primary = typeof e.errcode === 'number' ? e.errcode & 0xff : undefined;
  const why = e.message ?? String(error);
  if (primary === SQLITE_FULL || e.code === 'ENOSPC')
    return new KnowledgeError(
      'KB_DISK_FULL',
      `knowledge base "${base}": the disk holding ${file} is full (${why}); nothing of this change was saved, and the base holds what it held before`,
      'free some space on that disk (or move the data home), then do it again',
    );
  if (primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB)
    return new KnowledgeError(
      'KB_BROKEN',
      `knowledge base "${base}": its store ${file} is damaged (${why})`,
      `restore ${file} from a backup, or delete the base (chatos kb delete ${base}) and add its documents again; other bases are not affected`,
    );
  if (primary === SQLITE_BUSY)
    return new KnowledgeError('KB_BROKEN', `knowledge base "${base}": its store ${file} is held by another process (${why})`, 'wait for the other change to finish, then try again');
  if (primary === SQLITE_READONLY || primary === SQLITE_CANTOPEN || primary === SQLITE_IOERR)
    return new KnowledgeError(
      'KB_BROKEN',
      `knowledge base "${base}": its store ${file} cannot be written or read (${why})`,
      'check that the disk is mounted and the folder is writable by you, then try again',
    );
  return new KnowledgeError('KB_BROKEN', `knowledge base "${base}": its store ${file} failed (${why})`, `if it persists, delete the base (chatos kb delete ${base}) and add its documents again`);
}
