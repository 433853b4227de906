import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppContribution, PluginRecord, PluginSource } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import { contributeApp, type ContributionContext } from './appContribution.js';
import type { ExposeDefaultsEntry } from './exposeDefaults.js';
import { HOST_APP_ID } from '../dataHome.js';
import { deriveServerName, normalizeName } from '../naming/names.js';
import { stampFile, stampsUnchanged } from '../files/fileStamps.js';
import type { PluginManifest } from '../plugins/manifestSchema.js';
import { missingCommandProblems } from '../plugins/commandLookup.js';
import { MANIFEST_FILE, validatePluginFolder, type ValidatedPlugin } from '../plugins/validatePlugin.js';

export interface PluginRoot {
  dir: string;
  source: PluginSource;
  /** An extra root the user added for every process (`chatos roots add`), not only for this run (`--plugins`). */
  remembered?: boolean;
  /** The root is one plugin folder itself (a development link), not a folder of plugin folders. */
  single?: boolean;
}

export interface ScanResult {
  plugins: PluginRecord[];
  /** One per app of every loaded plugin, in root order. */
  apps: AppContribution[];
  /** Every problem of every plugin and root, flattened. */
  problems: Problem[];
  /**
   * The roots this scan listed (those it could not read are left out): the
   * plugins it did not find in them are gone, as far as it can tell; of
   * other roots it knows nothing.
   */
  roots: string[];
  /** reread: folders validated again (new or changed); removed: folders gone since the last scan. */
  stats: { folders: number; reread: string[]; removed: string[]; durationMs: number };
}

/** One plugin's contributions and what they were derived from, so an unchanged plugin is not contributed again. */
interface Contributed {
  source: PluginSource;
  /** Each app's default exposure entry; ExposeDefaults hands back the same object while its file is unchanged. */
  defaults: (ExposeDefaultsEntry | undefined)[];
  made: ReturnType<typeof contributeApp>[];
}

interface Candidate {
  validated: ValidatedPlugin;
  source: PluginSource;
  /** Problems found by looking at several plugins together (duplicates, collisions). */
  extra: Problem[];
  status: PluginRecord['status'];
}

/** The plugin folders of a root; undefined when the root cannot be read (then what it holds is unknown, not empty). */
function listPluginFolders(root: PluginRoot, problems: Problem[]): string[] | undefined {
  if (root.single) {
    if (fs.statSync(root.dir, { throwIfNoEntry: false })?.isDirectory()) return [root.dir];
    problems.push({
      severity: 'warning',
      code: 'PLUGIN_ROOT_UNREADABLE',
      file: root.dir,
      path: '',
      message: `the linked plugin folder ${root.dir} is gone`,
      hint: `put it back, or unlink it: chatos dev --unlink ${root.dir}`,
    });
    return undefined;
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root.dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The user root simply does not exist until the first plugin is installed.
    if (code === 'ENOENT' && root.source === 'user') return [];
    problems.push({
      severity: 'warning',
      code: 'PLUGIN_ROOT_UNREADABLE',
      file: root.dir,
      path: '',
      message: `plugin folder ${root.dir} cannot be read (${code ?? (error as Error).message})`,
      hint: code === 'ENOENT' ? 'create the folder, or remove it from --plugins (or with: chatos roots remove)' : 'check its permissions',
    });
    return undefined;
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || (e.isSymbolicLink() && fs.statSync(path.join(root.dir, e.name), { throwIfNoEntry: false })?.isDirectory())))
    .map((e) => path.join(root.dir, e.name))
    .sort();
}

const where = (c: Candidate) => `${c.validated.manifestFile} (${c.source})`;

const failure = (file: string, error: unknown): Problem => ({
  severity: 'error',
  code: 'PLUGIN_LOAD_FAILED',
  file,
  path: '',
  message: `this plugin could not be loaded: ${(error as Error)?.message ?? String(error)}`,
  hint: 'check that plugin.json is a readable file and that its values are not nested absurdly deep',
});

/** validatePluginFolder, except that a folder it cannot read (plugin.json a folder, no permission) yields a problem instead of ending the whole scan. */
function validateSafely(dir: string): ValidatedPlugin {
  try {
    return validatePluginFolder(dir);
  } catch (error) {
    const manifestFile = path.join(dir, MANIFEST_FILE);
    return { dir, manifestFile, declared: {}, apps: [], problems: [failure(manifestFile, error)], valid: false, stamps: [stampFile(manifestFile)] };
  }
}

/**
 * Scans the plugin roots. Results are cached per folder with the stamps of
 * every file validation read, so a rescan re-reads only what changed. Cross-
 * plugin rules (duplicates, overrides, server-name collisions) are cheap and
 * run on every scan.
 */
export class PluginScanner {
  private readonly cache = new Map<string, ValidatedPlugin>();
  /** Keyed by the cached validation itself, so an entry goes away when the folder is re-read or dropped. */
  private readonly contributed = new WeakMap<ValidatedPlugin, Contributed>();

  /** `roots` may be a function: the host's roots change while it runs (`chatos roots add`), and each scan takes them as they are then. */
  constructor(
    private readonly roots: readonly PluginRoot[] | (() => readonly PluginRoot[]),
    private readonly ctx: ContributionContext,
  ) {}

  scan(): ScanResult {
    const started = performance.now();
    this.ctx.exposeDefaults.refresh();
    const rootProblems: Problem[] = [];
    const reread: string[] = [];
    const seen = new Set<string>();
    const candidates: Candidate[] = [];
    const listed: string[] = [];

    for (const root of typeof this.roots === 'function' ? this.roots() : this.roots) {
      const folders = listPluginFolders(root, rootProblems);
      if (folders) listed.push(root.dir);
      for (const dir of folders ?? []) {
        seen.add(dir);
        let validated = this.cache.get(dir);
        if (!validated || !stampsUnchanged(validated.stamps)) {
          validated = validateSafely(dir);
          this.cache.set(dir, validated);
          reread.push(dir);
        }
        candidates.push({ validated, source: root.source, extra: [], status: validated.valid ? 'loaded' : 'invalid' });
      }
    }
    const removed: string[] = [];
    for (const dir of this.cache.keys()) {
      if (seen.has(dir)) continue;
      this.cache.delete(dir);
      removed.push(dir);
    }

    return { ...this.assemble(candidates, rootProblems, reread, removed, started), roots: listed };
  }

  /**
   * Validates one folder exactly as a scan would (the `chatos validate` path),
   * without touching the cache; also looks for each server's command on the
   * PATH it would get from `hostEnv` (a scan does not: see commandLookup.ts).
   */
  validateFolder(dir: string, source: PluginSource = 'extra', hostEnv: NodeJS.ProcessEnv = process.env): ScanResult {
    const started = performance.now();
    this.ctx.exposeDefaults.refresh();
    const validated = validateSafely(dir);
    const extra = validated.valid ? missingCommandProblems(validated, hostEnv) : [];
    return { ...this.assemble([{ validated, source, extra, status: validated.valid ? 'loaded' : 'invalid' }], [], [dir], [], started), roots: [] };
  }

  private assemble(candidates: Candidate[], rootProblems: Problem[], reread: string[], removed: string[], started: number): Omit<ScanResult, 'roots'> {
    resolveDuplicateIds(candidates);
    resolveServerNameCollisions(candidates);
    refuseReservedProvider(candidates);

    const plugins: PluginRecord[] = [];
    const apps: AppContribution[] = [];
    for (const candidate of candidates) {
      const { validated } = candidate;
      const problems = [...validated.problems, ...candidate.extra];
      if (candidate.status === 'loaded' && validated.manifest) {
        try {
          const made = this.contribute(validated, validated.manifest, candidate.source);
          for (const { contribution, problems: appProblems } of made) {
            apps.push(contribution);
            problems.push(...appProblems);
          }
        } catch (error) {
          // One plugin that breaks a derivation (e.g. callMeta nested too deep) loses all its apps; the others still load.
          candidate.status = 'invalid';
          problems.push(failure(validated.manifestFile, error));
        }
      }
      plugins.push({
        id: validated.manifest?.id ?? validated.declared.id,
        name: validated.manifest?.name ?? validated.declared.name,
        version: validated.manifest?.version ?? validated.declared.version,
        dir: validated.dir,
        source: candidate.source,
        status: candidate.status,
        appIds: validated.manifest?.apps.map((a) => a.id) ?? [],
        backendEntry: validated.backendEntryPath,
        problems,
      });
    }
    return {
      plugins,
      apps,
      problems: [...rootProblems, ...plugins.flatMap((p) => p.problems)],
      stats: { folders: candidates.length, reread, removed, durationMs: performance.now() - started },
    };
  }

  /**
   * contributeApp is pure apart from the defaults lookup, so an unchanged
   * plugin (same cached validation, same source, same defaults entries) keeps
   * its contributions: a rescan of 1,000 plugins then costs little beyond the
   * stat of every stamped file. Unchanged apps keep the same AppContribution
   * objects across scans, so callers must treat them as read-only.
   */
  private contribute(validated: ValidatedPlugin, manifest: PluginManifest, source: PluginSource): Contributed['made'] {
    const defaults = validated.apps.map((app) => this.ctx.exposeDefaults.lookup(manifest.id, app.manifest.id));
    const cached = this.contributed.get(validated);
    if (cached && cached.source === source && cached.defaults.every((entry, i) => entry === defaults[i])) return cached.made;
    const made = validated.apps.map((app) => contributeApp(manifest, validated.dir, source, app, this.ctx));
    this.contributed.set(validated, { source, defaults, made });
    return made;
  }
}

/**
 * A user (or extra-root) plugin with a built-in's id overrides it; the same
 * id twice among user and extra roots keeps the first (roots in order,
 * folders sorted) and marks the rest as errors naming both places.
 */
function resolveDuplicateIds(candidates: Candidate[]): void {
  const builtin = new Map<string, Candidate>();
  const user = new Map<string, Candidate>();
  for (const c of candidates) {
    const id = c.validated.manifest?.id;
    if (c.status !== 'loaded' || !id) continue;
    const map = c.source === 'builtin' ? builtin : user;
    const first = map.get(id);
    if (!first) {
      map.set(id, c);
      continue;
    }
    c.status = 'shadowed';
    c.extra.push({
      severity: 'error',
      code: 'PLUGIN_ID_DUPLICATE',
      file: c.validated.manifestFile,
      path: 'id',
      message: `plugin id "${id}" is also used by ${where(first)}; this copy is not loaded`,
      hint: 'remove one of the two folders, or give this plugin its own id',
    });
    first.extra.push({
      severity: 'warning',
      code: 'PLUGIN_ID_DUPLICATE',
      file: first.validated.manifestFile,
      path: 'id',
      message: `plugin id "${id}" is also used by ${where(c)}; this copy is the one loaded`,
      hint: 'remove one of the two folders',
    });
  }
  for (const [id, override] of user) {
    const original = builtin.get(id);
    if (!original) continue;
    original.status = 'overridden';
    original.extra.push({
      severity: 'notice',
      code: 'PLUGIN_OVERRIDDEN',
      file: original.validated.manifestFile,
      path: 'id',
      message: `built-in plugin "${id}" is overridden by ${where(override)}`,
      hint: `uninstall the user copy to use the built-in one again`,
    });
    override.extra.push({
      severity: 'notice',
      code: 'PLUGIN_OVERRIDES_BUILTIN',
      file: override.validated.manifestFile,
      path: 'id',
      message: `overrides the built-in plugin "${id}" at ${original.validated.manifestFile}`,
    });
  }
}

/** Each cached validation's apps' server names and their normalized keys: a rescan of 1,000 unchanged plugins need not derive them again. */
const serverNamesOf = new WeakMap<ValidatedPlugin, { serverName: string; key: string }[]>();

function serverNames(validated: ValidatedPlugin, manifest: PluginManifest): { serverName: string; key: string }[] {
  let names = serverNamesOf.get(validated);
  if (!names) {
    names = manifest.apps.map((app) => {
      const serverName = deriveServerName(manifest.id, app.id);
      return { serverName, key: normalizeName(serverName) };
    });
    serverNamesOf.set(validated, names);
  }
  return names;
}

/** Two apps whose server names normalize alike would share prompt and tool names: the later plugin is refused. */
function resolveServerNameCollisions(candidates: Candidate[]): void {
  const owners = new Map<string, { candidate: Candidate; serverName: string; index: number }>();
  for (const c of candidates) {
    const manifest = c.validated.manifest;
    if (c.status !== 'loaded' || !manifest) continue;
    const claimed: [string, { candidate: Candidate; serverName: string; index: number }][] = [];
    serverNames(c.validated, manifest).forEach(({ serverName, key }, index) => {
      const owner = owners.get(key) ?? claimed.find(([k]) => k === key)?.[1];
      if (owner) {
        c.status = 'invalid';
        c.extra.push({
          severity: 'error',
          code: 'SERVER_NAME_COLLISION',
          file: c.validated.manifestFile,
          path: `apps[${index}].id`,
          message: `server name "${serverName}" normalizes to "${key}", the same as "${owner.serverName}" of ${owner.candidate.validated.manifestFile} apps[${owner.index}]`,
          hint: 'rename the plugin id or the app id so the derived names differ',
        });
      } else {
        claimed.push([key, { candidate: c, serverName, index }]);
      }
    });
    if (c.status === 'loaded') for (const [key, owner] of claimed) owners.set(key, owner);
  }
}

/**
 * Any number of plugins may join one provider app (docs/rules/registry.md#provider-app-ids: the built-in
 * Git plugin, the app's own plugin and a user's may all say `git_app`): each
 * registers its own servers and prompts under it, named after its own
 * plugin id, and keeps its own trust; joining grants nothing
 * (docs/rules/registry.md#provider-app-ids). Only the host's own id is
 * reserved: the registry owner is no provider a plugin can join.
 */
function refuseReservedProvider(candidates: Candidate[]): void {
  for (const c of candidates) {
    const manifest = c.validated.manifest;
    if (c.status !== 'loaded' || !manifest) continue;
    const declared = manifest.providerAppId !== undefined;
    const provider = manifest.providerAppId ?? manifest.id;
    if (provider !== HOST_APP_ID) continue;
    c.status = 'invalid';
    c.extra.push({
      severity: 'error',
      code: 'PROVIDER_APP_ID_CLAIMED',
      file: c.validated.manifestFile,
      path: declared ? 'providerAppId' : 'id',
      message: `${declared ? 'providerAppId' : 'the plugin id (its provider app id when no providerAppId is given)'} "${provider}" is the host itself (a reserved id), which owns the registry and is no app a plugin can join, so this plugin is not loaded`,
      hint: declared ? 'remove "providerAppId" (the plugin id is used), or name the app the plugin belongs to' : 'give the plugin an id of its own',
    });
  }
}
