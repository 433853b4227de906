import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyRecord } from '../../shared/ownKeys.js';
import type { TrustChanges } from '../../shared/trust.js';
import { sameStamp, stampFile, type FileStamp } from '../fileStamps.js';
import { readRegularFile } from '../files/readRegularFile.js';

export const MAX_FINGERPRINT_FILES = 20_000;

export interface Fingerprint {
  fingerprint: string;
  /** Relative path (with `/`) → sha256 of the content, or `link:<target>` for a symlink. */
  files: Record<string, string>;
}

/**
 * Hashes every file of a plugin folder. Trust pins all of it, not only the
 * entries the manifest names: an entry imports its neighbours, and any of
 * them may run. File hashes are cached by stat stamp, so re-checking an
 * unchanged plugin costs a directory walk and stats, no reads.
 */
export class Fingerprinter {
  private readonly cache = new Map<string, { stamp: FileStamp; hash: string }>();

  fingerprint(dir: string): Fingerprint {
    // No prototype: a file named __proto__ is an entry like any other, never the record's prototype.
    const files = emptyRecord<string>();
    let count = 0;
    const walk = (folder: string, prefix: string) => {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.name === '.git') continue;
        const full = path.join(folder, entry.name);
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (++count > MAX_FINGERPRINT_FILES) throw new Error(`${dir} holds more than ${MAX_FINGERPRINT_FILES} files; trust cannot pin it`);
        if (entry.isSymbolicLink()) files[relative] = `link:${fs.readlinkSync(full)}`;
        else if (entry.isDirectory()) walk(full, relative);
        else if (entry.isFile()) files[relative] = this.hashFile(full);
      }
    };
    walk(dir, '');
    const whole = createHash('sha256');
    for (const [name, hash] of Object.entries(files)) whole.update(`${name}\0${hash}\n`);
    return { fingerprint: whole.digest('hex'), files };
  }

  private hashFile(file: string): string {
    // The stamp includes ctime: mtime can be put back after a same-size edit (tar, rsync -a, touch -r), ctime cannot.
    const stamp = stampFile(file);
    const cached = this.cache.get(file);
    if (cached && sameStamp(cached.stamp, stamp)) return cached.hash;
    // Read as a regular file only: one swapped for a FIFO since the walk saw it must not hang the host.
    const read = readRegularFile(file, { maxBytes: Number.MAX_SAFE_INTEGER, noFollow: true });
    const hash = read.ok ? createHash('sha256').update(read.bytes).digest('hex') : `unreadable:${read.code}`;
    this.cache.set(file, { stamp, hash });
    return hash;
  }
}

export function diffFiles(before: Record<string, string>, after: Record<string, string>): TrustChanges {
  const changes: TrustChanges = { added: [], removed: [], modified: [] };
  for (const [name, hash] of Object.entries(after)) {
    if (!Object.hasOwn(before, name)) changes.added.push(name);
    else if (before[name] !== hash) changes.modified.push(name);
  }
  for (const name of Object.keys(before)) if (!Object.hasOwn(after, name)) changes.removed.push(name);
  return changes;
}
