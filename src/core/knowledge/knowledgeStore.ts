import * as path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Chunk, KnowledgeBase, SearchHit } from '../../shared/knowledge.js';
import { fuseHybrid, hybridCandidates } from './hybridFusion.js';
import { KnowledgeError } from './knowledgeError.js';
import { refuseFollowedStore, refuseOddStoreFiles } from './regularStoreFiles.js';
import { storeFailure } from './storeFailure.js';
import { GraphFileChanged, normalize, removeGraphs, vectorKey, VectorIndex, type KeyedRow, type Nearest } from './vectorIndex.js';
import { createWordTokenizer } from './wordTokenizer.js';
import { bestByWords, type WordRow } from './wordSearch.js';

const FORMAT = 'chatos-knowledge-sqlite/1';
/**
 * The graph is asked for this many times the candidates wanted: its int8
 * distances blur close neighbours (embeddings of one collection are all
 * alike), and the exact rescoring from the float32 rows sorts them out.
 */
const GRAPH_OVERSAMPLE = 4;
export const STORE_FILE = 'store.sqlite';

const tokenize = createWordTokenizer();

/**
 * The words are cut by wordTokenizer.ts (CJK split by a dictionary, accents
 * folded), the same for chunks and queries, and handed to FTS5 joined by
 * spaces: every letter, digit and mark is a token character, so FTS5 keeps
 * each of our words whole. Contentless: the text lives once, in `chunks`.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks(
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, file TEXT NOT NULL, position INTEGER NOT NULL,
  start INTEGER NOT NULL, "end" INTEGER NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL, vector BLOB, vkey INTEGER);
CREATE INDEX IF NOT EXISTS chunks_by_file ON chunks(file, position);
CREATE TABLE IF NOT EXISTS files(name TEXT PRIMARY KEY, chunks INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graph_dropped(seq INTEGER PRIMARY KEY);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(terms, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 categories 'L* N* M* Co'");
`;

/** What one change writes: the chunks of `files` (and the chunks `ids`) removed, `chunks` added with their `vectors`. */
export interface StoreChange {
  files?: readonly string[];
  ids?: readonly string[];
  chunks?: readonly Chunk[];
  vectors?: readonly ArrayLike<number>[];
  embeddedWith?: KnowledgeBase['embeddedWith'];
}

interface ChunkRow {
  seq: number;
  id: string;
  file: string;
  position: number;
  start: number;
  end: number;
  heading: string;
  text: string;
  vector?: Uint8Array | null;
}

const chunkOf = (row: ChunkRow): Chunk => ({ id: row.id, file: row.file, position: row.position, start: row.start, end: row.end, heading: row.heading, text: row.text });
const COLUMNS = 'seq, id, file, position, start, "end", heading, text';

/** A stored vector's floats: a view of the blob, which node:sqlite gives a buffer of its own; a copy only if it is not 4-byte aligned. */
function floatsOf(blob: Uint8Array): Float32Array {
  if (blob.byteOffset % 4 === 0 && blob.byteLength % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * One base's chunks in an SQLite file (node:sqlite), paged from disk: the
 * chunks with their float32 vectors, an FTS5 index of their words (BM25),
 * a count per source file, and the base's vector model. Every change is one
 * transaction, so a crash (even SIGKILL) leaves all of it or none; an add
 * writes its own rows and index entries, nothing else. Vector search goes
 * through VectorIndex (an HNSW graph beside the file, rebuilt from here).
 */
export class KnowledgeStore {
  private readonly statements = new Map<string, StatementSync>();
  private vectors: VectorIndex | null = null;

  private constructor(
    private readonly db: DatabaseSync,
    private readonly folder: string,
    /** The base's id, for messages. */
    readonly name: string,
  ) {}

  /** Opens (or creates) `store.sqlite` in `folder`: the schema and the meta rows, nothing more. */
  static open(folder: string, name: string, fileName = STORE_FILE): KnowledgeStore {
    const file = path.join(folder, fileName);
    refuseOddStoreFiles(name, file);
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(file);
      refuseFollowedStore(name, file, (db.prepare('PRAGMA database_list').get() as { file?: string } | undefined)?.file);
      db.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = OFF; PRAGMA busy_timeout = 10000;');
      db.exec(SCHEMA);
      const store = new KnowledgeStore(db, folder, name);
      const format = store.meta('format');
      if (format === undefined) store.setMeta('format', FORMAT);
      else if (format !== FORMAT) throw new Error(`it is of format "${format}", not ${FORMAT}`);
      store.keyVectors();
      return store;
    } catch (error) {
      db?.close();
      if (error instanceof KnowledgeError) throw error;
      throw storeFailure(name, file, error);
    }
  }

  /**
   * A store written before graph nodes were keyed by vector (vectorKey):
   * each row's key computed, in one transaction, and the graph files, keyed
   * by row, left behind (the epoch moves on; the next search builds a graph
   * from the store, as after a re-embed).
   */
  private keyVectors(): void {
    const columns = this.db.prepare('PRAGMA table_info(chunks)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'vkey')) {
      this.guarded(() => {
        this.db.exec('ALTER TABLE chunks ADD COLUMN vkey INTEGER');
        const update = this.db.prepare('UPDATE chunks SET vkey = ? WHERE seq = ?');
        for (const row of this.db.prepare('SELECT seq, vector FROM chunks WHERE vector IS NOT NULL').iterate() as Iterable<{ seq: number; vector: Uint8Array }>)
          update.run(vectorKey(floatsOf(row.vector)), row.seq);
        this.sql('DELETE FROM graph_dropped').run();
        this.setMeta('epoch', String(this.epoch + 1));
      }, true);
      removeGraphs(this.folder);
    }
    this.db.exec('CREATE INDEX IF NOT EXISTS chunks_by_vkey ON chunks(vkey)');
  }

  /** Another process changed the base: its new vectors are read (with the graph it may have written) on next use. */
  refresh(): void {
    this.vectors = null;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** A statement that reads integers as bigint: vector keys take 63 bits, past a double's exact integers. */
  private bigSql(text: string): StatementSync {
    const statement = this.sql(text);
    statement.setReadBigInts(true);
    return statement;
  }

  private meta(key: string): string | undefined {
    return (this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  private setMeta(key: string, value: string | null): void {
    if (value === null) this.sql('DELETE FROM meta WHERE key = ?').run(key);
    else this.sql('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Errors of SQLite named for the base (corrupt, full, locked); the work runs inside a transaction when `write`. */
  private guarded<T>(work: () => T, write = false): T {
    try {
      if (!write) return work();
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = work();
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } catch (error) {
      if (error instanceof KnowledgeError) throw error;
      throw storeFailure(this.name, path.join(this.folder, STORE_FILE), error);
    }
  }

  /** The model and dimensions of the vectors held; null without vectors. */
  get embeddedWith(): KnowledgeBase['embeddedWith'] {
    const model = this.meta('model');
    const dimensions = Number(this.meta('dimensions'));
    return model && dimensions ? { model, dimensions } : null;
  }

  get vectorDimensions(): number | null {
    return this.embeddedWith?.dimensions ?? null;
  }

  get size(): number {
    return this.guarded(() => Number((this.sql('SELECT coalesce(sum(chunks), 0) AS n FROM files').get() as { n: number }).n));
  }

  counts(): { files: number; chunks: number } {
    return this.guarded(() => {
      const row = this.sql('SELECT count(*) AS files, coalesce(sum(chunks), 0) AS chunks FROM files').get() as { files: number; chunks: number };
      return { files: Number(row.files), chunks: Number(row.chunks) };
    });
  }

  get(id: string): Chunk | undefined {
    const row = this.guarded(() => this.sql(`SELECT ${COLUMNS} FROM chunks WHERE id = ?`).get(id) as ChunkRow | undefined);
    return row && chunkOf(row);
  }

  /** Every chunk, in the order added (read a page at a time, for re-embedding). */
  *all(): Generator<Chunk> {
    for (let after = 0; ;) {
      const rows = this.guarded(() => this.sql(`SELECT ${COLUMNS} FROM chunks WHERE seq > ? ORDER BY seq LIMIT 1000`).all(after) as unknown as ChunkRow[]);
      if (rows.length === 0) return;
      for (const row of rows) yield chunkOf(row);
      after = rows[rows.length - 1]!.seq;
    }
  }

  /** Every source file and its chunk count, by name. */
  files(): { file: string; chunks: number }[] {
    return this.guarded(() => (this.sql('SELECT name AS file, chunks FROM files ORDER BY name').all() as { file: string; chunks: number }[]).map((r) => ({ file: r.file, chunks: Number(r.chunks) })));
  }

  /** Chunks by file, then position: one page of them, of one file or all. */
  page(file: string | undefined, offset: number, limit: number): { total: number; chunks: Chunk[] } {
    return this.guarded(() => {
      if (file !== undefined) {
        const total = Number((this.sql('SELECT coalesce(sum(chunks), 0) AS n FROM files WHERE name = ?').get(file) as { n: number }).n);
        const rows = this.sql(`SELECT ${COLUMNS} FROM chunks WHERE file = ? ORDER BY position LIMIT ? OFFSET ?`).all(file, limit, offset) as unknown as ChunkRow[];
        return { total, chunks: rows.map(chunkOf) };
      }
      const rows = this.sql(`SELECT ${COLUMNS} FROM chunks ORDER BY file, position LIMIT ? OFFSET ?`).all(limit, offset) as unknown as ChunkRow[];
      return { total: this.size, chunks: rows.map(chunkOf) };
    });
  }

  /** How many chunks each of `names` has now (absent: none). */
  chunkCounts(names: Iterable<string>): Map<string, number> {
    const counts = new Map<string, number>();
    this.guarded(() => {
      for (const name of new Set(names)) {
        const row = this.sql('SELECT chunks FROM files WHERE name = ?').get(name) as { chunks: number } | undefined;
        if (row) counts.set(name, Number(row.chunks));
      }
    });
    return counts;
  }

  /**
   * One change in one transaction: every vector is checked against the
   * base's dimensions before anything is written, so a vector of another
   * length refuses the whole change. After the commit the new vectors join
   * the search's tail, folded into the graph when due (VectorIndex.due).
   */
  write(change: StoreChange): string[] {
    const dimensions = change.embeddedWith?.dimensions ?? this.vectorDimensions;
    const chunks = change.chunks ?? [];
    if (change.vectors) {
      if (change.vectors.length !== chunks.length) throw new Error(`${change.vectors.length} vectors for ${chunks.length} chunks`);
      for (const vector of change.vectors) {
        if (vector.length !== dimensions)
          throw new KnowledgeError(
            'KB_INVALID',
            `knowledge base "${this.name}" holds vectors of ${dimensions ?? 'no'} dimensions; a vector of ${vector.length} was refused and nothing was added`,
            `re-embed the base with one model (chatos kb reembed ${this.name}), or choose a model that answers ${dimensions} numbers`,
          );
      }
    }
    const rows = change.vectors?.map((v) => normalize(Float32Array.from(v)));
    const keys = rows?.map(vectorKey);
    const removedKeys = new Set<bigint>();
    const gone = new Set<bigint>();
    const added: KeyedRow[] = [];
    this.guarded(() => {
      for (const file of change.files ?? []) for (const key of this.removeWhere('file = ?', file)) removedKeys.add(key);
      for (const id of change.ids ?? []) for (const key of this.removeWhere('id = ?', id)) removedKeys.add(key);
      const insert = this.sql(`INSERT INTO chunks(id, file, position, start, "end", heading, text, vector, vkey) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`);
      const words = this.sql('INSERT INTO words(rowid, terms) VALUES (?, ?)');
      const count = this.sql('INSERT INTO files(name, chunks) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET chunks = chunks + 1');
      const undrop = this.sql('DELETE FROM graph_dropped WHERE seq = ?');
      chunks.forEach((chunk, i) => {
        const vector = rows?.[i];
        const key = keys?.[i] ?? null;
        const { seq } = insert.get(chunk.id, chunk.file, chunk.position, chunk.start, chunk.end, chunk.heading, chunk.text, vector ? new Uint8Array(vector.buffer) : null, key) as { seq: number };
        words.run(seq, tokenize(chunk.text).join(' '));
        count.run(chunk.file);
        // A vector back (a file added again): its graph node, if pending removal, stays.
        if (vector && key !== null) {
          if (removedKeys.has(key)) removedKeys.delete(key);
          else undrop.run(key);
          added.push({ seq: Number(seq), key, vector });
        }
      });
      // A vector no row holds any more leaves the graph at the next fold; one still held by another row stays.
      const held = this.sql('SELECT 1 FROM chunks WHERE vkey = ? LIMIT 1');
      const dropped = this.sql('INSERT OR IGNORE INTO graph_dropped(seq) VALUES (?)');
      for (const key of removedKeys) {
        if (held.get(key)) continue;
        dropped.run(key);
        gone.add(key);
      }
      if (change.embeddedWith !== undefined) {
        this.setMeta('model', change.embeddedWith?.model ?? null);
        this.setMeta('dimensions', change.embeddedWith ? String(change.embeddedWith.dimensions) : null);
      }
    }, true);
    // Committed: from here on the change is saved, whatever becomes of the graph file.
    // Not open yet: opening reads the rows after the graph, these among them.
    if (!this.vectors || this.vectors.dimensions !== dimensions) {
      const held = this.vectorDimensions;
      return held ? this.notes(this.openVectors(held)) : [];
    }
    if (gone.size) this.vectors.forget(gone);
    if (added.length) this.vectors.append(added);
    return this.vectors.due ? this.notes(this.fold()) : [];
  }

  /** A fold's failure after a saved change, as a note for the user: the change stands, the graph waits for room. */
  private notes(unwritten: string | undefined): string[] {
    if (unwritten === undefined) return [];
    return [
      `knowledge base "${this.name}": the change was saved, but its search graph could not be written (${unwritten}); ` +
        'searches compare the newest rows one by one until a later add writes it (free some space on that disk if it is full)',
    ];
  }

  /** Removes chunks matching `where` (one bound value): their words, counts and rows; returns the keys of their vectors. */
  private removeWhere(where: string, value: string): bigint[] {
    const rows = this.bigSql(`SELECT seq, file, vkey FROM chunks WHERE ${where}`).all(value) as { seq: bigint; file: string; vkey: bigint | null }[];
    const dropWords = this.sql('DELETE FROM words WHERE rowid = ?');
    const dropRow = this.sql('DELETE FROM chunks WHERE seq = ?');
    for (const row of rows) {
      dropWords.run(row.seq);
      dropRow.run(row.seq);
      this.sql('UPDATE files SET chunks = chunks - 1 WHERE name = ?').run(row.file);
    }
    this.sql('DELETE FROM files WHERE chunks <= 0').run();
    return rows.flatMap((r) => (r.vkey === null ? [] : [r.vkey]));
  }

  /**
   * Every chunk's vector replaced (a new model) or removed (none), in one
   * transaction: a failure leaves the old ones. The graph files are of the
   * old vectors: the epoch moves on, so they are never read again.
   */
  replaceVectors(embeddedWith: KnowledgeBase['embeddedWith'], vectors?: ReadonlyMap<string, readonly number[]>): void {
    this.guarded(() => {
      const update = this.sql('UPDATE chunks SET vector = ?, vkey = ? WHERE id = ?');
      if (!embeddedWith || !vectors) this.sql('UPDATE chunks SET vector = NULL, vkey = NULL').run();
      else
        for (const [id, vector] of vectors) {
          if (vector.length !== embeddedWith.dimensions) throw new Error(`a vector of ${vector.length} numbers where the model answered ${embeddedWith.dimensions}`);
          const row = normalize(Float32Array.from(vector));
          update.run(new Uint8Array(row.buffer), vectorKey(row), id);
        }
      this.setMeta('model', embeddedWith?.model ?? null);
      this.setMeta('dimensions', embeddedWith ? String(embeddedWith.dimensions) : null);
      this.setMeta('epoch', String(this.epoch + 1));
      this.sql('DELETE FROM graph_dropped').run();
    }, true);
    this.vectors = null;
    removeGraphs(this.folder);
  }

  private get epoch(): number {
    return Number(this.meta('epoch') ?? 0);
  }

  /** The vector side, opened on first use: the graph mapped, the rows after it read. */
  private vectorIndex(): VectorIndex | null {
    const dimensions = this.vectorDimensions;
    if (!dimensions) return null;
    if (!this.vectors || this.vectors.dimensions !== dimensions) this.openVectors(dimensions);
    return this.vectors;
  }

  /**
   * Opens the vector side, and folds if due; returns why the graph could not be written, if it could not.
   * `again`: after a fold found its graph file changed; `fold`: false after a fold failed, so it is not tried again at once.
   */
  private openVectors(dimensions: number, again = false, fold = true): string | undefined {
    const tail = this.bigSql('SELECT seq, vkey, vector FROM chunks WHERE seq > ? AND vector IS NOT NULL ORDER BY seq');
    this.vectors = this.guarded(() =>
      VectorIndex.open(this.folder, dimensions, this.epoch, function* (after) {
        for (const row of tail.iterate(after) as Iterable<{ seq: bigint; vkey: bigint; vector: Uint8Array }>) yield { seq: Number(row.seq), key: row.vkey, vector: floatsOf(row.vector) };
      }),
    );
    // A graph missing or broken on a large base: rebuilt now rather than scanning every row on each search.
    return fold && this.vectors.due ? this.fold(again) : undefined;
  }

  /**
   * The tail into a new graph file, and the rows removed since out of it (under the base's lock, or after a rebuild
   * nobody else can do differently). A graph file that changed since it was opened is not read: the index is opened
   * again, once, which passes over a file that fails its checks and builds the graph from the store's rows.
   *
   * A fold that fails (a full disk while the file is saved) fails nothing the store holds: the rows are committed, and
   * the index is read from the files again (its graph in memory may be ahead of its file), the rows after the graph
   * searched one by one until a later fold. Returns why, for the user; a search that opened the base goes on.
   */
  private fold(reopened = false): string | undefined {
    const vectors = this.vectors;
    if (!vectors) return undefined;
    const dropped = this.guarded(() => (this.bigSql('SELECT seq FROM graph_dropped').all() as { seq: bigint }[]).map((r) => r.seq));
    try {
      vectors.fold(dropped);
    } catch (error) {
      this.vectors = null;
      if (error instanceof GraphFileChanged && !reopened) return this.openVectors(vectors.dimensions, true);
      this.openVectors(vectors.dimensions, true, false);
      return (error as Error).message;
    }
    if (dropped.length) this.guarded(() => this.sql('DELETE FROM graph_dropped').run());
    return undefined;
  }

  /** Builds the vector side now (after a migration or a re-embed), rather than on the first search. */
  prepareVectors(): void {
    this.vectorIndex();
  }

  /**
   * BM25 over the words; with a query vector, blended with cosine
   * similarity: each side's best candidates, the text scores divided by the
   * best one, the two weighed evenly (a side that did not bring a candidate
   * scores it 0). The graph's candidates are scored again exactly from the
   * stored vectors.
   */
  search(query: string, limit: number, vector?: readonly number[]): SearchHit[] {
    const vectors = vector ? this.vectorIndex() : null;
    if (!vector || !vectors) return this.textHits(query, limit).flatMap((hit) => this.hit(hit.seq, hit.score));
    const candidates = hybridCandidates(limit);
    const keyed = (rows: { seq: number; score: number }[]) => rows.map((r) => ({ key: r.seq, score: r.score }));
    return fuseHybrid(keyed(this.textHits(query, candidates)), keyed(this.nearest(Float32Array.from(vector), candidates)), limit).flatMap((r) => this.hit(r.key, r.score));
  }

  /**
   * The `limit` rows nearest `vector`, scored exactly: each distinct vector
   * the graph finds stands for every row holding it; vectors no row holds
   * any more (removed since the graph was written) are left out.
   */
  nearest(vector: Float32Array, limit: number): Nearest[] {
    const vectors = this.vectorIndex();
    if (!vectors) return [];
    const query = normalize(vector);
    const pending = this.guarded(() => Number((this.sql('SELECT count(*) AS n FROM graph_dropped').get() as { n: number }).n));
    const read = this.sql('SELECT seq, vector FROM chunks WHERE vkey = ?');
    return this.guarded(() =>
      vectors
        .search(query, Math.max(limit * GRAPH_OVERSAMPLE, 64) + Math.min(pending, limit * 4))
        .flatMap((near) =>
          (read.all(near.key) as { seq: number; vector: Uint8Array }[]).map((row) => {
            return { seq: Number(row.seq), score: dot(floatsOf(row.vector), query) };
          }),
        )
        .sort((a, b) => b.score - a.score)
        .slice(0, limit),
    );
  }

  /** The `limit` nearest rows by a scan of every stored vector: what `nearest` is measured against. */
  exactNearest(vector: Float32Array, limit: number): Nearest[] {
    const query = normalize(vector);
    const best: Nearest[] = [];
    for (const row of this.sql('SELECT seq, vector FROM chunks WHERE vector IS NOT NULL').iterate() as Iterable<{ seq: number; vector: Uint8Array }>) {
      const score = dot(floatsOf(row.vector), query);
      if (best.length === limit && score <= best[limit - 1]!.score) continue;
      best.push({ seq: Number(row.seq), score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > limit) best.pop();
    }
    return best;
  }

  /** The best `limit` chunks by BM25, best first (wordSearch.ts). */
  private textHits(query: string, limit: number): WordRow[] {
    const words = [...new Set(tokenize(query))];
    if (words.length === 0) return [];
    return this.guarded(() => bestByWords((text) => this.sql(text), words, limit));
  }

  private hit(seq: number, score: number): SearchHit[] {
    const row = this.guarded(() => this.sql(`SELECT ${COLUMNS} FROM chunks WHERE seq = ?`).get(seq) as ChunkRow | undefined);
    return row ? [{ ...chunkOf(row), score }] : [];
  }
}
