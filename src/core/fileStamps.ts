import * as fs from 'node:fs';

/**
 * What a file looked like when it was read: enough to tell, by one stat, that
 * it changed. Kept as numbers: a rescan compares thousands of these, and
 * formatting a float mtime as text cost about as much as a quarter of the stat.
 */
export interface FileStamp {
  path: string;
  mtimeMs: number;
  /** Changes on chmod and chown too, and cannot be set back the way mtime can (touch -r, tar, rsync -a). */
  ctimeMs: number;
  size: number;
  /** -1 when the file could not be looked at (see `errorCode`). */
  ino: number;
  /** Why it could not be looked at: ENOENT, ENOTDIR, EACCES… */
  errorCode?: string;
}

/**
 * Stats the file, never throwing. Not only ENOENT: a folder on the way that
 * became a file gives ENOTDIR (which throwIfNoEntry does not cover), and a
 * rescan must not fail on it.
 */
function look(file: string): { stat: fs.Stats | undefined; stamp: FileStamp } {
  let stat: fs.Stats | undefined;
  let errorCode: string | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) errorCode = 'ENOENT';
  } catch (error) {
    errorCode = (error as NodeJS.ErrnoException).code ?? 'error';
  }
  const stamp: FileStamp = stat ? { path: file, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size, ino: stat.ino } : { path: file, mtimeMs: 0, ctimeMs: 0, size: 0, ino: -1, errorCode };
  return { stat, stamp };
}

export function stampFile(file: string): FileStamp {
  return look(file).stamp;
}

/** True when the file looked the same both times (its path aside). */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.errorCode === b.errorCode;
}

/** True when every stamped file still looks the same: the cached result can be reused. */
export function stampsUnchanged(stamps: readonly FileStamp[]): boolean {
  for (const before of stamps) if (!sameStamp(stampFile(before.path), before)) return false;
  return true;
}

export class StampRecorder {
  private readonly stamps = new Map<string, FileStamp>();

  record(file: string): fs.Stats | undefined {
    const { stat, stamp } = look(file);
    this.stamps.set(file, stamp);
    return stat;
  }

  list(): FileStamp[] {
    return [...this.stamps.values()];
  }
}
