import { describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../../src/core/mcp/config/mcpConfigLoader.js';
import { parseByExtension, parseYamlText } from '../../../src/core/problems/textFiles.js';
import { ALIAS_EXPANSION_LIMIT, loadYaml } from '../../../src/core/problems/yamlLoader.js';
import { aliasBomb, anchorLine } from '../../helpers/aliasBomb.js';

/** What the aliases of aliasBomb add, in the loader's units (a node, plus the characters of a string), line by line until past the limit: the level that passes it. */
function levelPassingLimit(): number {
  let cost = 1 + 9 * (1 + 8); // a0: a list of nine 8-character strings
  let added = 0;
  for (let level = 1; ; level++) {
    // Each of the nine aliases on this line adds the level above; the refusal comes at the first that passes.
    for (let alias = 0; alias < 9; alias++) {
      added += cost;
      if (added > ALIAS_EXPANSION_LIMIT) return level;
    }
    cost = 1 + 9 * cost;
  }
}

describe('YAML aliases are bounded before anything walks them', () => {
  it('an alias bomb in mcp.yaml is refused at the alias that passes the bound, naming the file, the line and the fix', () => {
    const load = parseMcpConfig(aliasBomb(10), '/home/me/.chatos/chatos/mcp.yaml', {});
    expect(load.kind).toBe('rejected');
    const [problem] = load.kind === 'rejected' ? load.problems : [];
    expect(problem).toMatchObject({ severity: 'error', code: 'YAML_ALIAS_EXPANSION', file: '/home/me/.chatos/chatos/mcp.yaml', line: anchorLine(levelPassingLimit()) });
    expect(problem!.message).toContain(`line ${anchorLine(levelPassingLimit())}`);
    expect(problem!.hint).toContain('write the values out');
  });

  it('counts without expanding: 30 levels (9^30 leaves, never to be walked) stop at the same alias as 10', () => {
    const ten = parseYamlText(aliasBomb(10), 'ten.yaml');
    const thirty = parseYamlText(aliasBomb(30), 'thirty.yaml');
    expect(ten.ok || thirty.ok).toBe(false);
    if (ten.ok || thirty.ok) return;
    expect(thirty.problem.code).toBe('YAML_ALIAS_EXPANSION');
    expect(thirty.problem.line).toBe(ten.problem.line);
    // Wherever the aliases sit (a map's values too), and for every file read this way.
    const inEnv = parseByExtension(aliasBomb(30, 'env'), 'expose.yml');
    expect(inEnv.ok ? undefined : inEnv.problem.code).toBe('YAML_ALIAS_EXPANSION');
  });

  it('a long string repeated by aliases counts its characters', () => {
    const text = `big: &big "${'x'.repeat(200_000)}"\nlist: [${Array(6).fill('*big').join(', ')}]\n`;
    const parsed = parseYamlText(text, 'strings.yaml');
    expect(parsed.ok ? undefined : parsed.problem).toMatchObject({ code: 'YAML_ALIAS_EXPANSION', line: 2 });
  });

  it('an alias inside the node it names is a cycle, refused with its line', () => {
    const parsed = parseYamlText('version: 1\nloop: &loop\n  - 1\n  - *loop\n', 'cycle.yaml');
    expect(parsed.ok ? undefined : parsed.problem).toMatchObject({ code: 'YAML_ALIAS_CYCLE', line: 4 });
  });

  it('a chain of aliases nesting past the depth bound is refused, not a stack overflow later', () => {
    const lines = ['c0: &c0 [end]'];
    for (let i = 1; i < 300; i++) lines.push(`c${i}: &c${i} [*c${i - 1}]`);
    const parsed = parseYamlText(`${lines.join('\n')}\n`, 'chain.yaml');
    expect(parsed.ok ? undefined : parsed.problem.code).toBe('YAML_ALIAS_TOO_DEEP');
  });

  it('the aliases a config uses (a shared env, a merge key) read as before', () => {
    const text = 'shared: &shared { LOG: info, MODE: fast }\nbase: &base { command: node }\nservers:\n  a: { <<: *base, env: *shared }\n  b: { <<: *base, env: *shared, args: [x] }\n';
    expect(loadYaml(text)).toEqual({
      shared: { LOG: 'info', MODE: 'fast' },
      base: { command: 'node' },
      servers: { a: { command: 'node', env: { LOG: 'info', MODE: 'fast' } }, b: { command: 'node', env: { LOG: 'info', MODE: 'fast' }, args: ['x'] } },
    });
  });
});
