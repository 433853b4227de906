import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stampFile } from '../files/fileStamps.js';

/** More files than this under the entry's folder and the stamp stops looking (a backend folder is small). */
const MAX_STAMPED_FILES = 2_000;

/**
 * One string that changes when any file under the backend entry's folder
 * changes (path, size, mtime), so an edited backend restarts on its next
 * call. The whole folder, not only the entry: the entry imports its
 * neighbours. `node_modules` and dot-folders are skipped: dependencies are
 * not edited while developing, and walking them on every call would be slow.
 * Costs a directory walk and stats, no reads.
 */
export function backendStamp(entry: string): string {
  const hash = createHash('sha1');
  let count = 0;
  const walk = (folder: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      hash.update(`${folder}\0unreadable\n`);
      return;
    }
    for (const item of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++count > MAX_STAMPED_FILES) return;
      const full = path.join(folder, item.name);
      if (item.isDirectory()) {
        if (item.name !== 'node_modules' && !item.name.startsWith('.')) walk(full);
        continue;
      }
      const { mtimeMs, ctimeMs, size, ino, errorCode } = stampFile(full);
      hash.update(`${full}\0${errorCode ?? `${mtimeMs}:${ctimeMs}:${size}:${ino}`}\n`);
    }
  };
  walk(path.dirname(entry));
  return hash.digest('hex');
}
