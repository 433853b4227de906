import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../../shared/problems.js';
import { hasErrors } from '../../shared/problemText.js';
import { validatePluginFolder } from './validatePlugin.js';
import { extractPluginZip, ZipRefused } from './zipExtract.js';
import { InstallError } from './installError.js';

export interface Installed {
  pluginId: string;
  dir: string;
  problems: Problem[];
  /** Version-control folders (`.git`) not copied, relative to the plugin folder. */
  leftOut: string[];
  /** It replaced an installed copy of the same id (an update in place). */
  replaced?: boolean;
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

/** A plugin copied and validated beside the user root, not yet in place. */
export interface StagedPlugin {
  pluginId: string;
  /** The staged copy (gone once `withStagedPlugin` returns). */
  dir: string;
  /** Where it goes in the user root. */
  target: string;
  /** The plugin id of the copy installed at `target` now, if any (an update replaces it). */
  installedId?: string;
  problems: Problem[];
  leftOut: string[];
}

/** The id declared by the plugin at `dir`, if it declares one. */
function declaredId(dir: string): string | undefined {
  const manifest = validatePluginFolder(dir).manifest;
  return manifest?.id;
}

/**
 * Copies a plugin (a folder or a .zip) into a staging folder beside the user
 * root, validates it and hands it to `use` (which may place it); the staging
 * folder goes afterwards, so a failed install leaves nothing half-copied.
 */
export async function withStagedPlugin<T>(source: string, userRoot: string, use: (staged: StagedPlugin) => T | Promise<T>): Promise<T> {
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
      for (const name of names)
        leftOut.add(
          path
            .relative(pluginDir, path.join(unzipped, versionControlRoot(name)))
            .split(path.sep)
            .join('/'),
        );
    }
    const validated = validatePluginFolder(pluginDir);
    if (!validated.valid || !validated.manifest) {
      throw new InstallError('INVALID_PLUGIN', `${from} is not a valid plugin`, 'run "chatos validate" on it and fix the problems listed', validated.problems);
    }
    const pluginId = validated.manifest.id;
    const target = path.join(userRoot, folderNameFor(pluginId));
    const installedId = fs.existsSync(target) ? (declaredId(target) ?? '') : undefined;
    return await use({
      pluginId,
      dir: pluginDir,
      target,
      ...(installedId !== undefined ? { installedId } : {}),
      problems: validated.problems.filter((p) => !hasErrors([p])),
      leftOut: [...leftOut].sort(),
    });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Moves a staged plugin into the user root. Over an installed copy of the
 * same id only with `update` (the old folder is moved aside first and
 * removed after, so the folder is never half old, half new); a folder of
 * another plugin there is never replaced.
 */
export function placeStagedPlugin(staged: StagedPlugin, options: { update?: boolean } = {}): Installed {
  const { pluginId, target } = staged;
  if (staged.installedId !== undefined) {
    if (staged.installedId !== pluginId) {
      throw new InstallError('ALREADY_INSTALLED', `${target} holds another plugin (${staged.installedId || 'no valid plugin.json'})`, `uninstall it or remove that folder first`);
    }
    if (!options.update) {
      throw new InstallError(
        'ALREADY_INSTALLED',
        `${pluginId} is already installed at ${target}`,
        `install it again with --yes to update it in place (it keeps its grants and needs trusting again), or run "chatos uninstall ${pluginId}" first`,
      );
    }
    const aside = path.join(path.dirname(staged.dir), 'replaced');
    fs.renameSync(target, aside);
    try {
      fs.renameSync(staged.dir, target);
    } catch (error) {
      fs.renameSync(aside, target);
      throw error;
    }
    return { pluginId, dir: target, problems: staged.problems, leftOut: staged.leftOut, replaced: true };
  }
  fs.renameSync(staged.dir, target);
  return { pluginId, dir: target, problems: staged.problems, leftOut: staged.leftOut };
}

/** Copies a plugin (a folder or a .zip) into the user root, untrusted: nothing of it runs until the user trusts it. */
export async function installPlugin(source: string, userRoot: string, options: { update?: boolean } = {}): Promise<Installed> {
  return withStagedPlugin(source, userRoot, (staged) => placeStagedPlugin(staged, options));
}
