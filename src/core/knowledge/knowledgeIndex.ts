import { count, create, insertMultiple, load, removeMultiple, save, search, type AnyOrama, type RawData } from '@orama/orama';
import { decode, encode } from '@msgpack/msgpack';
import type { Chunk, SearchHit } from '../../shared/knowledge.js';
import { createWordTokenizer } from './wordTokenizer.js';

/** A chunk as the index stores it: the chunk, plus its vector where the base has one. */
type StoredChunk = Chunk & { embedding?: number[] };

/** Hybrid results: how much words and meaning count (Orama's default is an even split). */
const HYBRID_WEIGHTS = { text: 0.5, vector: 0.5 };

function schemaOf(dimensions: number | null) {
  return dimensions ? { text: 'string', embedding: `vector[${dimensions}]` } : { text: 'string' };
}

function createDb(dimensions: number | null): AnyOrama {
  return create({ schema: schemaOf(dimensions) as never, components: { tokenizer: createWordTokenizer() } });
}

const chunkOf = (document: StoredChunk): Chunk => ({ id: document.id, file: document.file, position: document.position, start: document.start, end: document.end, heading: document.heading, text: document.text });

/**
 * One base's chunks in an Orama index: BM25 over the text, and a vector
 * index when the base has embeddings. The chunks are also kept by id in a
 * Map (without vectors), for listing and grouping without a search.
 * Serialized with Orama's own save/load, packed with MessagePack.
 */
export class KnowledgeIndex {
  private readonly chunks = new Map<string, Chunk>();

  private constructor(
    private db: AnyOrama,
    /** The vectors' length, or null for an index of words only. */
    private dimensions: number | null,
  ) {}

  static empty(dimensions: number | null): KnowledgeIndex {
    return new KnowledgeIndex(createDb(dimensions), dimensions);
  }

  /** An index from its saved bytes; the tokenizer is ours again (a saved index keeps data, not code). */
  static async fromBytes(bytes: Uint8Array, dimensions: number | null): Promise<KnowledgeIndex> {
    const index = KnowledgeIndex.empty(dimensions);
    load(index.db, decode(bytes) as RawData);
    const all = await search(index.db, { term: '', limit: count(index.db) + 1 });
    for (const hit of all.hits) {
      const chunk = chunkOf(hit.document as unknown as StoredChunk);
      index.chunks.set(chunk.id, chunk);
    }
    return index;
  }

  toBytes(): Uint8Array {
    return encode(save(this.db));
  }

  get vectorDimensions(): number | null {
    return this.dimensions;
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
    const documents: StoredChunk[] = chunks.map((chunk, i) => (vectors ? { ...chunk, embedding: vectors[i]! } : { ...chunk }));
    await insertMultiple(this.db, documents as never, 1000);
    for (const chunk of chunks) this.chunks.set(chunk.id, chunk);
  }

  async remove(ids: readonly string[]): Promise<void> {
    const present = ids.filter((id) => this.chunks.has(id));
    if (present.length === 0) return;
    await removeMultiple(this.db, present, 1000);
    for (const id of present) this.chunks.delete(id);
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
    return next;
  }

  /** BM25 over the words, blended with vector similarity when a query vector is given. */
  async search(query: string, limit: number, vector?: number[]): Promise<SearchHit[]> {
    const result =
      vector && this.dimensions
        ? await search(this.db, { mode: 'hybrid', term: query, vector: { value: vector, property: 'embedding' }, similarity: 0, limit, hybridWeights: HYBRID_WEIGHTS, includeVectors: false })
        : await search(this.db, { term: query, limit });
    return result.hits.map((hit) => ({ ...chunkOf(hit.document as unknown as StoredChunk), score: hit.score }));
  }
}
