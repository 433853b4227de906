import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stampOf, type FileStamp } from '../files/fileStamps.js';

/** What we last loaded from or wrote to the path. */
export interface KnownContent {
  stamp: FileStamp;
  /**
   * Content hash. A stamp alone can lie: inode numbers are reused and file
   * times tick coarsely (a few ms), so two writes by others within one tick
   * can recreate our stamp. Under the lock we compare content, which cannot.
   */
  hash: string;
}

export interface DbFileContent extends KnownContent {
  bytes: Uint8Array;
}

/**
 * The stamp of the DB file now. Every write replaces the file by rename, so a
 * write by anyone changes the inode and the change time; comparing stamps is
 * the one-stat test for "somebody else wrote it". Undefined when there is no
 * file; any other failure to stat it throws.
 */
export function statStamp(file: string): FileStamp | undefined {
  try {
    return stampOf(file, fs.statSync(file));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads the file and stamps it through one descriptor, so the stamp is that
 * of the bytes read even if someone renames a new file over the path
 * meanwhile. `undefined` when there is no file.
 */
export function readDbFile(file: string): DbFileContent | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const stamp = stampOf(file, fs.fstatSync(fd));
    const bytes = readAll(fd, Number(stamp.size));
    return { bytes, stamp, hash: contentHash(bytes) };
  } finally {
    fs.closeSync(fd);
  }
}

function readAll(fd: number, expected: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(expected - total, 64 * 1024));
    const read = fs.readSync(fd, chunk, 0, chunk.length, total);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    total += read;
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

const TEMP_MARK = '.tmp-';

/**
 * Replaces `file` with `bytes` so that a reader (or a crash) sees the old
 * file or the new one, never a mix: write a temp file in the same folder,
 * fsync it, rename it over, fsync the folder so the rename itself is on disk.
 * On failure the temp file is removed and the old file is untouched.
 *
 * Returns false when only the final folder fsync failed: the new file is in
 * place and every process sees it, it is just not yet proven to survive a
 * power cut. Throwing then would claim the old file is still there.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array): boolean {
  const temp = `${file}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', 0o600);
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return fsyncFolder(path.dirname(file));
}

function fsyncFolder(dir: string): boolean {
  // Windows cannot open or fsync a folder; there the rename is as durable as it gets.
  if (process.platform === 'win32') return true;
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/**
 * Removes temp files a killed writer left next to `file`. Only call this
 * while holding the DB lock: temp files of the live DB are only ever written
 * under it, so any that exist then are orphans. Backup temps may be written
 * without the lock (at open), so only old ones are removed.
 */
export function removeOrphanTemps(file: string, backupTempMinAgeMs = 60_000): void {
  // File times are wall-clock times, so this compares with the wall clock, not an injected Clock.
  const now = Date.now();
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const mark = name.indexOf(TEMP_MARK, base.length);
    if (!name.startsWith(base) || mark < 0) continue;
    const middle = name.slice(base.length, mark);
    const full = path.join(dir, name);
    try {
      if (middle === '') fs.rmSync(full, { force: true });
      else if (/^\.bak-\d+$/.test(middle) && now - fs.statSync(full).mtimeMs > backupTempMinAgeMs) fs.rmSync(full, { force: true });
    } catch {
      // Another process may have removed it first; either way it is gone or not ours to worry about.
    }
  }
}

export function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already failing; the original error is the one worth reporting.
  }
}
