import { describe, expect, it } from 'vitest';
import { prefixUpperBound } from '../../../src/core/store/idRange.js';

/** Code-point (= UTF-8 byte = SQLite BINARY) order, which plain JS `<` is not for astral characters. */
function codePointLess(a: string, b: string): boolean {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return x.length < y.length;
}

describe('prefixUpperBound', () => {
  it('bumps the last code point', () => {
    expect(prefixUpperBound('app::')).toBe('app:;');
    expect(prefixUpperBound('a')).toBe('b');
  });

  it('carries over U+10FFFF and skips the surrogate range', () => {
    expect(prefixUpperBound('a\u{10FFFF}')).toBe('b');
    expect(prefixUpperBound('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
    expect(prefixUpperBound('x\uD7FF')).toBe('x\uE000');
  });

  it('bounds exactly the strings with the prefix', () => {
    const prefix = 'ab';
    const bound = prefixUpperBound(prefix)!;
    for (const s of ['ab', 'ab\0', 'abz', 'ab\u{10FFFF}\u{10FFFF}', 'ab\uFFFF']) {
      expect(!codePointLess(s, prefix) && codePointLess(s, bound)).toBe(true);
    }
    for (const s of ['a', 'aa\u{10FFFF}', 'ac', 'b', 'a\u{10FFFF}']) {
      expect(!codePointLess(s, prefix) && codePointLess(s, bound)).toBe(false);
    }
  });
});
