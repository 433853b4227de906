import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppContribution, PluginRecord, PluginSource } from '../../shared/appContribution.js';
import type { Problem } from '../../shared/problems.js';
import { contributeApp, type ContributionContext } from '../contributions/appContribution.js';
import { deriveServerName, normalizeName } from '../naming/names.js';
import { stampsUnchanged } from './fileStamps.js';
import { validatePluginFolder, type ValidatedPlugin } from './validatePlugin.js';

export interface PluginRoot {
  dir: string;
  source: PluginSource;
}

export interface ScanResult {
  plugins: PluginRecord[];
  /** One per app of every loaded plugin, in root order. */
  apps: AppContribution[];
  /** Every problem of every plugin and root, flattened. */
  problems: Problem[];
  stats: { folders: number; reread: string[]; durationMs: number };
}

interface Candidate {
  validated: ValidatedPlugin;
  source: PluginSource;
  /** Problems found by looking at several plugins together (duplicates, collisions). */
  extra: Problem[];
  status: PluginRecord['status'];
}

function listPluginFolders(root: PluginRoot, problems: Problem[]): string[] {
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
      hint: code === 'ENOENT' ? 'create the folder or remove it from --plugins' : 'check its permissions',
    });
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || (e.isSymbolicLink() && fs.statSync(path.join(root.dir, e.name), { throwIfNoEntry: false })?.isDirectory())))
    .map((e) => path.join(root.dir, e.name))
    .sort();
}

const where = (c: Candidate) => `${c.validated.manifestFile} (${c.source})`;

/**
 * Scans the plugin roots. Results are cached per folder with the stamps of
 * every file validation read, so a rescan re-reads only what changed. Cross-
 * plugin rules (duplicates, overrides, server-name collisions) are cheap and
 * run on every scan.
 */
export class PluginScanner {
  private readonly cache = new Map<string, ValidatedPlugin>();

  constructor(
    private readonly roots: readonly PluginRoot[],
    private readonly ctx: ContributionContext,
  ) {}

  scan(): ScanResult {
    const started = performance.now();
    this.ctx.exposeDefaults.refresh();
    const rootProblems: Problem[] = [];
    const reread: string[] = [];
    const seen = new Set<string>();
    const candidates: Candidate[] = [];

    for (const root of this.roots) {
      for (const dir of listPluginFolders(root, rootProblems)) {
        seen.add(dir);
        let validated = this.cache.get(dir);
        if (!validated || !stampsUnchanged(validated.stamps)) {
          validated = validatePluginFolder(dir);
          this.cache.set(dir, validated);
          reread.push(dir);
        }
        candidates.push({ validated, source: root.source, extra: [], status: validated.valid ? 'loaded' : 'invalid' });
      }
    }
    for (const dir of this.cache.keys()) if (!seen.has(dir)) this.cache.delete(dir);

    return this.assemble(candidates, rootProblems, reread, started);
  }

  /** Validates one folder exactly as a scan would (the `chatos validate` path), without touching the cache. */
  validateFolder(dir: string, source: PluginSource = 'extra'): ScanResult {
    const started = performance.now();
    this.ctx.exposeDefaults.refresh();
    const validated = validatePluginFolder(dir);
    return this.assemble([{ validated, source, extra: [], status: validated.valid ? 'loaded' : 'invalid' }], [], [dir], started);
  }

  private assemble(candidates: Candidate[], rootProblems: Problem[], reread: string[], started: number): ScanResult {
    resolveDuplicateIds(candidates);
    resolveServerNameCollisions(candidates);

    const plugins: PluginRecord[] = [];
    const apps: AppContribution[] = [];
    for (const candidate of candidates) {
      const { validated } = candidate;
      const problems = [...validated.problems, ...candidate.extra];
      if (candidate.status === 'loaded' && validated.manifest) {
        for (const app of validated.apps) {
          const made = contributeApp(validated.manifest, validated.dir, candidate.source, app, this.ctx);
          apps.push(made.contribution);
          problems.push(...made.problems);
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
        problems,
      });
    }
    return {
      plugins,
      apps,
      problems: [...rootProblems, ...plugins.flatMap((p) => p.problems)],
      stats: { folders: candidates.length, reread, durationMs: performance.now() - started },
    };
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

/** Two apps whose server names normalize alike would share prompt and tool names: the later plugin is refused. */
function resolveServerNameCollisions(candidates: Candidate[]): void {
  const owners = new Map<string, { candidate: Candidate; serverName: string; index: number }>();
  for (const c of candidates) {
    const manifest = c.validated.manifest;
    if (c.status !== 'loaded' || !manifest) continue;
    const claimed: [string, { candidate: Candidate; serverName: string; index: number }][] = [];
    manifest.apps.forEach((app, index) => {
      const serverName = deriveServerName(manifest.id, app.id);
      const key = normalizeName(serverName);
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
