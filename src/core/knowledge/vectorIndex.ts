import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { CONNECTIVITY, graphFileProblem } from './graphFile.js';

/**
 * A base's vectors for search, beside the SQLite store that holds them
 * (store.ts keeps every row's float32 vector, the truth): an HNSW graph
 * (usearch) of the rows up to a sequence number, in a file named
 * `ann-<epoch>-<upto>.usearch` and memory-mapped on open (`view`), so
 * opening reads nothing but the rows added since (the "tail", at most
 * FOLD_AT of them), searched exactly. When the tail reaches FOLD_AT rows it
 * is folded into a new graph file, written beside the old one and renamed
 * into place: the graph is a cache, rebuilt from the store when it is
 * missing, broken, or of another epoch (re-embedded vectors), so no crash
 * can leave it describing other vectors than the store's.
 *
 * Vectors are kept in the graph as float16 (half of float32's memory:
 * 100,000 × 768 is 154 MB rather than 307 MB, mapped, not read); the
 * candidates it finds are scored again exactly from the store's float32
 * rows by the caller. int8 lost half the recall on embeddings whose values
 * are small (768 dimensions of unit length), so it is not used. A search
 * explores 512 candidates (expansion_search): on the bench's near-random
 * vectors, the worst case for a graph, 96 found 0.66 of the exact top 10,
 * 512 found 0.94 (6,000 rows, measured with this package).
 *
 * Each node links to CONNECTIVITY (32) others, 64 at the base level. With 16
 * the graph held at 6,000 rows but not as it grew: recall@10 fell to 0.85 at
 * 20,000 near-random rows and 0.46 at 100,000 (the scale bench, whose rows
 * also repeat each text about ten times, and each copy takes a link of its
 * twins). A wider search (1,024) only bought back part of it at twice the
 * cost per query; 32 links gave 0.97 at 20,000 (test/core/knowledge/
 * knowledgeRecall.test.ts), 0.59-0.73 at the bench's 100,000 (ten copies of
 * each text: still short). A graph file of another connectivity is refused
 * by graphFile.ts and rebuilt from the store, as any stale cache.
 */

/** Rows searched exactly before they are folded into the graph: about 3 ms for 4,096 × 768. */
export const FOLD_AT = 4096;
const FILE = /^ann-(\d+)-(\d+)\.usearch$/;

export interface Nearest {
  seq: number;
  score: number;
}

/** A graph node found: the key of a distinct vector (vectorKey), its score from the graph's float16 copy. */
export interface NodeHit {
  key: bigint;
  score: number;
}

/** A row of the store as the vector side sees it: its sequence number, its vector's key, the vector (unit length). */
export interface KeyedRow {
  seq: number;
  key: bigint;
  vector: Float32Array;
}

/** Unit length, in place: cosine becomes a dot product. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/**
 * The key of a vector in the graph: 63 bits of the SHA-256 of its float32
 * bytes (unit length). Rows holding the same vector (the same text, added
 * again, in another file, or many times over) share one graph node: HNSW
 * links each node to its nearest, and a thousand identical twins would link
 * only to each other, cutting the rest of the graph off from them. Two
 * different vectors meet on one key about once in 10^7 bases of a million
 * vectors; the graph then holds the first, and the other's rows are still
 * scored exactly whenever it is found.
 */
export function vectorKey(vector: Float32Array): bigint {
  const digest = createHash('sha256')
    .update(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength))
    .digest();
  return digest.readBigUInt64LE(0) >> 1n;
}

/** Candidates a search keeps while walking the graph (see above). */
const EXPANSION_SEARCH = 512;

const newGraph = (dimensions: number) =>
  new Index({ dimensions, metric: MetricKind.Cos, quantization: ScalarKind.F16, connectivity: CONNECTIVITY, expansion_add: 128, expansion_search: EXPANSION_SEARCH, multi: false });

export class VectorIndex {
  private graph: Index | null = null;
  /** The distinct vectors not yet in the graph: their keys (in `tailKeys` order) and rows. */
  private tailKeys: bigint[] = [];
  private readonly tailKeySet = new Set<bigint>();
  private tailRows: Float32Array;
  /** The last sequence number seen (in the graph, or after it). */
  private lastSeq: number;

  private constructor(
    private readonly folder: string,
    readonly dimensions: number,
    private readonly epoch: number,
    /** The last sequence number the graph holds (0: no graph). */
    private upto: number,
  ) {
    this.tailRows = new Float32Array(dimensions * 64);
    this.lastSeq = upto;
  }

  /** The newest graph file of this epoch that maps, and the store's rows after it (`rowsAfter`). */
  static open(folder: string, dimensions: number, epoch: number, rowsAfter: (seq: number) => Iterable<KeyedRow>): VectorIndex {
    const files = graphFiles(folder)
      .filter((f) => f.epoch === epoch)
      .sort((a, b) => b.upto - a.upto);
    let index = new VectorIndex(folder, dimensions, epoch, 0);
    for (const file of files) {
      try {
        // Mapped only once it is a regular file whose layout adds up: usearch trusts what it maps.
        if (graphFileProblem(path.join(folder, file.name), dimensions, file.upto) !== undefined) continue;
        const graph = newGraph(dimensions);
        graph.view(path.join(folder, file.name));
        if (graph.dimensions() !== dimensions) continue;
        index = new VectorIndex(folder, dimensions, epoch, file.upto);
        index.graph = graph;
        break;
      } catch {
        // A graph cut short or not usearch's: the store still holds its rows, searched as the tail until the next fold.
      }
    }
    for (const row of rowsAfter(index.upto)) index.append([row]);
    return index;
  }

  /** Distinct vectors waiting for the next fold. */
  get tailSize(): number {
    return this.tailKeys.length;
  }

  /** Rows just committed to the store (normalized float32); a vector the graph or the tail already holds is not added twice. */
  append(rows: readonly KeyedRow[]): void {
    const d = this.dimensions;
    for (const row of rows) {
      this.lastSeq = Math.max(this.lastSeq, row.seq);
      if (this.tailKeySet.has(row.key) || (this.graph !== null && this.graph.contains(row.key) === true)) continue;
      const at = this.tailKeys.length * d;
      if (at + d > this.tailRows.length) {
        const grown = new Float32Array(Math.max(at + d, this.tailRows.length * 2));
        grown.set(this.tailRows.subarray(0, at));
        this.tailRows = grown;
      }
      this.tailRows.set(row.vector, at);
      this.tailKeys.push(row.key);
      this.tailKeySet.add(row.key);
    }
  }

  /** Vectors no row of the store holds any more: gone from the tail; the graph keeps them until a fold, and the caller drops what the store no longer has. */
  forget(keys: ReadonlySet<bigint>): void {
    const d = this.dimensions;
    let kept = 0;
    for (let i = 0; i < this.tailKeys.length; i++) {
      const key = this.tailKeys[i]!;
      if (keys.has(key)) {
        this.tailKeySet.delete(key);
        continue;
      }
      if (kept !== i) {
        this.tailKeys[kept] = key;
        this.tailRows.copyWithin(kept * d, i * d, (i + 1) * d);
      }
      kept++;
    }
    this.tailKeys.length = kept;
  }

  /** About the `limit` nearest distinct vectors (cosine, unit-length query): the graph's, and the tail's exactly. */
  search(query: Float32Array, limit: number): NodeHit[] {
    const found: NodeHit[] = [];
    if (this.graph && this.graph.size() > 0) {
      const matches = this.graph.search(query, Math.min(limit, this.graph.size()), 1);
      for (let i = 0; i < matches.keys.length; i++) found.push({ key: matches.keys[i]!, score: 1 - matches.distances[i]! });
    }
    const d = this.dimensions;
    const rows = this.tailRows;
    for (let r = 0, at = 0; r < this.tailKeys.length; r++, at += d) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += rows[at + i]! * query[i]!;
      found.push({ key: this.tailKeys[r]!, score: dot });
    }
    return found.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /**
   * The tail folded into a new graph file (the old graph loaded, the vectors
   * `dropped` removed from it, the tail added), renamed into place, older
   * files removed, the new one mapped. Called under the base's lock.
   */
  fold(dropped: readonly bigint[]): void {
    if (this.tailKeys.length === 0 && dropped.length === 0 && this.lastSeq === this.upto) return;
    const graph = newGraph(this.dimensions);
    const current = this.graph ? path.join(this.folder, fileName(this.epoch, this.upto)) : undefined;
    if (current) graph.load(current);
    const present = dropped.filter((key) => graph.contains(key) === true);
    if (present.length) graph.remove(BigUint64Array.from(present));
    const n = this.tailKeys.length;
    if (n) graph.add(BigUint64Array.from(this.tailKeys), this.tailRows.subarray(0, n * this.dimensions));
    const upto = this.lastSeq;
    const target = path.join(this.folder, fileName(this.epoch, upto));
    const temporary = `${target}.${process.pid}.tmp`;
    graph.save(temporary);
    fs.renameSync(temporary, target);
    for (const old of graphFiles(this.folder)) if (old.name !== path.basename(target)) fs.rmSync(path.join(this.folder, old.name), { force: true });
    const mapped = newGraph(this.dimensions);
    mapped.view(target);
    this.graph = mapped;
    this.upto = upto;
    this.tailKeys = [];
    this.tailKeySet.clear();
    this.tailRows = new Float32Array(this.dimensions * 64);
  }
}

function fileName(epoch: number, upto: number): string {
  return `ann-${epoch}-${upto}.usearch`;
}

function graphFiles(folder: string): { name: string; epoch: number; upto: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = FILE.exec(name);
    return match ? [{ name, epoch: Number(match[1]), upto: Number(match[2]) }] : [];
  });
}

/** Removes every graph file (the store is being replaced). */
export function removeGraphs(folder: string): void {
  for (const file of graphFiles(folder)) fs.rmSync(path.join(folder, file.name), { force: true });
}
