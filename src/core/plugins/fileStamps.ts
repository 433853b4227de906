import * as fs from 'node:fs';

/** What a file looked like when it was read: enough to tell, by one stat, that it changed. */
export interface FileStamp {
  path: string;
  stamp: string;
}

/**
 * The file's stats, or undefined when it cannot be looked at. Not only ENOENT: a folder on the way that became a
 * file gives ENOTDIR, and throwIfNoEntry covers ENOENT alone; a rescan must not fail on either.
 */
function statOf(file: string): { stat: fs.Stats | undefined; stamp: string } {
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return { stat, stamp: stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : 'missing' };
  } catch (error) {
    return { stat: undefined, stamp: `missing:${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
}

export function stampOf(file: string): string {
  return statOf(file).stamp;
}

/** True when every stamped file still looks the same: the cached result can be reused. */
export function stampsUnchanged(stamps: readonly FileStamp[]): boolean {
  for (const { path, stamp } of stamps) if (stampOf(path) !== stamp) return false;
  return true;
}

export class StampRecorder {
  private readonly stamps = new Map<string, string>();

  record(file: string): fs.Stats | undefined {
    const { stat, stamp } = statOf(file);
    this.stamps.set(file, stamp);
    return stat;
  }

  list(): FileStamp[] {
    return [...this.stamps].map(([path, stamp]) => ({ path, stamp }));
  }
}
