import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { CONNECTIVITY, graphFileProblem } from './graphFile.js';
import { KnowledgeError } from './knowledgeError.js';

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
 * can leave it describing other vectors than the store's. A process that
 * folds keeps the graph in memory from its first fold on (fold below):
 * each fold then costs its tail's inserts and one write of the file, not
 * a read of it too.
 *
 * Vectors are kept in the graph as int8, each scaled by its own largest
 * value (toGraphRows): a quarter of float32's memory, half of float16's
 * (100,000 × 768 is 77 MB rather than 154 MB). The file is mapped, not
 * read, but a search walks thousands of nodes (about 50 MB of float16 rows
 * for one query at 512 candidates), so after a few hundred queries nearly
 * every row is resident and counts in the process's memory: the rows' size
 * is the graph's memory. The candidates it finds are scored again exactly
 * from the store's float32 rows by the caller. usearch's own cast to int8
 * scales a vector by its length, which puts a unit vector of 768
 * dimensions (values about ±0.04) on ±5 of the ±127 steps and lost half the
 * recall; scaled by its largest value it uses them all, and cosine does not
 * see the scale. Measured on 20,000 rows of the bench's base: recall@10
 * after rescoring 1.00 for both float16 and this int8 (0.94 and 1.00 before
 * rescoring); 0.992 at 100,000 rows (the bench's base, 50 queries); 0.955
 * at 1,000,000 (20 queries), its graph file 1.04 GB.
 *
 * The graph's settings (measured with float16 rows), measured on 100,000 rows of the bench's clustered
 * stand-in embeddings (scripts/bench/knowledgeCorpus.ts), folded 4,096 at a
 * time, recall@10 against an exact scan (on a 2-core machine at load 12-20):
 *
 *   links  expansion_add  build    graph file  recall@10 at expansion_search 64 / 128 / 256 / 512
 *   16     64             393 s    161 MB      0.84 / 0.90 / 0.94 / 0.95
 *   16     128            586 s    161 MB      0.86 / 0.93 / 0.97 / 0.97
 *   32     128            358 s*   181 MB      1.00 at 512 (npm run bench -- scale)
 *
 * (* the bench's whole store build: vectors computed, SQLite writes, folds;
 * the 16-link rows are usearch alone. On a machine this loaded, build times
 * say more about the other jobs than about the graph.) A graph being built
 * holds about its file's size in memory (171 MB at 16 links).
 * Each link costs 4 bytes a node at each level, 8 at the base: 32 links are
 * about 128 bytes a row more than 16 (13 MB at 100,000), resident once
 * searched. A wider search costs time per query (512 took 2-3 ms a query
 * where 64 took 0.5 ms) and pages touched per query, not the memory of a
 * host that has searched a while: that is the whole file either way. Near-random vectors (hashed character counts, the
 * worst case for a graph) need the 32 links: with 16, recall@10 fell to
 * 0.85 at 20,000 rows; with 32 it is 0.97 (knowledgeRecall.test.ts). So the
 * graph keeps 32 links, 128 while adding, 512 while searching. A graph file
 * of another connectivity is refused by graphFile.ts and rebuilt from the
 * store, as any stale cache.
 *
 * Graph nodes are distinct vectors (vectorKey below), not rows: identical
 * rows linked to each other and cut themselves off (recall@10 0.71 with 10
 * texts held 1,000 times each among 3,000 others, and the build six times
 * slower).
 */

/** The graph file a fold was to load from no longer passes the checks it passed when the index opened. */
export class GraphFileChanged extends KnowledgeError {
  constructor(file: string, problem: string) {
    super(
      'KB_BROKEN',
      `the graph file ${file} changed since the base opened it: ${problem}`,
      'stop whatever else writes into the base’s folder; the graph is rebuilt from the store when the base is next used',
    );
  }
}

/** Rows searched exactly before they are folded into the graph: about 3 ms for 4,096 × 768. */
export const FOLD_AT = 4096;
const FILE = /^ann-(\d+)-(\d+)\.usearch$/;

export interface Nearest {
  seq: number;
  score: number;
}

/** A graph node found: the key of a distinct vector (vectorKey), its score from the graph's int8 copy. */
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
  new Index({ dimensions, metric: MetricKind.Cos, quantization: ScalarKind.I8, connectivity: CONNECTIVITY, expansion_add: 128, expansion_search: EXPANSION_SEARCH, multi: false });

/**
 * Rows as the graph holds them: each scaled so that its largest value is
 * ±127, rounded (see above). Handed to usearch as int8, so it casts nothing.
 */
function toGraphRows(rows: Float32Array, dimensions: number): Int8Array {
  const out = new Int8Array(rows.length);
  for (let at = 0; at < rows.length; at += dimensions) {
    let largest = 0;
    for (let i = at; i < at + dimensions; i++) largest = Math.max(largest, Math.abs(rows[i]!));
    const scale = largest > 0 ? 127 / largest : 0;
    for (let i = at; i < at + dimensions; i++) out[i] = Math.round(rows[i]! * scale);
  }
  return out;
}

export class VectorIndex {
  private graph: Index | null = null;
  /** The graph is in memory (loaded or built here, and added to), not mapped from its file. */
  private loaded = false;
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

  /**
   * Time for a fold: FOLD_AT distinct vectors wait, or the graph is far
   * behind the store in rows (rows of vectors it already holds add nothing
   * to the tail, but each open reads every row after the graph).
   */
  get due(): boolean {
    return this.tailKeys.length >= FOLD_AT || this.lastSeq - this.upto >= 8 * FOLD_AT;
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
      const matches = this.graph.search(toGraphRows(query, this.dimensions), Math.min(limit, this.graph.size()), 1);
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
   * The tail folded into the graph and written to a new graph file (the
   * vectors `dropped` removed, the tail added), renamed into place, older
   * files removed. Called under the base's lock. A fold that fails leaves
   * the graph in memory ahead of its file: the caller drops this index and
   * opens the files again.
   *
   * The graph is loaded from its file once, by the first fold (in place:
   * usearch's load drops the mapping), and kept in memory for the folds
   * after it, so a writer adding many documents reads the graph once rather
   * than at every fold, and holds one copy of it. A new Index per fold was
   * a copy per fold: usearch's memory is freed only when V8 finalizes its
   * object, which it has no reason to do soon (the object is small on V8's
   * heap) and cannot do inside a synchronous loop (Node-API finalizers run
   * on the event loop). Building 100,000 rows in one loop held every
   * graph loaded and every file mapped since the start: 1.9 GB of RSS,
   * 272 MB with a collection and an event-loop turn after each write.
   */
  fold(dropped: readonly bigint[]): void {
    if (this.tailKeys.length === 0 && dropped.length === 0 && this.lastSeq === this.upto) return;
    const graph = this.writableGraph();
    const upto = this.lastSeq;
    const target = path.join(this.folder, fileName(this.epoch, upto));
    const present = dropped.filter((key) => graph.contains(key) === true);
    if (present.length) graph.remove(BigUint64Array.from(present));
    const n = this.tailKeys.length;
    if (n) graph.add(BigUint64Array.from(this.tailKeys), toGraphRows(this.tailRows.subarray(0, n * this.dimensions), this.dimensions));
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      graph.save(temporary);
      fs.renameSync(temporary, target);
    } catch (error) {
      // A save cut short by a full disk: its part would keep the space the next fold needs.
      fs.rmSync(temporary, { force: true });
      throw diskFull(this.folder) ?? error;
    }
    for (const old of graphFiles(this.folder)) if (old.name !== path.basename(target)) fs.rmSync(path.join(this.folder, old.name), { force: true });
    this.upto = upto;
    this.tailKeys = [];
    this.tailKeySet.clear();
    this.tailRows = new Float32Array(this.dimensions * 64);
  }

  /**
   * The graph in memory, to add to: the mapped one loaded from its file into the same object, or a new one. The file is
   * checked again before usearch reads it: `load` trusts the file as `view` does, and the name checked at open may
   * have been given another file since (renamed over it, a link): then GraphFileChanged, and the index is opened again.
   */
  private writableGraph(): Index {
    if (this.graph === null) {
      this.graph = newGraph(this.dimensions);
      this.loaded = true;
    } else if (!this.loaded) {
      const file = path.join(this.folder, fileName(this.epoch, this.upto));
      const problem = graphFileProblem(file, this.dimensions, this.upto);
      if (problem !== undefined) throw new GraphFileChanged(file, problem);
      this.graph.load(file);
      this.loaded = true;
    }
    return this.graph;
  }
}

/** usearch says only "Failed to serialize into stream" when its file cannot be written: the disk's free space says why. */
function diskFull(folder: string): Error | undefined {
  try {
    const disk = fs.statfsSync(folder);
    return disk.bavail * disk.bsize < 1024 * 1024 ? new Error(`the disk holding ${folder} is full`) : undefined;
  } catch {
    return undefined;
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
