/**
 * One base's vectors outside the Orama index: unit-length Float32Array rows
 * in one contiguous buffer, with the chunk id of each row. A search is a
 * brute-force dot product over the buffer (cosine, the rows being
 * normalized): a few milliseconds for 10,000 × 768, and no index to rebuild
 * or rewrite. On disk (`vectors.bin`): "KBV1", the dimensions (u32 LE), then
 * one record per row: the id's length (u8), the id (UTF-8), the row (f32 LE).
 * Adding appends records; removing rewrites the file. A record cut short at
 * the end (a crash while appending) is dropped when read, and a later record
 * of an id replaces an earlier one.
 */

const MAGIC = 'KBV1';
const HEADER_BYTES = 8;

function normalized(vector: readonly number[], into: Float32Array, at: number): void {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < vector.length; i++) into[at + i] = vector[i]! * scale;
}

export class VectorRows {
  private ids: string[] = [];
  private rows: Float32Array;

  constructor(readonly dimensions: number) {
    this.rows = new Float32Array(dimensions * 16);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Appends rows (callers remove an id before adding it again); returns the bytes to append to the file. */
  add(ids: readonly string[], vectors: readonly (readonly number[])[]): Uint8Array {
    const d = this.dimensions;
    const needed = (this.ids.length + ids.length) * d;
    if (needed > this.rows.length) {
      const grown = new Float32Array(Math.max(needed, this.rows.length * 2));
      grown.set(this.rows.subarray(0, this.ids.length * d));
      this.rows = grown;
    }
    ids.forEach((id, i) => {
      const vector = vectors[i]!;
      if (vector.length !== d) throw new Error(`a vector of ${vector.length} numbers where the base holds ${d}`);
      normalized(vector, this.rows, (this.ids.length + i) * d);
    });
    const start = this.ids.length;
    this.ids.push(...ids);
    return this.recordsFrom(start);
  }

  /** Drops the rows of these ids, moving the rest together; true when any was present. */
  remove(ids: ReadonlySet<string>): boolean {
    const d = this.dimensions;
    let kept = 0;
    for (let i = 0; i < this.ids.length; i++) {
      if (ids.has(this.ids[i]!)) continue;
      if (kept !== i) {
        this.ids[kept] = this.ids[i]!;
        this.rows.copyWithin(kept * d, i * d, (i + 1) * d);
      }
      kept++;
    }
    const removed = kept !== this.ids.length;
    this.ids.length = kept;
    return removed;
  }

  /** The `limit` rows most similar to `vector` (cosine), best first. */
  search(vector: readonly number[], limit: number): { id: string; score: number }[] {
    const d = this.dimensions;
    const query = new Float32Array(d);
    normalized(vector, query, 0);
    const rows = this.rows;
    const best: { id: string; score: number }[] = [];
    for (let r = 0, at = 0; r < this.ids.length; r++, at += d) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += rows[at + i]! * query[i]!;
      if (best.length === limit && dot <= best[limit - 1]!.score) continue;
      let j = best.length < limit ? best.length : limit - 1;
      while (j > 0 && best[j - 1]!.score < dot) {
        best[j] = best[j - 1]!;
        j--;
      }
      best[j] = { id: this.ids[r]!, score: dot };
    }
    return best;
  }

  /** Each row (unit length) by its chunk's id, for moving them into a store. */
  byId(): Map<string, Float32Array> {
    const d = this.dimensions;
    return new Map(this.ids.map((id, r) => [id, this.rows.subarray(r * d, (r + 1) * d)]));
  }

  /** The whole file: header and every row. */
  toBytes(): Uint8Array {
    const header = new Uint8Array(HEADER_BYTES);
    header.set(Buffer.from(MAGIC, 'ascii'));
    new DataView(header.buffer).setUint32(4, this.dimensions, true);
    return Buffer.concat([header, this.recordsFrom(0)]);
  }

  /**
   * The rows of a file, keeping only ids `keep` accepts (the text index is
   * what holds a chunk); undefined when its header names other dimensions
   * than the base's. That is checked before anything is allocated: the
   * header is a number in a file, and rows are sized by it.
   */
  static fromBytes(bytes: Uint8Array, dimensions: number, keep: (id: string) => boolean): VectorRows | undefined {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < HEADER_BYTES || Buffer.from(bytes.subarray(0, 4)).toString('ascii') !== MAGIC) throw new Error('not a vectors file (no KBV1 header)');
    const d = view.getUint32(4, true);
    if (d !== dimensions) return undefined;
    const byId = new Map<string, number>();
    for (let at = HEADER_BYTES; at < bytes.byteLength;) {
      const length = bytes[at]!;
      const end = at + 1 + length + d * 4;
      if (end > bytes.byteLength) break;
      byId.set(Buffer.from(bytes.subarray(at + 1, at + 1 + length)).toString('utf8'), at + 1 + length);
      at = end;
    }
    const rows = new VectorRows(d);
    const ids = [...byId.keys()].filter(keep);
    rows.rows = new Float32Array(Math.max(ids.length, 16) * d);
    ids.forEach((id, r) => {
      const at = byId.get(id)!;
      for (let i = 0; i < d; i++) rows.rows[r * d + i] = view.getFloat32(at + i * 4, true);
    });
    rows.ids = ids;
    return rows;
  }

  private recordsFrom(start: number): Uint8Array {
    const d = this.dimensions;
    const parts: Buffer[] = [];
    for (let r = start; r < this.ids.length; r++) {
      const id = Buffer.from(this.ids[r]!, 'utf8');
      if (id.length > 255) throw new Error(`chunk id too long for the vectors file: ${this.ids[r]}`);
      const record = Buffer.alloc(1 + id.length + d * 4);
      record[0] = id.length;
      id.copy(record, 1);
      for (let i = 0; i < d; i++) record.writeFloatLE(this.rows[r * d + i]!, 1 + id.length + i * 4);
      parts.push(record);
    }
    return Buffer.concat(parts);
  }
}
