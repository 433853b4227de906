import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/core/host.js';
import { formatCmdUrl } from '../../../src/core/naming/cmdUrl.js';
import type { PluginRecord } from '../../../src/shared/appContribution.js';
import { hasErrors } from '../../../src/shared/problemText.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

interface World {
  host: Host;
  home: string;
  builtin: string;
  user: string;
  extra: string;
  exposeDir: string;
  sessionRoot: string;
  projectRoot: string;
}

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
});

/** A host whose every folder is a fresh temp folder: nothing of the real installation or ~/.chatos is read. */
function makeWorld(options: { extraRoots?: string[] } = {}): World {
  const base = tempDir('chatos-scan-');
  const appRoot = path.join(base, 'app');
  const builtin = path.join(appRoot, 'plugins');
  const defaultsDir = path.join(appRoot, 'defaults');
  const exposeDir = path.join(defaultsDir, 'ui-apps-expose');
  const extra = path.join(base, 'extra');
  const home = path.join(base, 'home');
  const sessionRoot = path.join(base, 'session');
  const projectRoot = path.join(base, 'project');
  for (const dir of [builtin, exposeDir, extra, home]) fs.mkdirSync(dir, { recursive: true });
  const host = createHost({
    home,
    appRoot,
    builtinPluginsDir: builtin,
    defaultsDir,
    extraPluginRoots: options.extraRoots ?? [extra],
    sessionRoot,
    projectRoot,
  });
  hosts.push(host);
  const user = path.join(home, 'chatos', 'ui_apps', 'plugins');
  fs.mkdirSync(user, { recursive: true });
  return { host, home, builtin, user, extra, exposeDir, sessionRoot, projectRoot };
}

type Json = Record<string, unknown>;

/** Writes `<root>/<folder>/plugin.json` (one app `main` with entry index.mjs unless `apps` is given) and the named files. */
function writePlugin(root: string, folder: string, manifest: Json & { id: string }, files: Record<string, string> = {}): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  const full = { manifestVersion: 1, name: `Plugin ${manifest.id}`, version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }], ...manifest };
  fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(full, null, 2));
  for (const [rel, text] of Object.entries({ 'index.mjs': 'export {};\n', ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const record = (plugins: PluginRecord[], dir: string): PluginRecord => {
  const found = plugins.find((p) => p.dir === dir);
  if (!found) throw new Error(`no record for ${dir}; have ${plugins.map((p) => p.dir).join(', ')}`);
  return found;
};
const codes = (r: PluginRecord) => r.problems.map((p) => `${p.severity}:${p.code}`);

describe('PluginScanner: overrides and duplicates', () => {
  it('lets a user plugin override a built-in with the same id', () => {
    const w = makeWorld();
    const original = writePlugin(w.builtin, 'tools', { id: 'acme.tools', apps: [{ id: 'main', name: 'Built-in main', entry: 'index.mjs' }] });
    const override = writePlugin(w.user, 'my-tools', { id: 'acme.tools', apps: [{ id: 'main', name: 'User main', entry: 'index.mjs' }] });
    const result = w.host.plugins.catalog.rescan();

    const builtinRecord = record(result.plugins, original);
    const userRecord = record(result.plugins, override);
    expect(builtinRecord).toMatchObject({ id: 'acme.tools', source: 'builtin', status: 'overridden' });
    expect(userRecord).toMatchObject({ id: 'acme.tools', source: 'user', status: 'loaded' });
    expect(codes(builtinRecord)).toEqual(['notice:PLUGIN_OVERRIDDEN']);
    expect(codes(userRecord)).toEqual(['notice:PLUGIN_OVERRIDES_BUILTIN']);
    expect(builtinRecord.problems[0]!.message).toContain(path.join(override, 'plugin.json'));
    expect(userRecord.problems[0]!.message).toContain(path.join(original, 'plugin.json'));
    expect(hasErrors(result.problems)).toBe(false);

    expect(result.apps.map((a) => [a.pluginId, a.appId, a.source, a.name])).toEqual([['acme.tools', 'main', 'user', 'User main']]);
    expect(w.host.plugins.catalog.getAiContribution('acme.tools', 'main')?.pluginDir).toBe(override);
  });

  it('keeps the built-in when the user copy with its id is invalid', () => {
    const w = makeWorld();
    const original = writePlugin(w.builtin, 'tools', { id: 'acme.tools' });
    const broken = writePlugin(w.user, 'tools', { id: 'acme.tools', apps: [{ id: 'main', name: 'Main', entry: 'missing.mjs' }] });
    const result = w.host.plugins.catalog.rescan();
    expect(record(result.plugins, original)).toMatchObject({ status: 'loaded', problems: [] });
    expect(record(result.plugins, broken)).toMatchObject({ status: 'invalid' });
    expect(result.apps.map((a) => a.source)).toEqual(['builtin']);
  });

  it('loads the first of two folders with one id in a root and reports both manifest paths', () => {
    const w = makeWorld();
    const second = writePlugin(w.user, 'b-copy', { id: 'dup.id', apps: [{ id: 'main', name: 'From b', entry: 'index.mjs' }] });
    const first = writePlugin(w.user, 'a-copy', { id: 'dup.id', apps: [{ id: 'main', name: 'From a', entry: 'index.mjs' }] });
    const result = w.host.plugins.catalog.rescan();

    const loser = record(result.plugins, second);
    const winner = record(result.plugins, first);
    expect(winner.status).toBe('loaded');
    expect(loser.status).toBe('shadowed');
    const error = loser.problems.find((p) => p.severity === 'error')!;
    expect(error).toMatchObject({ code: 'PLUGIN_ID_DUPLICATE', file: path.join(second, 'plugin.json'), path: 'id' });
    expect(error.message).toContain(path.join(first, 'plugin.json'));
    expect(codes(winner)).toEqual(['warning:PLUGIN_ID_DUPLICATE']);
    expect(winner.problems[0]!.message).toContain(path.join(second, 'plugin.json'));
    expect(result.apps.map((a) => a.name)).toEqual(['From a']);
  });

  it('treats the user root before the extra roots for duplicates', () => {
    const w = makeWorld();
    const inExtra = writePlugin(w.extra, 'aaa', { id: 'dup.id' });
    const inUser = writePlugin(w.user, 'zzz', { id: 'dup.id' });
    const result = w.host.plugins.catalog.rescan();
    expect(record(result.plugins, inUser).status).toBe('loaded');
    expect(record(result.plugins, inExtra).status).toBe('shadowed');
    expect(result.apps.map((a) => a.source)).toEqual(['user']);
  });

  it('refuses a plugin whose server name normalizes like another one, naming both', () => {
    const w = makeWorld();
    const owner = writePlugin(w.user, 'one', { id: 'a_b', apps: [{ id: 'c', name: 'C', entry: 'index.mjs' }] });
    const clash = writePlugin(w.user, 'two', { id: 'a', apps: [{ id: 'b_c', name: 'BC', entry: 'index.mjs' }] });
    const result = w.host.plugins.catalog.rescan();

    expect(record(result.plugins, owner)).toMatchObject({ status: 'loaded', problems: [] });
    const refused = record(result.plugins, clash);
    expect(refused.status).toBe('invalid');
    expect(refused.problems).toHaveLength(1);
    const problem = refused.problems[0]!;
    expect(problem).toMatchObject({ severity: 'error', code: 'SERVER_NAME_COLLISION', file: path.join(clash, 'plugin.json'), path: 'apps[0].id' });
    expect(problem.message).toContain('"a.b_c"');
    expect(problem.message).toContain('"a_b.c"');
    expect(problem.message).toContain('"a_b_c"');
    expect(problem.message).toContain(path.join(owner, 'plugin.json'));
    expect(result.apps.map((a) => a.serverName)).toEqual(['a_b.c']);
  });

  it('refuses two apps of one plugin whose server names normalize alike', () => {
    const w = makeWorld();
    const dir = writePlugin(w.user, 'p', {
      id: 'p',
      apps: [
        { id: 'Main', name: 'M', entry: 'index.mjs' },
        { id: 'main', name: 'm', entry: 'index.mjs' },
      ],
    });
    const result = w.host.plugins.catalog.rescan();
    const r = record(result.plugins, dir);
    expect(r.status).toBe('invalid');
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([['SERVER_NAME_COLLISION', 'apps[1].id']]);
    expect(result.apps).toEqual([]);
  });
});

describe('PluginScanner: isolation', () => {
  it('never lets one broken plugin stop the others', () => {
    const w = makeWorld();
    const badJson = path.join(w.user, 'a-bad-json');
    fs.mkdirSync(badJson);
    fs.writeFileSync(path.join(badJson, 'plugin.json'), '{ "id": "x", }');
    const manifestIsFolder = path.join(w.user, 'b-manifest-folder');
    fs.mkdirSync(path.join(manifestIsFolder, 'plugin.json'), { recursive: true });
    // Within the size limit, valid JSON, and deep enough to overflow a recursive walk.
    const depth = 40_000;
    const deep = path.join(w.user, 'c-deep');
    writePlugin(w.user, 'c-deep', { id: 'deep', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { url: 'http://127.0.0.1:1/mcp' } } }] });
    const manifestText = fs.readFileSync(path.join(deep, 'plugin.json'), 'utf8');
    const nested = `${'{"a":'.repeat(depth)}"$dataDir"${'}'.repeat(depth)}`;
    fs.writeFileSync(path.join(deep, 'plugin.json'), manifestText.replace('"url": "http://127.0.0.1:1/mcp"', `"url": "http://127.0.0.1:1/mcp", "callMeta": { "deep": ${nested} }`));
    const noManifest = path.join(w.user, 'd-empty');
    fs.mkdirSync(noManifest);
    const good = writePlugin(w.user, 'e-good', { id: 'good' });
    const good2 = writePlugin(w.builtin, 'builtin-good', { id: 'builtin.good' });

    const result = w.host.plugins.catalog.rescan();
    expect(record(result.plugins, badJson)).toMatchObject({ status: 'invalid' });
    expect(codes(record(result.plugins, badJson))).toEqual(['error:JSON_SYNTAX']);
    expect(codes(record(result.plugins, manifestIsFolder))).toEqual(['error:FILE_NOT_REGULAR']);
    expect(record(result.plugins, manifestIsFolder).status).toBe('invalid');
    expect(codes(record(result.plugins, deep))).toEqual(['error:PLUGIN_LOAD_FAILED']);
    expect(record(result.plugins, deep)).toMatchObject({ id: 'deep', status: 'invalid' });
    expect(codes(record(result.plugins, noManifest))).toEqual(['error:MANIFEST_MISSING']);
    expect(record(result.plugins, good).status).toBe('loaded');
    expect(record(result.plugins, good2).status).toBe('loaded');
    expect(result.apps.map((a) => a.pluginId).sort()).toEqual(['builtin.good', 'good']);
    expect(w.host.plugins.catalog.getAiContribution('deep', 'main')).toBeUndefined();
  });

  it('reports an extra root that cannot be read and still scans the others', () => {
    const base = tempDir();
    const missingRoot = path.join(base, 'nope');
    const w = makeWorld({ extraRoots: [missingRoot] });
    writePlugin(w.user, 'ok', { id: 'ok' });
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems.map((p) => [p.severity, p.code, p.file])).toEqual([['warning', 'PLUGIN_ROOT_UNREADABLE', missingRoot]]);
    expect(result.apps.map((a) => a.pluginId)).toEqual(['ok']);
  });

  it('says nothing about a user root that does not exist yet', () => {
    const w = makeWorld();
    fs.rmSync(w.user, { recursive: true });
    writePlugin(w.builtin, 'b', { id: 'b' });
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems).toEqual([]);
    expect(result.apps.map((a) => a.pluginId)).toEqual(['b']);
  });

  it('ignores dot-folders and loose files in a root', () => {
    const w = makeWorld();
    writePlugin(w.user, '.hidden', { id: 'hidden' });
    fs.writeFileSync(path.join(w.user, 'README.txt'), 'not a plugin');
    writePlugin(w.user, 'shown', { id: 'shown' });
    const result = w.host.plugins.catalog.rescan();
    expect(result.plugins.map((p) => p.id)).toEqual(['shown']);
    expect(result.stats.folders).toBe(1);
  });
});

describe('PluginScanner: rescans', () => {
  /** Writes new content with a different size and a later mtime, so the change shows by stat however fast the test runs. */
  function change(file: string, text: string): void {
    const before = fs.statSync(file);
    fs.writeFileSync(file, text);
    const later = new Date(before.mtimeMs + 5_000);
    fs.utimesSync(file, later, later);
  }

  it('re-reads only the folder that changed and picks up the change', () => {
    const w = makeWorld();
    const a = writePlugin(w.user, 'a', { id: 'a', apps: [{ id: 'main', name: 'A', entry: 'index.mjs', ai: { mcpPrompt: 'p.md' } }] }, { 'p.md': 'first prompt' });
    const b = writePlugin(w.user, 'b', { id: 'b' });
    const c = writePlugin(w.builtin, 'c', { id: 'c' });

    const first = w.host.plugins.catalog.rescan();
    expect(first.stats.reread.sort()).toEqual([a, b, c].sort());
    expect(first.stats.folders).toBe(3);

    const unchanged = w.host.plugins.catalog.rescan();
    expect(unchanged.stats.reread).toEqual([]);
    expect(unchanged.apps.map((x) => x.pluginId)).toEqual(first.apps.map((x) => x.pluginId));

    // A file the manifest names, not the manifest itself.
    change(path.join(a, 'p.md'), 'second, longer prompt');
    const afterPrompt = w.host.plugins.catalog.rescan();
    expect(afterPrompt.stats.reread).toEqual([a]);
    expect(w.host.plugins.catalog.getAiContribution('a', 'main')?.prompt?.zh).toBe('second, longer prompt');

    const manifest = path.join(b, 'plugin.json');
    change(manifest, fs.readFileSync(manifest, 'utf8').replace('"name": "Main"', '"name": "Renamed main"'));
    const afterManifest = w.host.plugins.catalog.rescan();
    expect(afterManifest.stats.reread).toEqual([b]);
    expect(w.host.plugins.catalog.getAiContribution('b', 'main')?.name).toBe('Renamed main');

    expect(w.host.plugins.catalog.rescan().stats.reread).toEqual([]);
  });

  it('re-reads a plugin when a file it was missing appears', () => {
    const w = makeWorld();
    const dir = writePlugin(w.user, 'p', { id: 'p', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', icon: 'icon.svg' }] });
    const first = w.host.plugins.catalog.rescan();
    expect(record(first.plugins, dir).status).toBe('invalid');
    expect(w.host.plugins.catalog.rescan().stats.reread).toEqual([]);

    fs.writeFileSync(path.join(dir, 'icon.svg'), '<svg/>');
    const second = w.host.plugins.catalog.rescan();
    expect(second.stats.reread).toEqual([dir]);
    expect(record(second.plugins, dir).status).toBe('loaded');
    expect(w.host.plugins.catalog.getAiContribution('p', 'main')?.iconPath).toBe(path.join(fs.realpathSync(dir), 'icon.svg'));
  });

  it('re-reads a plugin whose named file sits under a folder that became a file, without failing the scan', () => {
    const w = makeWorld();
    const dir = writePlugin(w.user, 'p', { id: 'p', apps: [{ id: 'main', name: 'Main', entry: 'app/index.mjs' }] }, { 'app/index.mjs': 'export {};\n' });
    const other = writePlugin(w.user, 'q', { id: 'q' });
    expect(record(w.host.plugins.catalog.rescan().plugins, dir).status).toBe('loaded');

    // stat() of app/index.mjs now fails with ENOTDIR, not ENOENT.
    fs.rmSync(path.join(dir, 'app'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'app'), 'not a folder');
    const result = w.host.plugins.catalog.rescan();
    expect(result.stats.reread).toEqual([dir]);
    expect(codes(record(result.plugins, dir))).toContain('error:PATH_NOT_FOUND');
    expect(record(result.plugins, other).status).toBe('loaded');
  });

  it('re-reads a prompt rewritten with the same size and its old mtime put back (as tar or rsync -a do)', () => {
    const w = makeWorld();
    const dir = writePlugin(w.user, 'p', { id: 'p', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcpPrompt: 'p.md' } }] }, { 'p.md': 'first' });
    const file = path.join(dir, 'p.md');
    const whole = 1_700_000_000; // whole seconds, so putting it back is exact
    fs.utimesSync(file, whole, whole);
    w.host.plugins.catalog.rescan();
    const before = fs.statSync(file);
    fs.writeFileSync(file, 'again');
    fs.utimesSync(file, whole, whole);
    const after = fs.statSync(file);
    expect([after.mtimeMs, after.size, after.ino]).toEqual([before.mtimeMs, before.size, before.ino]);

    expect(w.host.plugins.catalog.rescan().stats.reread).toEqual([dir]);
    expect(w.host.plugins.catalog.getAiContribution('p', 'main')?.prompt?.zh).toBe('again');
  });

  it('re-reads a plugin whose entry was deleted, renamed over or replaced by a folder', () => {
    const w = makeWorld();
    const app = (entry: string) => ({ id: 'main', name: 'Main', entry, icon: 'app/icon.svg' });
    const dir = writePlugin(w.user, 'p', { id: 'p', apps: [app('app/index.mjs')] }, { 'app/index.mjs': 'export {};\n', 'app/icon.svg': '<svg/>' });
    const status = () => record(w.host.plugins.catalog.rescan().plugins, dir);
    expect(status().status).toBe('loaded');
    expect(w.host.plugins.catalog.rescan().stats.reread).toEqual([]);

    fs.rmSync(path.join(dir, 'app', 'icon.svg'));
    expect(codes(status())).toContain('error:PATH_NOT_FOUND');
    fs.writeFileSync(path.join(dir, 'app', 'icon.svg.tmp'), '<svg/>');
    fs.renameSync(path.join(dir, 'app', 'icon.svg.tmp'), path.join(dir, 'app', 'icon.svg'));
    expect(status().status).toBe('loaded');
    fs.rmSync(path.join(dir, 'app', 'index.mjs'));
    fs.mkdirSync(path.join(dir, 'app', 'index.mjs'));
    expect(codes(status())).toContain('error:PATH_NOT_FILE');
  });

  it('watches an entry reached through a link by the file itself: its target can go away elsewhere', () => {
    const w = makeWorld();
    const dir = writePlugin(w.user, 'p', { id: 'p' }, { 'lib/real.mjs': 'export {};\n' });
    fs.rmSync(path.join(dir, 'index.mjs'));
    fs.symlinkSync(path.join('lib', 'real.mjs'), path.join(dir, 'index.mjs'));
    expect(record(w.host.plugins.catalog.rescan().plugins, dir).status).toBe('loaded');

    // The plugin folder (index.mjs's folder) is untouched; only lib/ changes.
    fs.rmSync(path.join(dir, 'lib', 'real.mjs'));
    const result = w.host.plugins.catalog.rescan();
    expect(result.stats.reread).toEqual([dir]);
    expect(codes(record(result.plugins, dir))).toContain('error:PATH_NOT_FOUND');
  });

  it('drops a removed plugin and reads only a new one', () => {
    const w = makeWorld();
    const gone = writePlugin(w.user, 'gone', { id: 'gone' });
    writePlugin(w.user, 'stays', { id: 'stays' });
    w.host.plugins.catalog.rescan();
    expect(w.host.plugins.catalog.getAiContribution('gone', 'main')).toBeDefined();

    fs.rmSync(gone, { recursive: true });
    const fresh = writePlugin(w.user, 'fresh', { id: 'fresh' });
    const result = w.host.plugins.catalog.rescan();
    expect(result.stats.reread).toEqual([fresh]);
    expect(result.plugins.map((p) => p.id).sort()).toEqual(['fresh', 'stays']);
    expect(result.apps.map((a) => a.pluginId).sort()).toEqual(['fresh', 'stays']);
    expect(w.host.plugins.catalog.getAiContribution('gone', 'main')).toBeUndefined();
    expect(w.host.plugins.catalog.findByServerName('gone.main')).toBeUndefined();
  });

  it('lets a removed user override give the built-in back', () => {
    const w = makeWorld();
    writePlugin(w.builtin, 'tools', { id: 'acme.tools' });
    const override = writePlugin(w.user, 'tools', { id: 'acme.tools' });
    expect(w.host.plugins.catalog.rescan().apps.map((a) => a.source)).toEqual(['user']);
    fs.rmSync(override, { recursive: true });
    const result = w.host.plugins.catalog.rescan();
    expect(result.apps.map((a) => a.source)).toEqual(['builtin']);
    expect(result.plugins.map((p) => p.status)).toEqual(['loaded']);
  });
});

describe('PluginScanner: default exposure lists', () => {
  const wayB = (appId: string, ai: Json) => ({ id: appId, name: appId, entry: 'index.mjs', ai });

  it('applies defaults/ui-apps-expose/<pluginid>__<appid> only where the manifest opts in with true', () => {
    const w = makeWorld();
    fs.writeFileSync(path.join(w.exposeDir, 'acme.tools__panel.yml'), 'mcpServers: [project_files, task_manager]\nprompts: [default]\n');
    fs.writeFileSync(path.join(w.exposeDir, 'acme.tools__quiet.json'), '{ "mcpServers": ["x"], "prompts": ["y"] }');
    fs.writeFileSync(path.join(w.exposeDir, 'acme.tools__half.yaml'), 'mcpServers: [s1]\nprompts: [p1]\n');
    fs.writeFileSync(path.join(w.exposeDir, 'acme.tools__off.yaml'), 'mcpServers: [s1]\nprompts: [p1]\n');
    // Plugin and app ids in mixed case: the file name is the lower-cased form.
    writePlugin(w.user, 'tools', {
      id: 'Acme.Tools',
      apps: [
        wayB('Panel', { mcpServers: true, prompts: true }),
        wayB('quiet', {}),
        wayB('half', { mcpServers: true }),
        wayB('off', { mcpServers: false, prompts: ['mine'] }),
        wayB('nofile', { mcpServers: true, prompts: true }),
      ],
    });
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems).toEqual([]);
    const exposure = (appId: string) => w.host.plugins.catalog.getAiContribution('Acme.Tools', appId)!.exposure;

    expect(exposure('Panel')).toEqual({
      mcpServers: { exposure: { mode: 'list', names: ['project_files', 'task_manager'] }, source: 'defaults' },
      prompts: { exposure: { mode: 'list', names: ['default'] }, source: 'defaults' },
    });
    expect(exposure('quiet')).toEqual({
      mcpServers: { exposure: { mode: 'off' }, source: 'none' },
      prompts: { exposure: { mode: 'off' }, source: 'none' },
    });
    expect(exposure('half')).toEqual({
      mcpServers: { exposure: { mode: 'list', names: ['s1'] }, source: 'defaults' },
      prompts: { exposure: { mode: 'off' }, source: 'none' },
    });
    expect(exposure('off')).toEqual({
      mcpServers: { exposure: { mode: 'off' }, source: 'inline' },
      prompts: { exposure: { mode: 'list', names: ['mine'] }, source: 'inline' },
    });
    expect(exposure('nofile')).toEqual({
      mcpServers: { exposure: { mode: 'all' }, source: 'inline' },
      prompts: { exposure: { mode: 'all' }, source: 'inline' },
    });
  });

  it('prefers the ai.config file over the defaults, and .yaml over .yml over .json', () => {
    const w = makeWorld();
    fs.writeFileSync(path.join(w.exposeDir, 'p__a.json'), '{ "mcpServers": ["from-json"] }');
    fs.writeFileSync(path.join(w.exposeDir, 'p__a.yml'), 'mcpServers: [from-yml]\n');
    fs.writeFileSync(path.join(w.exposeDir, 'p__a.yaml'), 'mcpServers: [from-yaml]\nprompts: [from-yaml]\n');
    fs.writeFileSync(path.join(w.exposeDir, 'p__b.json'), '{ "mcpServers": ["from-json"] }');
    fs.writeFileSync(path.join(w.exposeDir, 'p__b.yml'), 'mcpServers: [from-yml]\n');
    writePlugin(w.user, 'p', { id: 'p', apps: [wayB('a', { mcpServers: true, prompts: true, config: 'ai.yaml' }), wayB('b', { mcpServers: true })] }, { 'ai.yaml': 'prompts: [from-config]\n' });
    w.host.plugins.catalog.rescan();
    const a = w.host.plugins.catalog.getAiContribution('p', 'a')!.exposure;
    expect(a.mcpServers).toEqual({ exposure: { mode: 'list', names: ['from-yaml'] }, source: 'defaults' });
    expect(a.prompts).toEqual({ exposure: { mode: 'list', names: ['from-config'] }, source: 'config' });
    expect(w.host.plugins.catalog.getAiContribution('p', 'b')!.exposure.mcpServers.exposure).toEqual({ mode: 'list', names: ['from-yml'] });
  });

  it('picks up an edited default list on rescan without re-reading the plugin', () => {
    const w = makeWorld();
    const file = path.join(w.exposeDir, 'p__main.yaml');
    fs.writeFileSync(file, 'mcpServers: [one]\n');
    writePlugin(w.user, 'p', { id: 'p', apps: [wayB('main', { mcpServers: true })] });
    w.host.plugins.catalog.rescan();
    expect(w.host.plugins.catalog.getAiContribution('p', 'main')!.exposure.mcpServers.exposure).toEqual({ mode: 'list', names: ['one'] });

    fs.writeFileSync(file, 'mcpServers: [one, two]\n');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    const result = w.host.plugins.catalog.rescan();
    expect(result.stats.reread).toEqual([]);
    expect(w.host.plugins.catalog.getAiContribution('p', 'main')!.exposure.mcpServers.exposure).toEqual({ mode: 'list', names: ['one', 'two'] });
  });

  it('reports a broken default list against that file and falls back to all; an app that did not opt in never reads its file', () => {
    const w = makeWorld();
    const file = path.join(w.exposeDir, 'p__main.yaml');
    fs.writeFileSync(file, 'mcpServers: [unclosed\n');
    fs.writeFileSync(path.join(w.exposeDir, 'p__quiet.yaml'), 'mcpServers: [unclosed\n');
    writePlugin(w.user, 'p', { id: 'p', apps: [wayB('main', { mcpServers: true }), wayB('quiet', { mcpServers: ['own'] })] });
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems.map((p) => [p.code, p.file])).toEqual([['YAML_SYNTAX', file]]);
    expect(w.host.plugins.catalog.getAiContribution('p', 'main')!.exposure.mcpServers).toEqual({ exposure: { mode: 'all' }, source: 'inline' });
  });
});

describe('PluginScanner: contributions', () => {
  it('derives names, the cmd:// url with the absolute entry, flags, meta and prompts', () => {
    const w = makeWorld();
    const dir = writePlugin(
      w.user,
      'db',
      {
        id: 'com.example.tools',
        apps: [
          {
            id: 'db-client',
            name: '数据库客户端',
            entry: 'index.mjs',
            ai: {
              mcp: { entry: 'mcp/server.mjs', args: ['--label', 'two words'], allowMain: true, allowSub: false, env: { A: '1' }, callMeta: { tenant: '${pluginId}' } },
              mcpPrompt: { zh: 'zh.md', en: 'en.md' },
            },
          },
        ],
      },
      { 'mcp/server.mjs': '', 'zh.md': '中文提示', 'en.md': 'English prompt' },
    );
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems).toEqual([]);
    const app = w.host.plugins.catalog.getAiContribution('com.example.tools', 'db-client')!;
    const entry = path.join(fs.realpathSync(dir), 'mcp', 'server.mjs');
    const dataDir = path.join(w.home, 'chatos', 'ui_apps', 'data', 'com.example.tools');

    expect(app).toMatchObject({
      pluginId: 'com.example.tools',
      appId: 'db-client',
      providerAppId: 'com.example.tools',
      name: '数据库客户端',
      source: 'user',
      pluginDir: dir,
      serverName: 'com.example.tools.db-client',
      promptNames: { zh: 'mcp_com_example_tools_db-client', en: 'mcp_com_example_tools_db-client__en' },
      allowMain: true,
      allowSub: false,
      prompt: { zh: '中文提示', en: 'English prompt' },
    });
    expect(app.mcp).toEqual({
      url: `cmd://node ${entry} --label "two words"`,
      transport: 'stdio',
      command: 'node',
      args: [entry, '--label', 'two words'],
      env: { A: '1' },
      enabled: true,
      description: undefined,
      tags: [],
      callMeta: { tenant: '${pluginId}' },
      permissions: {},
    });
    expect(app.mcp!.url).toBe(formatCmdUrl('node', app.mcp!.args!));
    expect(path.isAbsolute(app.mcp!.args![0]!)).toBe(true);
    expect(app.uiApp).toEqual({
      pluginId: 'com.example.tools',
      appId: 'db-client',
      pluginDir: dir,
      dataDir,
      stateDir: path.join(w.home, 'chatos', 'ui_apps', 'state', 'com.example.tools'),
      sessionRoot: w.sessionRoot,
      projectRoot: w.projectRoot,
    });
    expect(app.meta).toEqual({ tenant: 'com.example.tools', chatos: { uiApp: app.uiApp }, workdir: dataDir });
    expect(w.host.plugins.catalog.findByServerName('com.example.tools.db-client')).toBe(app);
    expect(w.host.plugins.catalog.getAiContribution('com.example.tools', 'nope')).toBeUndefined();
    expect(w.host.plugins.catalog.getAiContribution('nope', 'db-client')).toBeUndefined();
  });

  it('contributes the full-featured fixture as docs/rules/names-and-exposure.md describes', () => {
    const w = makeWorld({ extraRoots: [path.join(repoRoot, 'test', 'fixtures', 'plugins')] });
    const result = w.host.plugins.catalog.rescan();
    expect(result.problems).toEqual([]);
    const fixture = path.join(repoRoot, 'test', 'fixtures', 'plugins', 'full-featured');
    const dataDir = path.join(w.home, 'chatos', 'ui_apps', 'data', 'com.example.tools');

    const db = w.host.plugins.catalog.getAiContribution('com.example.tools', 'db-client')!;
    expect(db.source).toBe('extra');
    expect(db.providerAppId).toBe('example_provider');
    expect(db.entry).toEqual({ path: path.join(fs.realpathSync(fixture), 'app', 'index.mjs'), compactPath: path.join(fs.realpathSync(fixture), 'app', 'compact.mjs') });
    expect(db.mcp!.url).toBe(`cmd://node ${path.join(fs.realpathSync(fixture), 'mcp', 'server.mjs')} --mode "read only"`);
    expect(db.meta).toMatchObject({ workdir: path.join(dataDir, 'work'), project: w.projectRoot });
    expect(db.agent).toEqual({ name: 'DBA', modelId: 'gpt-x' });
    expect(db.exposure).toEqual({
      mcpServers: { exposure: { mode: 'list', names: ['project_files', 'task_manager'] }, source: 'config' },
      prompts: { exposure: { mode: 'list', names: ['mcp_com_example_tools_db-client'] }, source: 'inline' },
    });

    const panel = w.host.plugins.catalog.getAiContribution('com.example.tools', 'panel')!;
    expect(panel.mcp).toMatchObject({ url: 'https://mcp.example.com/mcp', transport: 'http', command: undefined, args: undefined });
    expect(panel.allowMain).toBe(false);
    expect(panel.allowSub).toBe(true);
    expect(panel.prompt).toEqual({ title: undefined, zh: undefined, en: 'Inline English prompt.' });
    expect(panel.meta).toEqual({ chatos: { uiApp: panel.uiApp }, workdir: dataDir });
    expect(panel.exposure).toEqual({
      mcpServers: { exposure: { mode: 'off' }, source: 'none' },
      prompts: { exposure: { mode: 'all' }, source: 'config' },
    });
  });

  it('gives an app without ai the defaults: no server, main off, sub on, nothing exposed', () => {
    const w = makeWorld();
    writePlugin(w.builtin, 'plain', { id: 'plain' });
    w.host.plugins.catalog.rescan();
    const app = w.host.plugins.catalog.getAiContribution('plain', 'main')!;
    expect(app).toMatchObject({ source: 'builtin', allowMain: false, allowSub: true, mcp: undefined, prompt: undefined });
    expect(app.exposure.mcpServers).toEqual({ exposure: { mode: 'off' }, source: 'none' });
    expect(app.meta.workdir).toBe(path.join(w.home, 'chatos', 'ui_apps', 'data', 'plain'));
  });

  it('marks an http url as http transport, and refuses a ws url (no transport to connect with)', () => {
    const w = makeWorld();
    writePlugin(w.user, 'web', { id: 'web', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { url: 'https://example.com/mcp' } } }] });
    writePlugin(w.user, 'ws', { id: 'ws', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { url: 'wss://example.com/mcp' } } }] });
    const result = w.host.plugins.catalog.rescan();
    expect(w.host.plugins.catalog.getAiContribution('web', 'main')!.mcp!.transport).toBe('http');
    expect(w.host.plugins.catalog.getAiContribution('ws', 'main')).toBeUndefined();
    expect(result.problems).toContainEqual(expect.objectContaining({ code: 'URL_SCHEME', path: 'apps[0].ai.mcp.url' }));
  });

  it('validates one folder as a scan would, without changing the catalog', () => {
    const w = makeWorld();
    writePlugin(w.user, 'in', { id: 'in' });
    w.host.plugins.catalog.rescan();
    const outside = writePlugin(tempDir(), 'out', { id: 'out' });
    const checked = w.host.plugins.catalog.validateFolder(outside);
    expect(checked.plugins.map((p) => [p.id, p.status, p.source])).toEqual([['out', 'loaded', 'extra']]);
    expect(checked.apps.map((a) => a.serverName)).toEqual(['out.main']);
    expect(w.host.plugins.catalog.getAiContribution('out', 'main')).toBeUndefined();
    expect(w.host.plugins.catalog.apps.map((a) => a.pluginId)).toEqual(['in']);
  });
});
