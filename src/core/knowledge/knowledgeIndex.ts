import { count, create, insertMultiple, load, removeMultiple, save, search, type AnyOrama, type RawData } from '@orama/orama';
import { decode, encode } from '@msgpack/msgpack';
import type { Chunk, SearchHit } from '../../shared/knowledge.js';
import { VectorRows } from './vectorRows.js';
import { createWordTokenizer } from './wordTokenizer.js';

/** Hybrid results: how much words and meaning count (as Orama's hybrid mode weighed them before). */
const HYBRID_WEIGHTS = { text: 0.5, vector: 0.5 };
/** Candidates each side brings to a hybrid result, at least. */
const HYBRID_CANDIDATES = 50;

const createDb = (schema: Record<string, string> = { text: 'string' }): AnyOrama => create({ schema: schema as never, components: { tokenizer: createWordTokenizer() } });

const chunkOf = (document: Chunk): Chunk => ({ id: document.id, file: document.file, position: document.position, start: document.start, end: document.end, heading: document.heading, text: document.text });

/** What the vectors file needs after a change: nothing, the new rows appended, or the whole file (or its removal, without vectors). */
export type VectorsWrite = { kind: 'none' } | { kind: 'append'; bytes: Uint8Array[] } | { kind: 'rewrite'; bytes: Uint8Array | null };

/**
 * One base's chunks: their text in an Orama index (BM25; saved with Orama's
 * save/load, packed with MessagePack: small, words only), and their vectors,
 * when the base has embeddings, in VectorRows (their own file, appended on
 * add). The chunks are also kept by id in a Map, for listing and grouping
 * without a search.
 */
export class KnowledgeIndex {
  private readonly chunks = new Map<string, Chunk>();
  private pending: VectorsWrite = { kind: 'none' };

  private constructor(
    private readonly db: AnyOrama,
    private readonly vectors: VectorRows | null,
  ) {}

  static empty(dimensions: number | null): KnowledgeIndex {
    const index = new KnowledgeIndex(createDb(), dimensions ? new VectorRows(dimensions) : null);
    index.pending = { kind: 'rewrite', bytes: index.vectors?.toBytes() ?? null };
    return index;
  }

  /**
   * An index from its saved text index and vectors file. An index saved
   * before vectors had their own file holds them in Orama's documents: they
   * are moved out (`migrated` is then true, and both files need writing).
   */
  static async fromBytes(bytes: Uint8Array, dimensions: number | null, vectorBytes: Uint8Array | undefined): Promise<{ index: KnowledgeIndex; migrated: boolean }> {
    const raw = decode(bytes) as RawData & { index?: { vectorIndexes?: Record<string, { size?: number }> } };
    const old = raw.index?.vectorIndexes?.embedding;
    if (old) return { index: await KnowledgeIndex.migrated(raw, dimensions ?? old.size ?? 0), migrated: true };
    const db = createDb();
    load(db, raw);
    const chunks = await allDocuments(db, false);
    const ids = new Set(chunks.map((c) => c.id));
    const read = dimensions && vectorBytes ? VectorRows.fromBytes(vectorBytes, (id) => ids.has(id)) : undefined;
    const usable = read && read.dimensions === dimensions;
    const index = new KnowledgeIndex(db, usable ? read : dimensions ? new VectorRows(dimensions) : null);
    for (const chunk of chunks) index.chunks.set(chunk.id, chunkOf(chunk));
    // No usable file (gone, or of other dimensions): the next change writes it anew rather than appending to it.
    if (dimensions && !usable) index.pending = { kind: 'rewrite', bytes: index.vectors!.toBytes() };
    return { index, migrated: false };
  }

  /** An index of the old layout (vectors inside Orama), rebuilt in the new one. */
  private static async migrated(raw: RawData, dimensions: number): Promise<KnowledgeIndex> {
    const db = createDb({ text: 'string', embedding: `vector[${dimensions}]` });
    load(db, raw);
    const documents = (await allDocuments(db, true)) as (Chunk & { embedding?: number[] })[];
    const index = KnowledgeIndex.empty(dimensions);
    const withVectors = documents.filter((d) => Array.isArray(d.embedding) && d.embedding.length === dimensions);
    await index.add(withVectors.map(chunkOf), withVectors.map((d) => d.embedding!));
    await index.add(documents.filter((d) => !withVectors.includes(d)).map(chunkOf));
    index.pending = { kind: 'rewrite', bytes: index.vectors!.toBytes() };
    return index;
  }

  toBytes(): Uint8Array {
    return encode(save(this.db));
  }

  /** What the vectors file needs since the last call (the caller writes it, then the text index). */
  takeVectorsWrite(): VectorsWrite {
    const pending = this.pending;
    this.pending = { kind: 'none' };
    return pending;
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
    await insertMultiple(this.db, chunks.map((chunk) => ({ ...chunk })) as never, 1000);
    for (const chunk of chunks) this.chunks.set(chunk.id, chunk);
    if (!vectors || !this.vectors || !chunks.length) return;
    const appended = this.vectors.add(chunks.map((c) => c.id), vectors);
    if (this.pending.kind === 'rewrite') this.pending = { kind: 'rewrite', bytes: this.vectors.toBytes() };
    else this.pending = { kind: 'append', bytes: [...(this.pending.kind === 'append' ? this.pending.bytes : []), appended] };
  }

  async remove(ids: readonly string[]): Promise<void> {
    const present = ids.filter((id) => this.chunks.has(id));
    if (present.length === 0) return;
    await removeMultiple(this.db, present, 1000);
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
   * BM25 over the words; with a query vector, blended with cosine similarity
   * as Orama's hybrid mode did: each side's best candidates, the text scores
   * divided by the best one, the two weighed evenly (a side that did not
   * bring a candidate scores it 0).
   */
  async search(query: string, limit: number, vector?: number[]): Promise<SearchHit[]> {
    if (!vector || !this.vectors) {
      const result = await search(this.db, { term: query, limit });
      return result.hits.map((hit) => ({ ...chunkOf(hit.document as unknown as Chunk), score: hit.score }));
    }
    const candidates = Math.max(limit * 4, HYBRID_CANDIDATES);
    const text = (await search(this.db, { term: query, limit: candidates })).hits;
    const top = text.length ? Math.max(...text.map((hit) => hit.score)) : 0;
    const scores = new Map<string, number>();
    for (const hit of text) scores.set(hit.id, top > 0 ? (hit.score / top) * HYBRID_WEIGHTS.text : 0);
    for (const near of this.vectors.search(vector, candidates)) {
      if (near.score <= 0) continue;
      scores.set(near.id, (scores.get(near.id) ?? 0) + near.score * HYBRID_WEIGHTS.vector);
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .flatMap(([id, score]) => {
        const chunk = this.chunks.get(id);
        return chunk ? [{ ...chunk, score }] : [];
      });
  }
}

async function allDocuments(db: AnyOrama, includeVectors: boolean): Promise<Chunk[]> {
  const all = await search(db, { term: '', limit: count(db) + 1, ...(includeVectors ? { includeVectors: true } : {}) });
  return all.hits.map((hit) => hit.document as unknown as Chunk);
}
