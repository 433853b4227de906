import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../../shared/problems.js';
import { hasErrors } from '../../shared/problems.js';
import { validatePluginFolder } from './validatePlugin.js';
import { extractPluginZip, ZipRefused } from './zipExtract.js';

export type InstallErrorCode = 'SOURCE_MISSING' | 'INVALID_PLUGIN' | 'ALREADY_INSTALLED' | 'ZIP_REFUSED' | 'HAS_LINKS';

export class InstallError extends Error {
  constructor(
    readonly code: InstallErrorCode,
    message: string,
    readonly hint?: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}

export interface Installed {
  pluginId: string;
  dir: string;
  problems: Problem[];
  /** Version-control folders (`.git`) not copied, relative to the plugin folder. */
  leftOut: string[];
}

/**
 * `.git` (a folder, or the file a worktree or submodule has) is version-control
 * history, not plugin code: install leaves it out, and trust never has to pin it.
 */
const isVersionControl = (relative: string) => relative.split(/[\\/]/).includes('.git');

/** `a/.git/objects/x` → `a/.git`: what the user is told was left out. */
const versionControlRoot = (relative: string) => {
  const parts = relative.split(/[\\/]/);
  return parts.slice(0, parts.indexOf('.git') + 1).join('/');
};

/** A folder name for a plugin id in the user root. */
export const folderNameFor = (pluginId: string) => pluginId.replace(/[^A-Za-z0-9._-]/g, '_');

function findLinks(dir: string, prefix = ''): string[] {
  const links: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue; // not copied
    if (entry.isSymbolicLink()) links.push(relative);
    else if (entry.isDirectory()) links.push(...findLinks(path.join(dir, entry.name), relative));
  }
  return links;
}

/** The folder holding plugin.json: the extracted root itself, or its only subfolder (zips usually wrap one). */
function pluginRootIn(extracted: string): string {
  if (fs.existsSync(path.join(extracted, 'plugin.json'))) return extracted;
  const entries = fs.readdirSync(extracted, { withFileTypes: true }).filter((e) => !e.name.startsWith('__MACOSX'));
  if (entries.length === 1 && entries[0]!.isDirectory()) return path.join(extracted, entries[0]!.name);
  return extracted;
}

/**
 * Copies a plugin (a folder or a .zip) into the user root. It lands
 * untrusted: nothing of it runs until the user trusts it. The copy is
 * staged beside the user root and renamed into place, so a failed install
 * leaves nothing half-copied.
 */
export async function installPlugin(source: string, userRoot: string): Promise<Installed> {
  const from = path.resolve(source);
  const stat = fs.statSync(from, { throwIfNoEntry: false });
  if (!stat) throw new InstallError('SOURCE_MISSING', `${from} does not exist`, 'pass a plugin folder or a .zip file');
  fs.mkdirSync(userRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(userRoot), '.install-'));
  const leftOut = new Set<string>();
  try {
    let pluginDir: string;
    if (stat.isDirectory()) {
      // Validate the source itself so problems name the author's files, not the staging copy.
      const checked = validatePluginFolder(from);
      if (!checked.valid) throw new InstallError('INVALID_PLUGIN', `${from} is not a valid plugin`, 'run "chatos validate" on it and fix the problems listed', checked.problems);
      const links = findLinks(from);
      if (links.length) throw new InstallError('HAS_LINKS', `${from} holds symbolic links (${links.slice(0, 3).join(', ')})`, 'replace the links with the files they point at');
      pluginDir = path.join(staging, 'plugin');
      fs.cpSync(from, pluginDir, {
        recursive: true,
        filter: (src) => {
          if (path.basename(src) !== '.git') return true;
          leftOut.add(path.relative(from, src).split(path.sep).join('/'));
          return false;
        },
      });
    } else {
      const unzipped = path.join(staging, 'zip');
      let names: string[];
      try {
        names = (await extractPluginZip(from, unzipped, isVersionControl)).leftOut;
      } catch (error) {
        if (error instanceof ZipRefused) throw new InstallError('ZIP_REFUSED', `${from} was refused: ${error.message}`, 'rebuild the zip from the plugin folder without links or ".." paths');
        throw new InstallError('ZIP_REFUSED', `${from} is not a readable zip: ${(error as Error).message}`, 'pass a plugin folder or a .zip file');
      }
      pluginDir = pluginRootIn(unzipped);
      for (const name of names) leftOut.add(path.relative(pluginDir, path.join(unzipped, versionControlRoot(name))).split(path.sep).join('/'));
    }
    const validated = validatePluginFolder(pluginDir);
    if (!validated.valid || !validated.manifest) {
      throw new InstallError('INVALID_PLUGIN', `${from} is not a valid plugin`, 'run "chatos validate" on it and fix the problems listed', validated.problems);
    }
    const target = path.join(userRoot, folderNameFor(validated.manifest.id));
    if (fs.existsSync(target)) {
      throw new InstallError('ALREADY_INSTALLED', `a plugin is already installed at ${target}`, `run "chatos uninstall ${validated.manifest.id}" first`);
    }
    fs.renameSync(pluginDir, target);
    return { pluginId: validated.manifest.id, dir: target, problems: validated.problems.filter((p) => !hasErrors([p])), leftOut: [...leftOut].sort() };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
