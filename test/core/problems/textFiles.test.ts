import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, lineColumnAt, parseJsonText, parseYamlText, parseByExtension } from '../../../src/core/problems/textFiles.js';

/** Where V8 itself puts the error, when its message says. */
function v8Offset(text: string): number | undefined {
  try {
    JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    return position ? Number(position[1]) : undefined;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be invalid`);
}

describe('lineColumnAt', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nbc', 2, 2, 1],
    ['a\nbc', 3, 2, 2],
    ['a\n\n', 3, 3, 1],
    ['ab', 99, 1, 3],
  ])('%j at %i is line %i, column %i', (text, offset, line, column) => {
    expect(lineColumnAt(text, offset)).toEqual({ line, column });
  });
});

describe('JSON syntax errors', () => {
  // [text, line, column of the offending character]
  const cases: [string, number, number][] = [
    ['[1,]', 1, 4], // V8 gives no position for this one
    ['{"a": }', 1, 7], // nor for this one
    ['{"a": undefined}', 1, 7],
    ['{\n  "apps": [\n    {},\n  ]\n}', 4, 3],
    ['{\n  "a": 1,\n}', 3, 1],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3],
    ['{"a": 1}}', 1, 9],
    ['{"a": [1 2]}', 1, 10],
    ["{'a': 1}", 1, 2],
    ['{"a": "x\ny"}', 1, 9],
    ['{"a": "\\q"}', 1, 9],
    ['{"a":', 1, 6],
    ['', 1, 1],
  ];

  it.each(cases)('%j fails at line %i, column %i', (text, line, column) => {
    const parsed = parseJsonText(text, '/p/plugin.json');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem).toMatchObject({ severity: 'error', code: 'JSON_SYNTAX', file: '/p/plugin.json', path: '', line, column });
    expect(parsed.problem.message).toContain(`line ${line}, column ${column}`);
    // The reason stays; the source text V8 quotes in some messages does not.
    expect(parsed.problem.message).not.toContain('is not valid JSON');
    expect(parsed.problem.message).not.toMatch(/position \d+/);
  });

  it.each(cases.filter(([text]) => v8Offset(text) !== undefined))('the fallback scan agrees with V8 on %j', (text) => {
    expect(jsonErrorOffset(text)).toBe(v8Offset(text));
  });

  it('reports the end of the text for valid JSON, and for nesting too deep to scan', () => {
    expect(jsonErrorOffset('{"a": [1, 2, {"b": null}]}')).toBe(26);
    const deep = '['.repeat(200_000);
    expect(jsonErrorOffset(deep)).toBe(deep.length);
  });

  it('skips a byte order mark', () => {
    const parsed = parseJsonText('\uFEFF{"a": 1}', 'x.json');
    expect(parsed).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe('YAML', () => {
  it('reports line and column (1-based) of a syntax error', () => {
    const parsed = parseYamlText('mcpServers:\n  - a\n - b\n', '/p/ai.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem).toMatchObject({ code: 'YAML_SYNTAX', file: '/p/ai.yaml', line: 3, column: 2 });
  });

  it('reads an empty file as an empty object', () => {
    expect(parseYamlText('', 'a.yaml')).toEqual({ ok: true, value: {} });
  });

  it('picks the parser by extension', () => {
    expect(parseByExtension('a: 1', 'x.yml')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseByExtension('a: 1', 'x.JSON').ok).toBe(false);
    expect(parseByExtension('{"a": 1}', 'x.json')).toEqual({ ok: true, value: { a: 1 } });
  });
});
