import { describe, expect, it } from 'vitest';
import { LineBuffer } from '../../../src/core/process/lineBuffer.js';

function feed(buffer: LineBuffer, chunks: string[]): { lines: string[]; ok: boolean[] } {
  const lines: string[] = [];
  const ok = chunks.map((chunk) => buffer.push(Buffer.from(chunk), (line) => lines.push(line.toString())));
  return { lines, ok };
}

describe('LineBuffer', () => {
  it('joins lines across chunks and splits several in one chunk', () => {
    const buffer = new LineBuffer(100, 'fail');
    expect(feed(buffer, ['{"a":', '1}\n{"b":2}\n{"c"', ':3}\n\n'])).toEqual({ lines: ['{"a":1}', '{"b":2}', '{"c":3}', ''], ok: [true, true, true] });
    expect(buffer.pendingBytes).toBe(0);
  });

  it("'fail': a line over the limit ends the stream, and never holds more than the limit", () => {
    const buffer = new LineBuffer(10, 'fail');
    const lines: string[] = [];
    expect(buffer.push(Buffer.from('0123456789'), (line) => lines.push(line.toString()))).toBe(true);
    expect(buffer.pendingBytes).toBe(10);
    expect(buffer.push(Buffer.from('x'), (line) => lines.push(line.toString()))).toBe(false);
    expect(buffer.pendingBytes).toBe(0);
    expect(buffer.push(Buffer.from('ok\n'), (line) => lines.push(line.toString()))).toBe(false);
    expect(lines).toEqual([]);
  });

  it("'fail': a complete line over the limit within one chunk fails too, after the lines before it", () => {
    const buffer = new LineBuffer(5, 'fail');
    expect(feed(buffer, ['ok\ntoo long\n'])).toEqual({ lines: ['ok'], ok: [false] });
  });

  it("'split': a long line comes out in pieces of the limit", () => {
    const buffer = new LineBuffer(4, 'split');
    expect(feed(buffer, ['abcdefghij', 'k\nxy'])).toEqual({ lines: ['abcd', 'efgh', 'ijk'], ok: [true, true] });
    expect(buffer.flush()?.toString()).toBe('xy');
    expect(buffer.flush()).toBeUndefined();
  });
});
