import { describe, expect, it } from 'vitest';
import { LineBuffer, OVERLONG_EDGE_BYTES, type OverlongLine } from '../../../src/core/process/lineBuffer.js';

function feed(buffer: LineBuffer, chunks: string[]): { lines: string[]; ok: boolean[] } {
  const lines: string[] = [];
  const ok = chunks.map((chunk) => buffer.push(Buffer.from(chunk), (line) => lines.push(line.toString())));
  return { lines, ok };
}

describe('LineBuffer', () => {
  it('joins lines across chunks and splits several in one chunk', () => {
    const buffer = new LineBuffer(100, 'skip');
    expect(feed(buffer, ['{"a":', '1}\n{"b":2}\n{"c"', ':3}\n\n'])).toEqual({ lines: ['{"a":1}', '{"b":2}', '{"c":3}', ''], ok: [true, true, true] });
    expect(buffer.pendingBytes).toBe(0);
  });

  it("'skip': a line over the limit is passed over to its newline, keeping only its ends, and framing goes on", () => {
    const buffer = new LineBuffer(10, 'skip');
    const lines: string[] = [];
    const overlong: { bytes: number; head: string; tail: string }[] = [];
    const push = (chunk: string) =>
      buffer.push(
        Buffer.from(chunk),
        (line) => lines.push(line.toString()),
        (line) => overlong.push({ bytes: line.bytes, head: line.head.toString(), tail: line.tail.toString() }),
      );
    expect(push('ok\n0123456789')).toBe(true);
    expect(buffer.pendingBytes).toBe(10);
    // The held part is no longer held once the line is known to be over the limit.
    expect(push('abc')).toBe(true);
    expect(buffer.pendingBytes).toBe(0);
    expect(push('def\nnext\n')).toBe(true);
    expect(lines).toEqual(['ok', 'next']);
    expect(overlong).toEqual([{ bytes: 16, head: '0123456789abcdef', tail: '0123456789abcdef' }]);
  });

  it("'skip': the ends kept of a long line are its first and last OVERLONG_EDGE_BYTES", () => {
    const buffer = new LineBuffer(1_000, 'skip');
    const seen: OverlongLine[] = [];
    const body = `{"id":7,${'x'.repeat(5_000)},"end":1}`;
    for (let i = 0; i < body.length; i += 333)
      buffer.push(
        Buffer.from(body.slice(i, i + 333)),
        () => undefined,
        (line) => seen.push(line),
      );
    buffer.push(
      Buffer.from('\n'),
      () => undefined,
      (line) => seen.push(line),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bytes).toBe(body.length);
    expect(seen[0]!.head.toString()).toBe(body.slice(0, OVERLONG_EDGE_BYTES));
    expect(seen[0]!.tail.toString()).toBe(body.slice(-OVERLONG_EDGE_BYTES));
  });

  it("'skip': a line past giveUpBytes ends the stream, never holding more than the limit", () => {
    const buffer = new LineBuffer(10, 'skip', 40);
    expect(feed(buffer, ['x'.repeat(30), 'x'.repeat(30), 'ok\n'])).toEqual({ lines: [], ok: [true, false, false] });
    expect(buffer.pendingBytes).toBe(0);
  });

  it("'split': a long line comes out in pieces of the limit", () => {
    const buffer = new LineBuffer(4, 'split');
    expect(feed(buffer, ['abcdefghij', 'k\nxy'])).toEqual({ lines: ['abcd', 'efgh', 'ijk'], ok: [true, true] });
    expect(buffer.flush()?.toString()).toBe('xy');
    expect(buffer.flush()).toBeUndefined();
  });
});
