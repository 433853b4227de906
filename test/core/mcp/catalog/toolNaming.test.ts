import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyTransforms, isValidToolName, mayProduceName, toolNameFault, toolNameFor } from '../../../../src/core/mcp/catalog/toolNaming.js';
import type { Transform } from '../../../../src/shared/mcp.js';

describe('applyTransforms', () => {
  // [rule, raw, transforms, result]
  const cases: [string, string, Transform[], string][] = [
    ['no transforms', 'click', [], 'click'],
    ['prefix prepends', 'browser_click', [{ prefix: 'playwright_' }], 'playwright_browser_click'],
    ['prefix prepends even when already there', 'pw_click', [{ prefix: 'pw_' }], 'pw_pw_click'],
    ['prefix {remove, add} replaces a leading match', 'stock_prefix_search', [{ prefix: { remove: 'stock_prefix_', add: 'my_prefix_' } }], 'my_prefix_search'],
    ['prefix {remove, add} adds when the prefix is absent', 'search', [{ prefix: { remove: 'stock_prefix_', add: 'my_prefix_' } }], 'my_prefix_search'],
    ['prefix {remove} removes only at the start', 'a_stock_x', [{ prefix: { remove: 'stock_', add: '' } }], 'a_stock_x'],
    ['prefix {remove} removes once', 'x_x_tool', [{ prefix: { remove: 'x_', add: '' } }], 'x_tool'],
    ['prefix {add} alone prepends', 'tool', [{ prefix: { remove: '', add: 'n_' } }], 'n_tool'],
    ['suffix appends', 'browser_click', [{ suffix: '_playwright' }], 'browser_click_playwright'],
    [
      'in order: the documented list',
      'stock_prefix_x',
      [{ prefix: 'playwright_' }, { prefix: { remove: 'stock_prefix_', add: 'my_prefix_' } }, { suffix: '_playwright' }],
      'my_prefix_playwright_stock_prefix_x_playwright',
    ],
    ['in order: remove sees earlier prefixes', 'x', [{ prefix: 'old_' }, { prefix: { remove: 'old_', add: 'new_' } }], 'new_x'],
  ];
  it.each(cases)('%s', (_rule, raw, transforms, result) => {
    expect(applyTransforms(raw, transforms)).toBe(result);
  });
});

describe('toolNameFor', () => {
  it('the Playwright example of docs/rules/mcp-yaml.md#tool-names-and-transforms gives playwright_browser_click', () => {
    expect(toolNameFor({ name: 'playwright', transform: [{ prefix: 'playwright_' }] }, 'browser_click')).toEqual({ ok: true, name: 'playwright_browser_click' });
  });

  // [rule, server name, raw, name]
  const defaults: [string, string, string, string][] = [
    ['a plain server', 'playwright', 'browser_click', 'mcp_playwright_browser_click'],
    ['a plugin server name is normalized', 'com.example.Tools.db-client', 'query', 'mcp_com_example_tools_db-client_query'],
    ['the tool part is kept as is', 'git', 'Status-Long', 'mcp_git_Status-Long'],
  ];
  it.each(defaults)('default naming (docs/rules/names-and-exposure.md#derived-names): %s', (_rule, serverName, raw, name) => {
    expect(toolNameFor({ name: serverName, transform: [] }, raw)).toEqual({ ok: true, name });
  });

  it('an empty transform list means the default name, not the raw one', () => {
    expect(toolNameFor({ name: 's', transform: [] }, 'x')).toEqual({ ok: true, name: 'mcp_s_x' });
  });

  it('a transform replaces the default naming entirely', () => {
    expect(toolNameFor({ name: 's', transform: [{ suffix: '_s' }] }, 'x')).toEqual({ ok: true, name: 'x_s' });
  });

  // [rule, server name, transforms, raw, fragment of the reason]
  const invalid: [string, string, Transform[], string, string][] = [
    ['a raw name with a dot', 's', [], 'browser.click', 'contains "."'],
    ['a raw name with a space', 's', [], 'open file', 'contains " "'],
    ['a raw name with a slash', 's', [{ prefix: 'p_' }], 'fs/read', 'contains "/"'],
    ['a non-ASCII raw name', 's', [], 'suche_ä', 'contains "ä"'],
    ['an empty raw name', 's', [], '', 'is empty'],
    ['a raw name of 65 characters', 's', [{ prefix: { remove: 'x', add: '' } }], 'x'.repeat(65), 'is 65 characters long'],
    ['a final name over 64 by default naming', 's', [], 'a'.repeat(60), 'is 66 characters long'],
    ['a final name over 64 after a transform', 's', [{ prefix: 'playwright_' }], 'b'.repeat(60), 'is 71 characters long'],
    ['a final name with a bad character from a transform', 's', [{ prefix: 'pw.' }], 'click', 'contains "."'],
    ['a transform that empties the name', 's', [{ prefix: { remove: 'click', add: '' } }], 'click', 'is empty'],
  ];
  it.each(invalid)('rejects %s, never renaming it', (_rule, serverName, transform, raw, fragment) => {
    const result = toolNameFor({ name: serverName, transform }, raw);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(fragment);
  });

  it('says whether the raw or the final name is at fault', () => {
    const raw = toolNameFor({ name: 's', transform: [] }, 'a.b');
    const final = toolNameFor({ name: 's', transform: [{ prefix: 'p.' }] }, 'ab');
    expect(!raw.ok && raw.reason).toContain(`the server's tool name "a.b"`);
    expect(!final.ok && final.reason).toContain(`"p.ab" it gets after the server's transform`);
  });

  it('64 characters is the limit', () => {
    const ok = toolNameFor({ name: 's', transform: [] }, 'a'.repeat(58));
    expect(ok).toEqual({ ok: true, name: `mcp_s_${'a'.repeat(58)}` });
    expect(ok.ok && ok.name).toHaveLength(64);
    expect(toolNameFor({ name: 's', transform: [] }, 'a'.repeat(59)).ok).toBe(false);
  });
});

describe('isValidToolName / toolNameFault', () => {
  it.each([
    ['a', true],
    ['A-z_0-9', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['a.b', false],
    ['a b', false],
    ['a:b', false],
    ['名字', false],
  ])('%j valid: %s', (name, valid) => {
    expect(isValidToolName(name)).toBe(valid);
    expect(toolNameFault(name) === undefined).toBe(valid);
  });

  it('names every fault at once', () => {
    expect(toolNameFault(`${'a'.repeat(70)}.:`)).toBe('is 72 characters long (at most 64) and contains ".", ":" (only ASCII letters, digits, "_" and "-" are allowed)');
  });
});

describe('mayProduceName', () => {
  it.each<[string, Transform[], boolean]>([
    ['ev_echo', [{ prefix: 'ev_' }], true],
    ['mcp_echo_echo', [{ prefix: 'ev_' }], false],
    ['ev_', [{ prefix: 'ev_' }], false],
    ['echo_x', [{ suffix: '_x' }], true],
    ['echo_y', [{ suffix: '_x' }], false],
    ['everything_echo', [{ prefix: { remove: 'ev_', add: 'everything_' } }], true],
    ['echo', [{ prefix: { remove: 'ev_', add: '' } }], true],
    ['anything', [], true],
  ])('%j from %j: %s', (name, transforms, possible) => {
    expect(mayProduceName(name, transforms)).toBe(possible);
  });

  it('is true of every name the transforms make from a raw name', () => {
    const part = fc.string({ unit: fc.constantFrom('a', 'b', '_'), maxLength: 4 });
    const transform = fc.oneof(
      part.map((prefix): Transform => ({ prefix })),
      part.map((suffix): Transform => ({ suffix })),
      fc.tuple(part, part).map(([remove, add]): Transform => ({ prefix: { remove, add } })),
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '_'), minLength: 1, maxLength: 6 }), fc.array(transform, { maxLength: 4 }), (raw, transforms) => {
        expect(mayProduceName(applyTransforms(raw, transforms), transforms)).toBe(true);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
