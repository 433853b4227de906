import { describe, expect, it } from 'vitest';
import { PluginManifestSchema } from '../../../src/core/plugins/manifestSchema.js';
import { closestKey, editDistance, findUnknownKeys } from '../../../src/core/problems/unknownKeys.js';

describe('editDistance', () => {
  it.each([
    ['entry', 'entry', 0],
    ['entyr', 'entry', 1], // adjacent transposition is one edit
    ['entr', 'entry', 1],
    ['enntry', 'entry', 1],
    ['emtry', 'entry', 1],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: no edit of a transposed pair
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closestKey', () => {
  const appKeys = ['id', 'name', 'description', 'icon', 'entry', 'ai'];
  it.each([
    ['entyr', 'entry'],
    ['Entry', 'entry'],
    ['descripton', 'description'],
    ['ids', 'id'],
    ['zzzzz', undefined],
    ['backend', undefined],
  ])('%s → %s', (key, expected) => {
    expect(closestKey(key, appKeys)).toBe(expected);
  });
});

describe('findUnknownKeys', () => {
  const manifest = (app: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    id: 'p',
    name: 'P',
    version: '1',
    ...extra,
    apps: [{ id: 'a', name: 'A', entry: 'i.mjs', ...app }],
  });
  const found = (value: unknown) => findUnknownKeys(PluginManifestSchema, value, '/p/plugin.json').map((p) => [p.severity, p.code, p.path, p.message]);

  it('finds keys at every depth, through optional, default and refined schemas', () => {
    expect(found(manifest({ ai: { mcp: { entry: 'm.mjs', allowmain: true }, mcpPrompt: { zh: { path: 'z.md', tilte: 'x' } } } }, { backend: { entry: 'b.mjs', extra: 1 }, versoin: '2' }))).toEqual([
      ['warning', 'UNKNOWN_KEY', 'backend.extra', 'unknown key "extra" is ignored'],
      ['warning', 'UNKNOWN_KEY', 'versoin', 'unknown key "versoin" is ignored; did you mean "version"?'],
      ['warning', 'UNKNOWN_KEY', 'apps[0].ai.mcp.allowmain', 'unknown key "allowmain" is ignored; did you mean "allowMain"?'],
      ['warning', 'UNKNOWN_KEY', 'apps[0].ai.mcpPrompt.zh.tilte', 'unknown key "tilte" is ignored'],
    ]);
  });

  it('follows the object form of an entry', () => {
    expect(found(manifest({ entry: { type: 'module', path: 'i.mjs', compakt: 'c.mjs' } }))).toEqual([
      ['warning', 'UNKNOWN_KEY', 'apps[0].entry.compakt', 'unknown key "compakt" is ignored; did you mean "compact"?'],
    ]);
  });

  it('ignores $schema and // comments, and keys with odd characters get a quoted path', () => {
    const problems = findUnknownKeys(PluginManifestSchema, { ...manifest({}), $schema: 'x', '// note': 'y', 'a b': 1 }, '/p/plugin.json');
    expect(problems.map((p) => p.path)).toEqual(['["a b"]']);
    expect(problems[0]!.hint).toContain('known keys here: manifestVersion, id, name');
  });

  it('names the reference its caller passes in the hint, and none when it passes none (mcp.yaml is no manifest)', () => {
    const value = { ...manifest({}), zzz: 1 };
    expect(findUnknownKeys(PluginManifestSchema, value, '/p/plugin.json', { reference: 'the manifest reference' })[0]!.hint).toMatch(
      /^remove "zzz" or check the manifest reference; known keys here: /,
    );
    expect(findUnknownKeys(PluginManifestSchema, value, '/p/plugin.json')[0]!.hint).toMatch(/^remove "zzz"; known keys here: /);
    expect(findUnknownKeys(PluginManifestSchema, { zzz: 1 }, '/c/mcp.yaml', { at: ['servers', 'a'] })[0]!.path).toBe('servers.a.zzz');
  });

  it('reports nothing for a manifest that only uses known keys', () => {
    expect(found(manifest({ icon: 'x.svg', ai: { mcp: { url: 'http://x' }, mcpServers: true, prompts: ['a'] } }))).toEqual([]);
  });
});
