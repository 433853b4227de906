import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeFileKind } from '../files/readRegularFile.js';

export type ResolvedPath =
  { ok: true; absolute: string; real: string } | { ok: false; code: 'PATH_ABSOLUTE' | 'PATH_ESCAPES' | 'PATH_NOT_FOUND' | 'PATH_LINK_ESCAPES' | 'PATH_NOT_FILE'; message: string; hint: string };

/** Whether `candidate` is `root` or lies under it (both already resolved the same way). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..` or `../…` leaves the root; a name that merely starts with dots (`..notes.md`) does not.
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Resolves a manifest path against the plugin folder. The lexical check
 * refuses `..` and absolute paths; the real-path check refuses symlinks
 * whose target lies outside, so a plugin can never make the host read or
 * run a file beyond its own folder. `stat`, when the caller already has it
 * (stat follows links, so it describes the real file), saves a syscall.
 */
export function resolveInsidePlugin(pluginRealDir: string, relativePath: string, pluginDir: string = pluginRealDir, stat?: fs.Stats): ResolvedPath {
  if (path.isAbsolute(relativePath) || /^[A-Za-z]:[\\/]/.test(relativePath) || relativePath.startsWith('\\\\')) {
    return { ok: false, code: 'PATH_ABSOLUTE', message: `"${relativePath}" is an absolute path`, hint: 'use a path relative to the plugin folder' };
  }
  const absolute = path.resolve(pluginRealDir, relativePath);
  if (!isInside(pluginRealDir, absolute)) {
    return { ok: false, code: 'PATH_ESCAPES', message: `"${relativePath}" points outside the plugin folder`, hint: 'keep every file inside the plugin folder and remove ".." from the path' };
  }
  let real: string;
  try {
    // The native realpath is one syscall; the JS one lstat()s every path component.
    real = fs.realpathSync.native(absolute);
  } catch {
    return { ok: false, code: 'PATH_NOT_FOUND', message: `"${relativePath}" does not exist (looked for ${absolute})`, hint: 'create the file or correct the path' };
  }
  if (!isInside(pluginRealDir, real)) {
    return {
      ok: false,
      code: 'PATH_LINK_ESCAPES',
      message: `"${relativePath}" is a link to ${real}, outside the plugin folder`,
      hint: 'copy the file into the plugin folder instead of linking to it',
    };
  }
  const found = stat ?? fs.statSync(real);
  if (!found.isFile()) {
    const kind = describeFileKind(found);
    return {
      ok: false,
      code: 'PATH_NOT_FILE',
      message: `"${relativePath}" is ${kind}, not a regular file`,
      hint: kind === 'a folder' ? 'point at a file inside that folder' : 'replace it with a regular file',
    };
  }
  // Report paths under the folder as scanned (which may sit behind a symlink), like the plugin's own dir.
  return { ok: true, absolute: path.resolve(pluginDir, relativePath), real };
}

/** Where `file` really is when a link leads it out of the plugin folder; undefined when it stays inside (or cannot be resolved). */
export function linkLeavingFolder(pluginDir: string, file: string): string | undefined {
  try {
    const real = fs.realpathSync.native(file);
    return isInside(fs.realpathSync.native(pluginDir), real) ? undefined : real;
  } catch {
    return undefined;
  }
}
