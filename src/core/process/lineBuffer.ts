/**
 * Splits a byte stream into newline-terminated lines without ever holding
 * more than `maxLineBytes` of an unfinished line: the size is checked before
 * a piece is kept, so a server that never writes a newline cannot make the
 * host buffer without bound.
 *
 * `overflow: 'skip'` (stdout): a line over the limit is not kept; its bytes
 * are counted and passed over up to its newline, keeping only its first and
 * last bytes (where a JSON-RPC message's id is), and framing goes on with
 * the next line. A line still going past `giveUpBytes` ends the stream.
 * `overflow: 'split'` (stderr): the line is cut into pieces of the limit; a
 * log loses nothing by that.
 */

/** A line over the limit, passed over: its size, and its first and last bytes (at most OVERLONG_EDGE_BYTES each). */
export interface OverlongLine {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/** How much of each end of a passed-over line is kept. */
export const OVERLONG_EDGE_BYTES = 512;

/** Past this many times the limit, a line is no answer worth waiting for: the stream is given up. */
export const GIVE_UP_FACTOR = 16;

export class LineBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  private failed = false;
  /** The line being passed over ('skip'), while its newline has not come. */
  private skipping: OverlongLine | undefined;

  constructor(
    /** The longest line kept; a stream may raise it for a while (a larger answer awaited) and lower it again. */
    public maxLineBytes: number,
    private readonly overflow: 'skip' | 'split',
    private readonly giveUpBytes = maxLineBytes * GIVE_UP_FACTOR,
  ) {
    if (!(maxLineBytes >= 1)) throw new RangeError('maxLineBytes must be at least 1');
  }

  /**
   * Feeds a chunk; calls `onLine` for every complete line (without its `\n`),
   * and ('skip') `onOverlong` for every line over the limit once it ends.
   * The line may share memory with `chunk`: decode or copy it before returning.
   * Returns false once a line went past `giveUpBytes` in 'skip' mode; later chunks are ignored.
   */
  push(chunk: Buffer, onLine: (line: Buffer) => void, onOverlong?: (line: OverlongLine) => void): boolean {
    if (this.failed) return false;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping) {
        this.passOver(this.skipping, chunk.subarray(start, end));
        if (this.skipping.bytes > this.giveUpBytes) {
          this.failed = true;
          this.skipping = undefined;
          return false;
        }
        if (newline === -1) break;
        const line = this.skipping;
        this.skipping = undefined;
        onOverlong?.(line);
        start = newline + 1;
        continue;
      }
      if (this.size + (end - start) > this.maxLineBytes) {
        if (this.overflow === 'skip') {
          // What was held of it is passed over too; the loop goes on in the skipping state from the same place.
          this.skipping = { bytes: 0, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
          if (this.size > 0) this.passOver(this.skipping, this.take());
          continue;
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

  /** Counts a piece of a passed-over line, keeping copies of its first and last bytes only. */
  private passOver(line: OverlongLine, piece: Buffer): void {
    line.bytes += piece.length;
    if (line.head.length < OVERLONG_EDGE_BYTES) line.head = Buffer.concat([line.head, piece.subarray(0, OVERLONG_EDGE_BYTES - line.head.length)]);
    const tail = Buffer.concat([line.tail, piece.subarray(Math.max(0, piece.length - OVERLONG_EDGE_BYTES))]);
    line.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - OVERLONG_EDGE_BYTES)));
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
