/**
 * Splits a byte stream into newline-terminated lines without ever holding
 * more than `maxLineBytes` of an unfinished line: the size is checked before
 * a piece is kept, so a server that never writes a newline cannot make the
 * host buffer without bound.
 *
 * `overflow: 'fail'` (stdout): a line over the limit ends the stream, since
 * JSON-RPC framing is lost. `overflow: 'split'` (stderr): the line is cut into
 * pieces of the limit; a log loses nothing by that.
 */
export class LineBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  private failed = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly overflow: 'fail' | 'split',
  ) {
    if (!(maxLineBytes >= 1)) throw new RangeError('maxLineBytes must be at least 1');
  }

  /**
   * Feeds a chunk; calls `onLine` for every complete line (without its `\n`).
   * The line may share memory with `chunk`: decode or copy it before returning.
   * Returns false once a line overflowed in 'fail' mode; later chunks are ignored.
   */
  push(chunk: Buffer, onLine: (line: Buffer) => void): boolean {
    if (this.failed) return false;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.size + (end - start) > this.maxLineBytes) {
        if (this.overflow === 'fail') {
          this.failed = true;
          this.parts = [];
          this.size = 0;
          return false;
        }
        const room = this.maxLineBytes - this.size;
        this.keep(chunk.subarray(start, start + room));
        onLine(this.take());
        start += room;
        continue;
      }
      if (newline === -1) {
        this.keep(chunk.subarray(start, end));
        break;
      }
      // A line wholly inside this chunk needs no copy: callers decode it at once.
      if (this.size === 0) onLine(chunk.subarray(start, end));
      else {
        this.keep(chunk.subarray(start, end));
        onLine(this.take());
      }
      start = newline + 1;
    }
    return true;
  }

  /** The unfinished line, if any (for the end of a stream); clears it. */
  flush(): Buffer | undefined {
    return this.size > 0 ? this.take() : undefined;
  }

  /** Bytes of the unfinished line held now. */
  get pendingBytes(): number {
    return this.size;
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0) return;
    // Copy: a subarray would pin the whole (up to 64 KiB) chunk it came from.
    this.parts.push(Buffer.from(piece));
    this.size += piece.length;
  }

  private take(): Buffer {
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return line;
  }
}
