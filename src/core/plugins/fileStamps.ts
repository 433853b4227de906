import * as fs from 'node:fs';

/** What a file looked like when it was read: enough to tell, by one stat, that it changed. */
export interface FileStamp {
  path: string;
  stamp: string;
}

export function stampOf(file: string): string {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : 'missing';
}

/** True when every stamped file still looks the same: the cached result can be reused. */
export function stampsUnchanged(stamps: readonly FileStamp[]): boolean {
  for (const { path, stamp } of stamps) if (stampOf(path) !== stamp) return false;
  return true;
}

export class StampRecorder {
  private readonly stamps = new Map<string, string>();

  record(file: string): fs.Stats | undefined {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    this.stamps.set(file, stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : 'missing');
    return stat;
  }

  list(): FileStamp[] {
    return [...this.stamps].map(([path, stamp]) => ({ path, stamp }));
  }
}
