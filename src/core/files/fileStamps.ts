import * as fs from 'node:fs';

/**
 * What a file looked like when it was read: enough to tell, by one stat, that
 * it changed (a plugin's files, the admin DB, a list in the data home). Kept
 * as numbers: a rescan compares thousands of these, and formatting a float
 * mtime as text cost about as much as a quarter of the stat.
 */
export interface FileStamp {
  path: string;
  dev: number;
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
  const stamp: FileStamp = stat ? stampOf(file, stat) : { path: file, dev: -1, mtimeMs: 0, ctimeMs: 0, size: 0, ino: -1, errorCode };
  return { stat, stamp };
}

/** The stamp of a stat already made (an fstat of the descriptor the bytes were read through). */
export function stampOf(file: string, stat: fs.Stats): FileStamp {
  return { path: file, dev: stat.dev, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size, ino: stat.ino };
}

export function stampFile(file: string): FileStamp {
  return look(file).stamp;
}

/** True when the file looked the same both times (its path aside); no stamp equals only no stamp. */
export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  if (!a || !b) return a === b;
  return a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.errorCode === b.errorCode;
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
