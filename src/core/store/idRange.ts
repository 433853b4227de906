/**
 * The smallest string greater than every string that starts with `prefix`,
 * so `prefix <= id < bound` selects exactly the ids with that prefix and
 * SQLite answers it from the primary-key index. SQLite's BINARY collation
 * compares UTF-8 bytes, which orders like code points, so we bump the last
 * code point (dropping trailing U+10FFFF, which has no successor).
 * `undefined` means no upper bound.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Surrogate code points cannot be stored as UTF-8; the next real one is U+E000.
      const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}
