import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyRecord } from '../../shared/ownKeys.js';
import type { Problem } from '../../shared/problems.js';
import type { TrustChanges } from '../../shared/trust.js';
import { sameStamp, stampFile, type FileStamp } from '../files/fileStamps.js';
import { describeFileKind, readRegularFile, type FileReadFailure } from '../files/readRegularFile.js';
import { isInside } from '../plugins/pluginPaths.js';

export const MAX_FINGERPRINT_FILES = 20_000;
/** Past the limit entries are only counted, to say how far over it a folder is; this far and no further. */
const MAX_COUNTED = 1_000_000;

/**
 * What trust can pin of a plugin folder: every file's content, or why it
 * cannot be pinned (a link leaving the folder, a FIFO, an unreadable file),
 * in which case the plugin can be neither trusted nor run.
 */
export type Fingerprint =
  | {
      ok: true;
      fingerprint: string;
      /** Relative path (with `/`) → sha256 of the content, or `link:<target relative to the folder>`. Null prototype: names are the plugin's. */
      files: Record<string, string>;
    }
  | { ok: false; problems: Problem[] };

export interface FingerprintOptions {
  /** false: only look for what blocks the folder (built-ins, which are trusted as shipped, are never hashed). */
  hash?: boolean;
}

/**
 * Hashes every file of a plugin folder. Trust pins all of it, not only the
 * entries the manifest names: an entry imports its neighbours, and any of
 * them may run, `.git/` included (a manifest path or an import may point
 * into it; `chatos install` leaves it out instead). A link is pinned by
 * where it resolves inside the folder (whose content the walk hashes
 * anyway); a link leaving the folder, or pointing nowhere, would let code
 * change without the folder changing, so it blocks the plugin. File hashes
 * are cached by stat stamp, so re-checking an unchanged plugin costs a
 * directory walk and stats, no reads.
 */
export class Fingerprinter {
  private readonly cache = new Map<string, { stamp: FileStamp; hash: string }>();

  fingerprint(dir: string, options: FingerprintOptions = {}): Fingerprint {
    const hash = options.hash ?? true;
    const entries = new Map<string, string>();
    const problems: Problem[] = [];
    const block = (code: string, file: string, message: string, hint: string) => problems.push({ severity: 'error', code, file, path: '', message, hint });
    let realDir: string;
    try {
      realDir = fs.realpathSync.native(dir);
    } catch (error) {
      block(
        'PLUGIN_UNREADABLE',
        dir,
        `the plugin folder cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); trust cannot pin it`,
        'check that the folder exists and can be read',
      );
      return { ok: false, problems };
    }
    let count = 0;
    const list = (folder: string, relative: string): fs.Dirent[] => {
      try {
        return fs.readdirSync(folder, { withFileTypes: true });
      } catch (error) {
        block(
          'PLUGIN_FILE_UNREADABLE',
          folder,
          `folder "${relative || '.'}" cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); trust cannot pin it`,
          'make it readable, or remove it',
        );
        return [];
      }
    };
    const blockSpecial = (full: string, relative: string, kind: string) =>
      block('PLUGIN_SPECIAL_FILE', full, `"${relative}" is ${kind}: whatever feeds it could change code without the folder changing`, `remove "${relative}" from the plugin folder`);
    // Past the limit nothing is hashed or checked: the plugin is blocked for its size; the walk only counts on.
    const countOn = (folder: string) => {
      for (const entry of list(folder, folder)) {
        if (++count >= MAX_COUNTED) return;
        if (entry.isDirectory()) countOn(path.join(folder, entry.name));
      }
    };
    const walk = (folder: string, prefix: string) => {
      for (const entry of list(folder, prefix).sort((a, b) => a.name.localeCompare(b.name))) {
        const full = path.join(folder, entry.name);
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (count >= MAX_FINGERPRINT_FILES) {
          if (count < MAX_COUNTED) {
            count++;
            if (entry.isDirectory()) countOn(full);
          }
          continue;
        }
        count++;
        if (entry.isSymbolicLink()) {
          const target = this.linkTarget(full, realDir);
          if (target.inside !== undefined) entries.set(relative, `link:${target.inside}`);
          else
            block(
              'PLUGIN_LINK_ESCAPES',
              full,
              `"${relative}" is a link to ${target.shown}, ${target.why}: trust cannot pin what it points at`,
              `copy the file into the plugin folder instead of linking to it (or remove the link "${relative}")`,
            );
        } else if (entry.isDirectory()) walk(full, relative);
        else if (entry.isFile()) {
          if (!hash) continue;
          const hashed = this.hashFile(full);
          if (hashed.ok) entries.set(relative, hashed.hash);
          else if (hashed.kind !== undefined) blockSpecial(full, relative, hashed.kind);
          // Gone since it was listed: nothing to pin.
          else if (hashed.code !== 'FILE_NOT_FOUND') block('PLUGIN_FILE_UNREADABLE', full, `${hashed.message}; trust cannot pin "${relative}"`, 'make it a readable regular file, or remove it');
        } else blockSpecial(full, relative, describeFileKind(entry));
      }
    };
    walk(dir, '');
    if (count > MAX_FINGERPRINT_FILES) {
      const how = count >= MAX_COUNTED ? `more than ${MAX_COUNTED}` : String(count);
      block(
        'PLUGIN_TOO_MANY_FILES',
        dir,
        `the plugin folder holds ${how} files and folders; trust pins at most ${MAX_FINGERPRINT_FILES}, so this plugin cannot be trusted until it is smaller`,
        'leave out what it does not run (development dependencies, build caches, test data), for example by bundling its server and backend into single files',
      );
    }
    if (problems.length) return { ok: false, problems };
    const whole = createHash('sha256');
    // No prototype: a file named __proto__ is an entry like any other, never the record's prototype.
    const files = emptyRecord<string>();
    for (const [name, value] of entries) {
      whole.update(`${name}\0${value}\n`);
      files[name] = value;
    }
    return { ok: true, fingerprint: whole.digest('hex'), files };
  }

  /** Where a link leads: inside the folder (its target, relative), or why not. */
  private linkTarget(link: string, realDir: string): { inside: string; shown?: undefined; why?: undefined } | { inside?: undefined; shown: string; why: string } {
    let real: string;
    try {
      real = fs.realpathSync.native(link);
    } catch {
      let raw = '?';
      try {
        raw = fs.readlinkSync(link);
      } catch {
        // Gone meanwhile: still nothing to pin.
      }
      return { shown: raw, why: 'which does not exist' };
    }
    if (!isInside(realDir, real)) return { shown: real, why: 'outside the plugin folder' };
    return { inside: path.relative(realDir, real).split(path.sep).join('/') };
  }

  /** A regular file's sha256, or why it has none (`kind` says what it is when not a regular file: swapped since the walk listed it). */
  private hashFile(file: string): { ok: true; hash: string } | FileReadFailure {
    // The stamp includes ctime: mtime can be put back after a same-size edit (tar, rsync -a, touch -r), ctime cannot.
    const stamp = stampFile(file);
    const cached = this.cache.get(file);
    if (cached && sameStamp(cached.stamp, stamp)) return { ok: true, hash: cached.hash };
    // Read as a regular file only, through the handle, not following a link: one swapped for a FIFO or a link since the walk saw it must not hang the host or be pinned as what it points at.
    const read = readRegularFile(file, { maxBytes: Number.MAX_SAFE_INTEGER, noFollow: true });
    if (!read.ok) return read;
    const hash = createHash('sha256').update(read.bytes).digest('hex');
    this.cache.set(file, { stamp, hash });
    return { ok: true, hash };
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
