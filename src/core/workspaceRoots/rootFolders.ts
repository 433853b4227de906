import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceRootsSchema } from '../../shared/workspaceRoots.js';

/** One problem with one folder of a list: its index and what is wrong. */
export interface RootFolderProblem {
  index: number;
  message: string;
}

/**
 * Checks workspace roots on disk (docs/using/agents.md#workspace-roots),
 * after the schema has checked their form: each, normalized (`..` and a
 * trailing slash gone), must exist and be a folder. A link to a folder is
 * accepted and kept as written (the user chose that name); a link to
 * nothing, a file, a FIFO or a device is refused. Nothing is opened: a
 * stat of a FIFO does not block. Two paths that normalize to the same
 * folder are one listed twice.
 */
export function checkRootFolders(paths: readonly string[]): { roots: string[]; problems: RootFolderProblem[] } {
  const roots: string[] = [];
  const problems: RootFolderProblem[] = [];
  const seen = new Set<string>();
  paths.forEach((written, index) => {
    const normalized = path.resolve(written);
    if (seen.has(normalized)) {
      problems.push({ index, message: `${written} is listed twice; list each folder once` });
      return;
    }
    seen.add(normalized);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(normalized);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push({
        index,
        message: code === 'ENOENT' ? `${written} does not exist; create the folder or remove it from the list` : `${written} cannot be read (${code ?? (error as Error).message})`,
      });
      return;
    }
    if (!stat.isDirectory()) {
      problems.push({ index, message: stat.isFile() ? `${written} is a file, not a folder; name the folder that holds it` : `${written} is not a folder (a pipe, socket or device); name a folder` });
      return;
    }
    roots.push(normalized);
  });
  return { roots, problems };
}

/**
 * Roots as a face sends them (a list of paths, or null for "none of its
 * own"): checked in form, then on disk. The problems name `roots.<index>`
 * (or `roots` for the list) and say what to change.
 */
export function parseRoots(input: unknown): { ok: true; roots: string[] } | { ok: false; fields: { path: string; message: string }[] } {
  const parsed = WorkspaceRootsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fields: parsed.error.issues.map((issue) => ({ path: ['roots', ...issue.path.map(String)].join('.'), message: issue.message })) };
  const { roots, problems } = checkRootFolders(parsed.data);
  if (problems.length > 0) return { ok: false, fields: problems.map((p) => ({ path: `roots.${p.index}`, message: p.message })) };
  return { ok: true, roots };
}
