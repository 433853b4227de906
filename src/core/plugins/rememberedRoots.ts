import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Problem } from '../../shared/problems.js';
import { sameStamp, stampFile, type FileStamp } from '../files/fileStamps.js';
import { readRegularText } from '../files/readRegularFile.js';
import { writeFileAtomic } from '../store/dbFile.js';
import { withFileLock } from '../store/dbLock.js';
import { MANIFEST_FILE } from './validatePlugin.js';
import { RootsError } from './rootsError.js';

/**
 * `$CHATOS_HOME/chatos/plugin-roots.json`: the extra plugin roots the user
 * added (`chatos roots add`, the Apps page), so every process that shares the
 * data home (the app, `chatos serve`, every CLI command) scans the same ones.
 * A small JSON file rather than rows in the admin DB: it is read before the
 * DB is opened (by commands that never open it, like `chatos validate`), it
 * is watched like mcp.yaml, and a user can read and fix it by hand.
 */
export const PluginRootsFileSchema = z.object({
  version: z.literal(1),
  /** Absolute folders, each holding plugin folders. */
  roots: z.array(z.string().min(1)),
});
export type PluginRootsFile = z.infer<typeof PluginRootsFileSchema>;

/** The lock is held for a read and a small write; a lost lock only means the next update reads again. */
const quietLogger = { info() {}, warn() {}, error() {} };

/**
 * A JSON list of absolute folders in the data home, read again only when
 * its stamp changed and changed under its lock: the remembered roots, and
 * the development links (devLinks.ts) in a file of their own.
 */
export class FolderListFile {
  private cache: { stamp: FileStamp; roots: string[]; problems: Problem[] } | undefined;

  constructor(readonly file: string) {}

  /** The folders; no file means none, and a file that cannot be read means none too, with a problem saying why. */
  read(): { roots: string[]; problems: Problem[] } {
    const stamp = stampFile(this.file);
    if (this.cache && sameStamp(this.cache.stamp, stamp)) return this.cache;
    const read = readRootsFile(this.file);
    this.cache = { stamp, ...read };
    return read;
  }

  list(): string[] {
    return this.read().roots;
  }

  /** Read, change and write under the file's lock, so two processes adding at once both land. */
  async update(change: (roots: string[]) => { roots: string[]; changed: boolean }): Promise<boolean> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    try {
      return await withFileLock(this.file, quietLogger, () => {
        const current = readRootsFile(this.file);
        const broken = current.problems.find((p) => p.severity === 'error');
        if (broken) throw new RootsError('FILE_INVALID', broken.message, broken.hint);
        const next = change(current.roots);
        if (next.changed) writeFileAtomic(this.file, Buffer.from(`${JSON.stringify({ version: 1, roots: next.roots } satisfies PluginRootsFile, null, 2)}\n`));
        return next.changed;
      });
    } catch (error) {
      if (error instanceof RootsError) throw error;
      throw new RootsError('SAVE_FAILED', `could not save ${this.file}: ${(error as Error).message}; nothing was changed`, 'make the data home writable and free some disk space, then try again');
    }
  }
}

export class RememberedRoots extends FolderListFile {
  /** `alwaysScanned`: the built-in and user roots, which every process scans anyway. */
  constructor(
    file: string,
    private readonly alwaysScanned: () => readonly string[],
  ) {
    super(file);
  }

  /** Remembers a folder of plugin folders; false when it already was. */
  async add(dir: string): Promise<{ dir: string; added: boolean }> {
    const folder = path.resolve(dir);
    const stat = fs.statSync(folder, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) throw new RootsError('NOT_A_FOLDER', `${folder} is not a folder`, 'give the folder that holds your plugin folders');
    if (fs.existsSync(path.join(folder, MANIFEST_FILE))) {
      throw new RootsError(
        'IS_A_PLUGIN',
        `${folder} is a plugin folder (it holds ${MANIFEST_FILE}), not a folder of plugins`,
        `add the folder that holds it: chatos roots add ${path.dirname(folder)}`,
      );
    }
    if (this.alwaysScanned().includes(folder)) throw new RootsError('ALWAYS_SCANNED', `${folder} is always scanned (the built-in or the user plugin folder)`, 'nothing to add');
    const added = await this.update((roots) => (roots.includes(folder) ? { roots, changed: false } : { roots: [...roots, folder], changed: true }));
    return { dir: folder, added };
  }

  /** Forgets a remembered root (its plugin folders stay where they are). */
  async remove(dir: string): Promise<{ dir: string }> {
    const folder = path.resolve(dir);
    const removed = await this.update((roots) => ({ roots: roots.filter((root) => root !== folder), changed: roots.includes(folder) }));
    if (!removed) {
      const known = this.list();
      throw new RootsError('NOT_REMEMBERED', `${folder} is not a remembered plugin root`, known.length ? `remembered: ${known.join(', ')}` : 'no root is remembered; see them with: chatos roots list');
    }
    return { dir: folder };
  }
}

/** A list of folders is a few hundred bytes; far more is no list of ours. */
const MAX_LIST_BYTES = 1024 * 1024;

function readRootsFile(file: string): { roots: string[]; problems: Problem[] } {
  // Read by every process at start (and by the watcher): a FIFO put in its place must not hang them, a huge file is no list.
  const read = readRegularText(file, { maxBytes: MAX_LIST_BYTES });
  if (!read.ok) {
    if (read.code === 'FILE_NOT_FOUND') return { roots: [], problems: [] };
    return { roots: [], problems: [invalid(file, `cannot read ${file}: ${read.message}`, `${read.hint}, or delete it and add the folders again`)] };
  }
  const { text } = read;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      roots: [],
      problems: [
        invalid(file, `${file} is not valid JSON (${(error as Error).message}); no remembered plugin root is scanned`, 'fix it, or delete it and add the roots again with: chatos roots add DIR'),
      ],
    };
  }
  const parsed = PluginRootsFileSchema.safeParse(value);
  if (!parsed.success) {
    return {
      roots: [],
      problems: [
        invalid(
          file,
          `${file} is not a plugin roots file: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
          'it must be {"version": 1, "roots": ["/abs/folder", …]}; fix it, or delete it and add the roots again',
        ),
      ],
    };
  }
  // Only absolute folders count: a relative one would name a different folder in every process.
  const roots = [...new Set(parsed.data.roots.filter((root) => path.isAbsolute(root)).map((root) => path.resolve(root)))];
  const relative = parsed.data.roots.filter((root) => !path.isAbsolute(root));
  return {
    roots,
    problems: relative.map((root) => ({
      ...invalid(file, `plugin root "${root}" is not an absolute path, so it is ignored`, `write it as an absolute path, or add it again with: chatos roots add ${root}`),
      severity: 'warning' as const,
    })),
  };
}

function invalid(file: string, message: string, hint: string): Problem {
  return { severity: 'error', code: 'PLUGIN_ROOTS_INVALID', file, path: '', message, hint };
}
