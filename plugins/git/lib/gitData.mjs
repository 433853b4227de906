// Where a repository's data really lies, past its git dir's own path: git
// follows a link anywhere in the git dir (`objects`, `packed-refs`,
// `refs/heads/main` or `index` linked to another repository's), and takes
// objects from the stores `objects/info/alternates` names. Either way a git
// dir inside the roots would show another repository's history; so each
// such place must lie inside the roots too.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { GitProblem } from './invoke.mjs';

/** git follows alternates of alternates this deep (its own limit); a longer chain is refused rather than half checked. */
const ALTERNATES_DEPTH = 5;
const ALTERNATES_BYTES = 64 * 1024;
/** Entries of refs/ looked at for links; past this the repository is refused rather than half checked. */
const REF_ENTRIES = 20_000;

const missing = (error) => error.code === 'ENOENT' || error.code === 'ENOTDIR';

/** Each link among the entries of `dir` must resolve inside a root; `walk` also goes into subfolders (refs/). Returns the folders found. */
async function checkLinks(dir, refuseOutside, budget = { left: Infinity }) {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (missing(error)) return [];
    throw error;
  }
  budget.left -= entries.length;
  if (budget.left < 0) throw new GitProblem(`${dir} holds over ${REF_ENTRIES} loose refs, more than the git tools check for links out of the workspace folders; run git pack-refs --all there`);
  const folders = [];
  for (const entry of entries) {
    const place = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      let real;
      try {
        real = await fs.realpath(place);
      } catch {
        continue; // a link to nothing: git reads nothing through it (a link to refs/… is a symbolic ref, read by name)
      }
      refuseOutside(real, 'reads', `${place} is a link to it`);
      if ((await fs.stat(real)).isDirectory()) folders.push(place);
    } else if (entry.isDirectory()) folders.push(place);
  }
  return folders;
}

/** Every entry under refs/, however deep, links included (a linked folder inside the roots may hold links out). */
async function checkRefs(refsDir, refuseOutside) {
  const budget = { left: REF_ENTRIES };
  const pending = [refsDir];
  while (pending.length > 0) pending.push(...(await checkLinks(pending.pop(), refuseOutside, budget)));
}

/** The text of a small regular file, or null if there is none; a FIFO or device is refused without waiting on it. */
async function readSmallFile(file, maxBytes) {
  let handle;
  try {
    handle = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new GitProblem(`${file} is not a regular file; the git tools do not read it`);
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) throw new GitProblem(`${file} is over ${maxBytes / 1024} KB; the git tools do not follow it`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The object stores `objects/info/alternates` adds, each refused unless inside a root, and theirs in turn. */
async function checkAlternates(objectsDir, refuseOutside, depth = 0) {
  const listed = path.join(objectsDir, 'info', 'alternates');
  const text = await readSmallFile(listed, ALTERNATES_BYTES);
  if (text === null) return;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // git C-quotes a path holding a quote, a backslash or a control character: no real store needs one.
    if (line.startsWith('"')) throw new GitProblem(`${listed} names a quoted path (${line.slice(0, 200)}); the git tools do not follow it`);
    if (depth >= ALTERNATES_DEPTH) throw new GitProblem(`the alternate object stores of ${objectsDir} chain deeper than ${ALTERNATES_DEPTH}; the git tools do not follow them`);
    let real;
    try {
      // Relative to the objects folder, as git reads it (its real path).
      real = await fs.realpath(path.resolve(await fs.realpath(objectsDir), line));
    } catch {
      continue; // git skips a store that is not there, and so reads nothing from it
    }
    refuseOutside(real, 'takes objects from', `${listed} names it`);
    await checkAlternates(real, refuseOutside, depth + 1);
  }
}

/**
 * Refuses (through `refuseOutside(place, what, how)`) a repository whose
 * git dir or common dir links out of the roots, at the top or in objects/
 * (its pack and info folders) or anywhere in refs/, or borrows objects from
 * a store outside them. A link for one loose object is not looked for: it is
 * named by its hash, so it only reads what its maker already knew.
 */
export async function checkGitData(gitDir, commonDir, refuseOutside) {
  for (const dir of new Set([gitDir, commonDir])) {
    await checkLinks(dir, refuseOutside);
    await checkRefs(path.join(dir, 'refs'), refuseOutside);
  }
  const objects = path.join(commonDir, 'objects');
  for (const dir of [objects, path.join(objects, 'pack'), path.join(objects, 'info')]) await checkLinks(dir, refuseOutside);
  await checkAlternates(objects, refuseOutside);
}
