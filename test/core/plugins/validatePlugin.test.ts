import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/shared/problems.js';
import { MAX_MANIFEST_BYTES, MAX_PROMPT_BYTES, validatePluginFolder } from '../../../src/core/plugins/validatePlugin.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

const INVALID = path.join(repoRoot, 'test', 'fixtures', 'invalid-manifests');
const VALID = path.join(repoRoot, 'test', 'fixtures', 'plugins', 'full-featured');

interface ExpectedProblem {
  severity: Problem['severity'];
  code: string;
  /** JSON path inside `file`. */
  path: string;
  /** File the problem is about, relative to the plugin folder; default plugin.json. */
  file?: string;
  line?: number;
  column?: number;
  /** Text the message must contain. */
  says?: string;
}

interface InvalidCase {
  /** Folder under test/fixtures/invalid-manifests. */
  name: string;
  problems: ExpectedProblem[];
  /** Only warnings: the plugin still loads. */
  valid?: boolean;
  /** Runs on a temp copy of the fixture for what cannot be committed (big files, symlinks). */
  prepare?: (dir: string) => void;
}

const err = (code: string, jsonPath: string, extra: Partial<ExpectedProblem> = {}): ExpectedProblem => ({ severity: 'error', code, path: jsonPath, ...extra });
const warn = (code: string, jsonPath: string, extra: Partial<ExpectedProblem> = {}): ExpectedProblem => ({ severity: 'warning', code, path: jsonPath, ...extra });

const CASES: InvalidCase[] = [
  // Files that do not parse.
  { name: 'json-syntax-trailing-comma', problems: [err('JSON_SYNTAX', '', { line: 8, column: 3, says: 'line 8, column 3' })] },
  { name: 'json-syntax-missing-comma', problems: [err('JSON_SYNTAX', '', { line: 4, column: 3, says: 'line 4, column 3' })] },
  { name: 'not-an-object', problems: [err('MANIFEST_NOT_OBJECT', '')] },
  { name: 'manifest-version-2', problems: [err('MANIFEST_VERSION_UNSUPPORTED', 'manifestVersion', { says: 'supports manifestVersion 1' })] },
  {
    name: 'manifest-too-large',
    prepare(dir) {
      // A correct manifest, only too big: the size check alone must refuse it.
      const file = path.join(dir, 'plugin.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      manifest.description = 'x'.repeat(MAX_MANIFEST_BYTES);
      fs.writeFileSync(file, JSON.stringify(manifest));
    },
    problems: [err('MANIFEST_TOO_LARGE', '', { says: '256.0 KiB' })],
  },
  // Schema.
  { name: 'missing-id', problems: [err('SCHEMA_INVALID_TYPE', 'id', { says: 'is required' })] },
  { name: 'bad-plugin-id', problems: [err('SCHEMA_INVALID_FORMAT', 'id')] },
  { name: 'provider-app-id-with-dot', problems: [err('SCHEMA_INVALID_FORMAT', 'providerAppId')] },
  { name: 'missing-apps', problems: [err('SCHEMA_INVALID_TYPE', 'apps', { says: 'is required' })] },
  { name: 'empty-apps', problems: [err('SCHEMA_TOO_SMALL', 'apps', { says: 'at least 1' })] },
  { name: 'app-id-with-slash', problems: [err('SCHEMA_CUSTOM', 'apps[0].id', { says: '"/"' })] },
  { name: 'duplicate-app-ids', problems: [err('APP_ID_DUPLICATE', 'apps[1].id', { says: 'apps[0].id and apps[1].id' })] },
  { name: 'entry-wrong-type', problems: [err('SCHEMA_INVALID_VALUE', 'apps[0].entry.type', { says: '"module"' })] },
  { name: 'mcp-entry-and-url', problems: [err('SCHEMA_CUSTOM', 'apps[0].ai.mcp', { says: 'it has both' })] },
  { name: 'mcp-neither-entry-nor-url', problems: [err('SCHEMA_CUSTOM', 'apps[0].ai.mcp', { says: 'it has neither' })] },
  { name: 'mcp-servers-number', problems: [err('SCHEMA_INVALID_UNION', 'apps[0].ai.mcpServers', { says: 'true, false or a list' })] },
  { name: 'mcp-prompt-no-sides', problems: [err('SCHEMA_CUSTOM', 'apps[0].ai.mcpPrompt', { says: '"zh" or "en"' })] },
  { name: 'allow-main-wrong-type', problems: [err('SCHEMA_INVALID_TYPE', 'apps[0].ai.mcp.allowMain', { says: 'boolean' })] },
  // A value is a string or { secret: NAME } (a key-store value, as an installed MCP bundle's key is).
  { name: 'env-value-not-string', problems: [err('SCHEMA_INVALID_UNION', 'apps[0].ai.mcp.env.PORT')] },
  { name: 'ai-config-not-a-path', problems: [err('SCHEMA_INVALID_TYPE', 'apps[0].ai.config')] },
  // URLs.
  { name: 'mcp-url-ftp', problems: [err('URL_SCHEME', 'apps[0].ai.mcp.url', { says: 'ftp:' })] },
  { name: 'mcp-url-invalid', problems: [err('URL_INVALID', 'apps[0].ai.mcp.url')] },
  // Paths and the files they name.
  { name: 'entry-file-missing', problems: [err('PATH_NOT_FOUND', 'apps[0].entry.path', { says: 'app/missing.mjs' })] },
  { name: 'compact-file-missing', problems: [err('PATH_NOT_FOUND', 'apps[0].entry.compact')] },
  { name: 'entry-dotdot', problems: [err('PATH_ESCAPES', 'apps[0].entry')] },
  { name: 'entry-absolute', problems: [err('PATH_ABSOLUTE', 'apps[0].entry')] },
  {
    name: 'mcp-entry-symlink-escapes',
    prepare(dir) {
      const outside = path.join(tempDir('chatos-outside-'), 'server.mjs');
      fs.writeFileSync(outside, '// outside the plugin folder\n');
      fs.symlinkSync(outside, path.join(dir, 'mcp', 'server.mjs'));
    },
    problems: [err('PATH_LINK_ESCAPES', 'apps[0].ai.mcp.entry')],
  },
  { name: 'icon-is-folder', problems: [err('PATH_NOT_FILE', 'apps[0].icon')] },
  { name: 'backend-entry-missing', problems: [err('PATH_NOT_FOUND', 'backend.entry')] },
  { name: 'mcp-prompt-file-missing', problems: [err('PATH_NOT_FOUND', 'apps[0].ai.mcpPrompt.en')] },
  {
    name: 'mcp-prompt-too-large',
    prepare(dir) {
      fs.writeFileSync(path.join(dir, 'prompts', 'en.md'), 'a'.repeat(MAX_PROMPT_BYTES + 1));
    },
    problems: [err('PROMPT_TOO_LARGE', 'apps[0].ai.mcpPrompt.en.path', { says: '128.0 KiB' })],
  },
  // The ai.config file: its problems point into that file.
  { name: 'ai-config-bad-yaml', problems: [err('YAML_SYNTAX', '', { file: 'ai.yaml', line: 3, column: 2 })] },
  { name: 'ai-config-wrong-type', problems: [err('SCHEMA_INVALID_UNION', 'prompts', { file: 'ai.json' })] },
  // Warnings only: the plugin still loads.
  { name: 'unknown-key-typo', valid: true, problems: [warn('UNKNOWN_KEY', 'apps[0].entyr', { says: 'did you mean "entry"' })] },
  { name: 'command-with-spaces', valid: true, problems: [warn('COMMAND_HAS_SPACES', 'apps[0].ai.mcp.command')] },
  // The host fills _meta.chatos itself: keys a plugin puts there would be lost, so they are refused with the fix.
  { name: 'callmeta-chatos', problems: [err('CALLMETA_CHATOS_RESERVED', 'apps[0].ai.mcp.callMeta.chatos', { says: 'never reach your server' })] },
  // Several problems: every one is reported, not only the first.
  {
    name: 'many-schema-problems',
    problems: [err('SCHEMA_INVALID_TYPE', 'version'), err('SCHEMA_CUSTOM', 'apps[0].id'), err('SCHEMA_INVALID_TYPE', 'apps[0].ai.mcp.allowMain'), err('SCHEMA_INVALID_UNION', 'apps[1].entry')],
  },
  {
    name: 'many-missing-files',
    problems: [
      err('PATH_NOT_FOUND', 'apps[0].entry'),
      err('PATH_NOT_FOUND', 'apps[0].icon'),
      err('PATH_NOT_FOUND', 'apps[0].ai.mcp.entry'),
      err('PATH_NOT_FOUND', 'apps[0].ai.mcpPrompt'),
      err('PATH_ESCAPES', 'apps[1].entry'),
      err('PATH_NOT_FOUND', 'backend.entry'),
    ],
  },
];

/** The fixture itself, or a temp copy when the case must add something at test time. */
function folderFor(testCase: InvalidCase): string {
  const fixture = path.join(INVALID, testCase.name);
  if (!testCase.prepare) return fixture;
  const copy = path.join(tempDir('chatos-invalid-'), testCase.name);
  fs.cpSync(fixture, copy, { recursive: true });
  testCase.prepare(copy);
  return copy;
}

describe('validatePluginFolder: invalid manifests', () => {
  it('has a table row for every fixture folder, and at least 20 of them', () => {
    const folders = fs.readdirSync(INVALID).filter((name) => fs.statSync(path.join(INVALID, name)).isDirectory());
    expect(folders.sort()).toEqual(CASES.map((c) => c.name).sort());
    expect(folders.filter((name) => !CASES.find((c) => c.name === name)!.valid).length).toBeGreaterThanOrEqual(20);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
    const dir = folderFor(testCase);
    const result = validatePluginFolder(dir);
    const fileOf = (p: ExpectedProblem) => path.join(dir, p.file ?? 'plugin.json');

    expect(result.problems.map((p) => ({ severity: p.severity, code: p.code, path: p.path, file: p.file }))).toEqual(
      testCase.problems.map((p) => ({ severity: p.severity, code: p.code, path: p.path, file: fileOf(p) })),
    );
    testCase.problems.forEach((expected, index) => {
      const actual = result.problems[index]!;
      if (expected.line !== undefined) expect({ line: actual.line, column: actual.column }).toEqual({ line: expected.line, column: expected.column });
      if (expected.says !== undefined) expect(actual.message).toContain(expected.says);
      expect(actual.message.length).toBeGreaterThan(0);
    });
    expect(result.valid).toBe(testCase.valid ?? false);
    if (testCase.valid) expect(result.apps.map((a) => a.manifest.id)).toEqual(['main']);
  });
});

describe('validatePluginFolder: limits and edges', () => {
  function writePlugin(files: Record<string, string>, manifest: unknown): string {
    const dir = tempDir('chatos-plugin-');
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    fs.writeFileSync(path.join(dir, 'plugin.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    return dir;
  }
  const manifestWith = (app: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    manifestVersion: 1,
    id: 'com.example.edge',
    name: 'Edge',
    version: '1.0.0',
    ...extra,
    apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ...app }],
  });

  it('reports a folder without plugin.json as MANIFEST_MISSING', () => {
    const dir = tempDir();
    const result = validatePluginFolder(dir);
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => [p.code, p.file])).toEqual([['MANIFEST_MISSING', path.join(dir, 'plugin.json')]]);
  });

  it('accepts a manifest of exactly the size limit', () => {
    const base = JSON.stringify(manifestWith({}, { description: '' }));
    const padded = JSON.stringify(manifestWith({}, { description: 'x'.repeat(MAX_MANIFEST_BYTES - base.length) }));
    expect(Buffer.byteLength(padded)).toBe(MAX_MANIFEST_BYTES);
    const dir = writePlugin({ 'index.mjs': '' }, padded);
    expect(validatePluginFolder(dir).problems).toEqual([]);
  });

  it('accepts a prompt file of exactly the size limit and reads its text', () => {
    const text = 'p'.repeat(MAX_PROMPT_BYTES);
    const dir = writePlugin({ 'index.mjs': '', 'zh.md': text }, manifestWith({ ai: { mcpPrompt: 'zh.md' } }));
    const result = validatePluginFolder(dir);
    expect(result.problems).toEqual([]);
    expect(result.apps[0]!.prompt?.zh?.text).toBe(text);
  });

  it('refuses an inline prompt over the size limit at its content path', () => {
    const dir = writePlugin({ 'index.mjs': '' }, manifestWith({ ai: { mcpPrompt: { zh: { content: 'c'.repeat(MAX_PROMPT_BYTES + 1) } } } }));
    const result = validatePluginFolder(dir);
    expect(result.problems.map((p) => [p.code, p.path])).toEqual([['PROMPT_TOO_LARGE', 'apps[0].ai.mcpPrompt.zh.content']]);
  });

  it('refuses a server environment name with "=": in the child it would set another variable (NODE_OPTIONS here)', () => {
    const name = 'NODE_OPTIONS=--require ./x.js --title';
    const dir = writePlugin({ 'index.mjs': '', 'server.mjs': '' }, manifestWith({ ai: { mcp: { entry: 'server.mjs', env: { [name]: 'y' } } } }));
    const result = validatePluginFolder(dir);
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => p.path)).toContain(`apps[0].ai.mcp.env[${JSON.stringify(name)}]`);
  });

  it('reads a manifest that starts with a byte order mark', () => {
    const dir = writePlugin({ 'index.mjs': '' }, `\uFEFF${JSON.stringify(manifestWith({}))}`);
    expect(validatePluginFolder(dir).valid).toBe(true);
  });

  it('accepts a file whose name merely starts with two dots', () => {
    const dir = writePlugin({ '..index.mjs': '' }, manifestWith({ entry: '..index.mjs' }));
    const result = validatePluginFolder(dir);
    expect(result.problems).toEqual([]);
    expect(result.apps[0]!.entryPath).toBe(path.join(fs.realpathSync(dir), '..index.mjs'));
  });

  it('judges ".." by where the path ends: back inside is fine, a sibling folder is not', () => {
    const dir = writePlugin({ 'index.mjs': '' }, manifestWith({}));
    const name = path.basename(dir);
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifestWith({ entry: `../${name}/index.mjs` })));
    expect(validatePluginFolder(dir).problems).toEqual([]);
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify(manifestWith({ entry: `../${name}-sibling/index.mjs` })));
    expect(validatePluginFolder(dir).problems.map((p) => p.code)).toEqual(['PATH_ESCAPES']);
  });

  it('accepts a symlink whose target stays inside the folder', () => {
    const dir = writePlugin({ 'real/index.mjs': 'export {}' }, manifestWith({ entry: 'index.mjs' }));
    fs.symlinkSync(path.join('real', 'index.mjs'), path.join(dir, 'index.mjs'));
    const result = validatePluginFolder(dir);
    expect(result.problems).toEqual([]);
    expect(result.apps[0]!.entryPath).toBe(path.join(fs.realpathSync(dir), 'index.mjs'));
  });

  it('refuses a symlinked folder that leads outside, for every file below it', () => {
    const outside = tempDir('chatos-outside-');
    fs.writeFileSync(path.join(outside, 'zh.md'), 'secret');
    const dir = writePlugin({ 'index.mjs': '' }, manifestWith({ ai: { mcpPrompt: 'prompts/zh.md' } }));
    fs.symlinkSync(outside, path.join(dir, 'prompts'));
    expect(validatePluginFolder(dir).problems.map((p) => [p.code, p.path])).toEqual([['PATH_LINK_ESCAPES', 'apps[0].ai.mcpPrompt']]);
  });

  it('reports the line and column of an ai.config JSON syntax error in that file', () => {
    const dir = writePlugin({ 'index.mjs': '', 'ai.json': '{\n  "mcpServers": ["a",]\n}\n' }, manifestWith({ ai: { config: 'ai.json' } }));
    const [problem, ...rest] = validatePluginFolder(dir).problems;
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: 'JSON_SYNTAX', file: path.join(dir, 'ai.json'), line: 2, column: 22 });
  });

  it('warns about unknown keys in the ai.config file and still uses it', () => {
    const dir = writePlugin({ 'index.mjs': '', 'ai.yaml': 'mcpServers: [a]\npromts: [b]\n' }, manifestWith({ ai: { config: 'ai.yaml' } }));
    const result = validatePluginFolder(dir);
    expect(result.valid).toBe(true);
    expect(result.problems.map((p) => [p.severity, p.code, p.path, p.file])).toEqual([['warning', 'UNKNOWN_KEY', 'promts', path.join(dir, 'ai.yaml')]]);
    expect(result.problems[0]!.message).toContain('did you mean "prompts"');
    expect(result.apps[0]!.aiConfig).toEqual({ mcpServers: ['a'] });
  });

  it('treats a bare mcpPrompt string as the zh prompt', () => {
    const dir = writePlugin({ 'index.mjs': '', 'p.md': '中文' }, manifestWith({ ai: { mcpPrompt: 'p.md' } }));
    const prompt = validatePluginFolder(dir).apps[0]!.prompt;
    expect(prompt).toEqual({ zh: { text: '中文', file: path.join(fs.realpathSync(dir), 'p.md') } });
  });

  it('reports a manifestVersion given as a string as unsupported, naming what it got', () => {
    const dir = writePlugin({ 'index.mjs': '' }, { ...manifestWith({}), manifestVersion: '1' });
    const [problem] = validatePluginFolder(dir).problems;
    expect(problem).toMatchObject({ code: 'MANIFEST_VERSION_UNSUPPORTED', path: 'manifestVersion' });
    expect(problem!.message).toContain('"1"');
  });

  it('defaults manifestVersion to 1 when it is left out', () => {
    const { manifestVersion: _omit, ...rest } = manifestWith({});
    const result = validatePluginFolder(writePlugin({ 'index.mjs': '' }, rest));
    expect(result.valid).toBe(true);
    expect(result.manifest?.manifestVersion).toBe(1);
  });
});

describe('validatePluginFolder: a valid plugin', () => {
  const result = validatePluginFolder(VALID);
  const real = fs.realpathSync(VALID);
  const at = (rel: string) => path.join(real, rel);
  const read = (rel: string) => fs.readFileSync(path.join(VALID, rel), 'utf8');

  it('has no problems at all (not even warnings)', () => {
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.dir).toBe(VALID);
    expect(result.manifestFile).toBe(path.join(VALID, 'plugin.json'));
  });

  it('keeps the manifest with its defaults filled in', () => {
    const manifest = result.manifest!;
    expect(manifest).toMatchObject({ manifestVersion: 1, id: 'com.example.tools', name: 'Example Tools', version: '1.2.3', providerAppId: 'example_provider' });
    expect(manifest.apps.map((a) => a.id)).toEqual(['db-client', 'panel']);
    expect(manifest.apps[0]!.ai!.mcp).toEqual({
      entry: 'mcp/server.mjs',
      command: 'node',
      args: ['--mode', 'read only'],
      env: { LOG_LEVEL: 'debug' },
      allowMain: true,
      allowSub: true,
      callMeta: { workdir: '$dataDir/work', project: '${projectRoot}' },
      tags: ['db'],
      enabled: true,
      permissions: {},
      // A server keeps state per conversation unless the plugin says otherwise (docs/plugins/manifest.md).
      'truely-stateless': false,
    });
    expect(manifest.apps[1]!.ai!.mcp).toMatchObject({ url: 'https://mcp.example.com/mcp', allowMain: false, allowSub: true, args: [] });
    expect(result.backendEntryPath).toBe(at('backend/main.mjs'));
  });

  it('resolves every path of the first app to an absolute file inside the folder', () => {
    const app = result.apps[0]!;
    expect(app.manifest.id).toBe('db-client');
    expect(app.entryPath).toBe(at('app/index.mjs'));
    expect(app.compactPath).toBe(at('app/compact.mjs'));
    expect(app.iconPath).toBe(at('app/icon.svg'));
    expect(app.mcpEntryPath).toBe(at('mcp/server.mjs'));
  });

  it('loads both prompt texts and where they came from', () => {
    expect(result.apps[0]!.prompt).toEqual({
      title: 'DB client',
      zh: { text: read('prompts/zh.md'), file: at('prompts/zh.md') },
      en: { text: read('prompts/en.md'), file: at('prompts/en.md') },
    });
    expect(result.apps[0]!.prompt!.zh!.text).toContain('数据库助手');
    expect(result.apps[1]!.prompt).toEqual({ title: undefined, zh: undefined, en: { text: 'Inline English prompt.' } });
  });

  it('parses the ai.config files, YAML and JSON', () => {
    expect(result.apps[0]!.aiConfig).toEqual({ mcpServers: ['project_files', 'task_manager'], prompts: false });
    expect(result.apps[1]!.aiConfig).toEqual({ prompts: true });
  });

  it('gives the second app a plain string entry and no local server', () => {
    const app = result.apps[1]!;
    expect(app.entryPath).toBe(at('app/panel.mjs'));
    expect(app.compactPath).toBeUndefined();
    expect(app.mcpEntryPath).toBeUndefined();
  });

  it('stamps every file it read, so a rescan can tell what changed', () => {
    const stamped = result.stamps.map((s) => s.path).sort();
    expect(stamped).toEqual(
      [
        path.join(VALID, 'plugin.json'),
        ...['app/index.mjs', 'app/compact.mjs', 'app/icon.svg', 'mcp/server.mjs', 'prompts/zh.md', 'prompts/en.md', 'config/ai.yaml', 'app/panel.mjs', 'config/panel.json', 'backend/main.mjs'].map(at),
      ].sort(),
    );
    expect(result.stamps.every((s) => s.ino !== -1 && s.errorCode === undefined)).toBe(true);
  });
});
