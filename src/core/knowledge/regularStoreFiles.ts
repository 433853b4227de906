import * as fs from 'node:fs';
import * as path from 'node:path';
import { KnowledgeError } from './knowledgeError.js';

/** The files SQLite opens for a store: the store and, beside it, its write-ahead log, shared memory and rollback journal. */
const SQLITE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/**
 * Only regular files are opened as a base's store (docs/rules/security.md#plugins, as for plugin folders): SQLite
 * follows a link and would open a FIFO or a device as readily, so whoever can write the data home (a synced folder)
 * could make the host read or write elsewhere, or wait forever on a FIFO. Each file is looked at without following
 * links before opening; absent ones are fine (SQLite creates them).
 */
export function refuseOddStoreFiles(base: string, file: string): void {
  for (const suffix of SQLITE_SUFFIXES) {
    const at = `${file}${suffix}`;
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat && !stat.isFile()) throw notRegular(base, at, stat);
  }
}

/**
 * After opening: SQLite resolves links in the path it opens, so a store swapped for a link after the look above shows
 * here as another file than the one meant (the folder's own real path is allowed: a data home may live behind a link).
 */
export function refuseFollowedStore(base: string, file: string, opened: string | undefined): void {
  const meant = path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  if (opened !== meant) throw new KnowledgeError('KB_BROKEN', `knowledge base "${base}": its store ${file} is a link (to ${opened ?? 'nothing'}); only a regular file is opened`, fixOf(base, file));
}

function notRegular(base: string, at: string, stat: fs.Stats): KnowledgeError {
  const kind = stat.isSymbolicLink() ? 'a link' : stat.isFIFO() ? 'a FIFO' : stat.isDirectory() ? 'a folder' : 'not a regular file';
  return new KnowledgeError('KB_BROKEN', `knowledge base "${base}": ${at} is ${kind}; only regular files are opened as a store`, fixOf(base, at));
}

const fixOf = (base: string, at: string) => `remove ${at} (the base's own files are regular files), or delete the base (chatos kb delete ${base}) and add its documents again`;
