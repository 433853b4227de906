import * as fs from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { isMissing, readDbFile, writeFileAtomic, type DbFileContent } from './dbFile.js';
import { checkRecordsBytes } from './recordsSchema.js';

/** `admin.db.bak-1` is the newest backup, `admin.db.bak-<count>` the oldest kept. */
export function backupPath(file: string, n: number): string {
  return `${file}.bak-${n}`;
}

/**
 * Adds `bytes` (a checked, good DB image) as the newest backup and shifts the
 * older ones down, dropping the oldest. Backups are copies: the live file is
 * never renamed away, so there is no moment without a DB at the path. When
 * the newest backup already holds these bytes nothing changes, so reopening
 * an unchanged DB does not push real history out of the rotation.
 * Returns false when it skipped the identical copy.
 */
export function addBackup(file: string, bytes: Uint8Array, count: number): boolean {
  if (count <= 0) return false;
  const newest = backupPath(file, 1);
  if (sameBytes(newest, bytes)) return false;
  fs.rmSync(backupPath(file, count), { force: true });
  for (let n = count - 1; n >= 1; n--) {
    try {
      fs.renameSync(backupPath(file, n), backupPath(file, n + 1));
    } catch (error) {
      // A gap in the rotation (or another process rotating at the same time) is harmless.
      if (!isMissing(error)) throw error;
    }
  }
  writeFileAtomic(newest, bytes);
  return true;
}

function sameBytes(file: string, bytes: Uint8Array): boolean {
  try {
    if (fs.statSync(file).size !== bytes.length) return false;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).equals(fs.readFileSync(file));
  } catch {
    return false;
  }
}

export interface GoodBackup {
  path: string;
  content: DbFileContent;
  db: Database;
}

/** The newest backup that passes the same checks as the live file; never writes. */
export function findGoodBackup(SQL: SqlJsStatic, file: string, count: number): GoodBackup | undefined {
  for (let n = 1; n <= count; n++) {
    const candidate = backupPath(file, n);
    let content: DbFileContent | undefined;
    try {
      content = readDbFile(candidate);
    } catch {
      continue;
    }
    if (!content) continue;
    const check = checkRecordsBytes(SQL, content.bytes);
    if (check.kind === 'ok') return { path: candidate, content, db: check.db };
  }
  return undefined;
}

/**
 * Moves an unreadable DB aside to `<file>.corrupt-<timestamp>` (kept for the
 * user or a support request, never deleted) and returns where it went.
 */
export function quarantine(file: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/:/g, '-');
  let target = `${file}.corrupt-${stamp}`;
  for (let n = 2; fs.existsSync(target); n++) target = `${file}.corrupt-${stamp}-${n}`;
  fs.renameSync(file, target);
  return target;
}
