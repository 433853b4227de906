import MiniSearch, { type AsPlainObject } from 'minisearch';
import { decode, encode } from '@msgpack/msgpack';
import type { Chunk, SearchHit } from '../../shared/knowledge.js';
import { VectorRows } from './vectorRows.js';
import { createWordIndex, wordIndexOptions } from './wordIndex.js';

/** Hybrid results: how much words and meaning count. */
const HYBRID_WEIGHTS = { text: 0.5, vector: 0.5 };
/** Candidates each side brings to a hybrid result, at least. */
const HYBRID_CANDIDATES = 50;
/** What index.msp holds since the text index is MiniSearch's (an older file is Orama's save). */
const FORMAT = 'chatos-knowledge-text/1';

const searchOptions = wordIndexOptions<Chunk>(['text']);
const createWords = () => createWordIndex<Chunk>(['text']);

const chunkOf = (document: Chunk): Chunk => ({
  id: document.id,
  file: document.file,
  position: document.position,
  start: document.start,
  end: document.end,
  heading: document.heading,
  text: document.text,
});

/** index.msp as written now: the chunks and MiniSearch's index of their words. */
interface SavedText {
  format: typeof FORMAT;
  chunks: Chunk[];
  words: AsPlainObject;
}

/** What the vectors file needs after a change: nothing, the new rows appended, or the whole file (or its removal, without vectors). */
export type VectorsWrite = { kind: 'none' } | { kind: 'append'; bytes: Uint8Array[] } | { kind: 'rewrite'; bytes: Uint8Array | null };

/**
 * One base's chunks: their words in a MiniSearch index (BM25), saved with
 * the chunks in index.msp (MessagePack), and their vectors, when the base
 * has embeddings, in VectorRows (their own file, appended on add). The
 * chunks are also kept by id in a Map, for listing and grouping without a
 * search.
 */
export class KnowledgeIndex {
  private readonly chunks = new Map<string, Chunk>();
  private pending: VectorsWrite = { kind: 'none' };

  private constructor(
    private readonly words: MiniSearch<Chunk>,
    private readonly vectors: VectorRows | null,
  ) {}

  static empty(dimensions: number | null): KnowledgeIndex {
    const index = new KnowledgeIndex(createWords(), dimensions ? new VectorRows(dimensions) : null);
    index.pending = { kind: 'rewrite', bytes: index.vectors?.toBytes() ?? null };
    return index;
  }

  /**
   * An index from its saved text index and vectors file. A file written
   * before the words moved to MiniSearch is Orama's save: its documents are
   * read from it (with their vectors, if it is from before vectors had their
   * own file) and indexed anew; `migrated` is then true, and both files need
   * writing.
   */
  static async fromBytes(bytes: Uint8Array, dimensions: number | null, vectorBytes: Uint8Array | undefined): Promise<{ index: KnowledgeIndex; migrated: boolean }> {
    const saved = decode(bytes) as Partial<SavedText> & OramaSave;
    if (saved.format !== FORMAT) return { index: KnowledgeIndex.fromOrama(saved, dimensions, vectorBytes), migrated: true };
    const chunks = (saved.chunks ?? []).map(chunkOf);
    const ids = new Set(chunks.map((c) => c.id));
    const read = dimensions && vectorBytes ? VectorRows.fromBytes(vectorBytes, dimensions, (id) => ids.has(id)) : undefined;
    const usable = read !== undefined;
    const index = new KnowledgeIndex(MiniSearch.loadJS(saved.words!, searchOptions), read ?? (dimensions ? new VectorRows(dimensions) : null));
    for (const chunk of chunks) index.chunks.set(chunk.id, chunk);
    // No usable file (gone, or of other dimensions): the next change writes it anew rather than appending to it.
    if (dimensions && !usable) index.pending = { kind: 'rewrite', bytes: index.vectors!.toBytes() };
    return { index, migrated: false };
  }

  /** An index from Orama's save: its documents, and their vectors from inside it (oldest layout) or from vectors.bin. */
  private static fromOrama(saved: OramaSave, dimensions: number | null, vectorBytes: Uint8Array | undefined): KnowledgeIndex {
    const byId = new Map<string, Chunk & { embedding?: number[] }>();
    for (const d of Object.values(saved.docs?.docs ?? {})) if (d && typeof d.id === 'string' && typeof d.text === 'string') byId.set(d.id, d);
    const documents = [...byId.values()];
    const inside = dimensions ? documents.filter((d) => Array.isArray(d.embedding) && d.embedding.length === dimensions) : [];
    const fromFile = dimensions && !inside.length && vectorBytes ? VectorRows.fromBytes(vectorBytes, dimensions, (id) => byId.has(id)) : undefined;
    const vectors = fromFile ?? (dimensions ? new VectorRows(dimensions) : null);
    const index = new KnowledgeIndex(createWords(), vectors);
    index.addWords(documents.map(chunkOf));
    if (inside.length)
      vectors!.add(
        inside.map((d) => d.id),
        inside.map((d) => d.embedding!),
      );
    index.pending = { kind: 'rewrite', bytes: vectors?.toBytes() ?? null };
    return index;
  }

  toBytes(): Uint8Array {
    const saved: SavedText = { format: FORMAT, chunks: [...this.chunks.values()], words: this.words.toJSON() };
    return encode(saved);
  }

  /** What the vectors file needs since the last call (the caller writes it, then the text index). */
  takeVectorsWrite(): VectorsWrite {
    const pending = this.pending;
    this.pending = { kind: 'none' };
    return pending;
  }

  /** The vectors by chunk id (null without vectors), for moving the base into its store. */
  get vectorRows(): Map<string, Float32Array> | null {
    return this.vectors?.byId() ?? null;
  }

  get vectorDimensions(): number | null {
    return this.vectors?.dimensions ?? null;
  }

  get size(): number {
    return this.chunks.size;
  }

  all(): IterableIterator<Chunk> {
    return this.chunks.values();
  }

  get(id: string): Chunk | undefined {
    return this.chunks.get(id);
  }

  async add(chunks: readonly Chunk[], vectors?: readonly number[][]): Promise<void> {
    this.addWords(chunks);
    if (!vectors || !this.vectors || !chunks.length) return;
    const appended = this.vectors.add(
      chunks.map((c) => c.id),
      vectors,
    );
    if (this.pending.kind === 'rewrite') this.pending = { kind: 'rewrite', bytes: this.vectors.toBytes() };
    else this.pending = { kind: 'append', bytes: [...(this.pending.kind === 'append' ? this.pending.bytes : []), appended] };
  }

  async remove(ids: readonly string[]): Promise<void> {
    const present = ids.filter((id) => this.chunks.has(id));
    if (present.length === 0) return;
    // MiniSearch removes a document by its indexed fields, which the map still holds.
    for (const id of present) this.words.remove(this.chunks.get(id)!);
    for (const id of present) this.chunks.delete(id);
    // Compacted: the file is written anew.
    if (this.vectors?.remove(new Set(present))) this.pending = { kind: 'rewrite', bytes: this.vectors.toBytes() };
  }

  /**
   * A fresh index of the same chunks with new vectors (or none), for a
   * changed embedding model; this one is left as it was, so a failure
   * midway changes nothing.
   */
  async rebuilt(dimensions: number | null, vectors?: ReadonlyMap<string, number[]>): Promise<KnowledgeIndex> {
    const next = KnowledgeIndex.empty(dimensions);
    const chunks = [...this.chunks.values()];
    await next.add(chunks, vectors ? chunks.map((chunk) => vectors.get(chunk.id)!) : undefined);
    next.pending = { kind: 'rewrite', bytes: next.vectors?.toBytes() ?? null };
    return next;
  }

  /**
   * BM25 over the words; with a query vector, blended with cosine
   * similarity: each side's best candidates, the text scores divided by the
   * best one, the two weighed evenly (a side that did not bring a candidate
   * scores it 0).
   */
  async search(query: string, limit: number, vector?: number[]): Promise<SearchHit[]> {
    if (!vector || !this.vectors) return this.textHits(query, limit).flatMap((hit) => this.hit(hit.id, hit.score));
    const candidates = Math.max(limit * 4, HYBRID_CANDIDATES);
    const text = this.textHits(query, candidates);
    const top = text[0]?.score ?? 0;
    const scores = new Map<string, number>();
    for (const hit of text) scores.set(hit.id, top > 0 ? (hit.score / top) * HYBRID_WEIGHTS.text : 0);
    for (const near of this.vectors.search(vector, candidates)) {
      if (near.score <= 0) continue;
      scores.set(near.id, (scores.get(near.id) ?? 0) + near.score * HYBRID_WEIGHTS.vector);
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .flatMap(([id, score]) => this.hit(id, score));
  }

  /** The best `limit` chunks by BM25, best first (MiniSearch sorts its results). */
  private textHits(query: string, limit: number): { id: string; score: number }[] {
    return this.words
      .search(query)
      .slice(0, limit)
      .map((result) => ({ id: result.id as string, score: result.score }));
  }

  private hit(id: string, score: number): SearchHit[] {
    const chunk = this.chunks.get(id);
    return chunk ? [{ ...chunk, score }] : [];
  }

  /** Callers remove a chunk before adding it again: MiniSearch refuses an id it holds. */
  private addWords(chunks: readonly Chunk[]): void {
    this.words.addAll(chunks);
    for (const chunk of chunks) this.chunks.set(chunk.id, chunk);
  }
}

/** The part of an Orama save (@orama/orama 3) an older index.msp is read for: its documents by internal id. */
interface OramaSave {
  docs?: { docs?: Record<string, (Chunk & { embedding?: number[] }) | undefined> };
}
