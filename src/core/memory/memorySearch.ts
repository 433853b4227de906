import type { MemoryHit } from '../../shared/memory.js';
import type { ModelEntry } from '../../shared/models.js';
import { createEmbedder, EMBED_BATCH, offersEmbeddings, type Embedder } from '../knowledge/embedder.js';
import type { Logger } from '../ports.js';
import type { MemorySpace, MemoryStore } from './memoryStore.js';

export interface MemorySearchDeps {
  store: MemoryStore;
  /** The model entry set to embed memories (the user's setting `memoryEmbeddingModel`), read at each search. */
  modelId(): string | undefined;
  /** Model entries and their keys (the ModelService). */
  models: { get(id: string): ModelEntry | undefined; keyFor(entry: ModelEntry): Promise<string | undefined> };
  logger: Logger;
}

/** How a search found its memories: by meaning (the embedding model), or by words (none set, or it failed: `note` says why). */
export interface MemorySearchResult {
  mode: 'meaning' | 'words';
  hits: MemoryHit[];
  note?: string;
}

/** Vectors kept in this process at most: a full space (MAX_MEMORIES) several times over, a few MB of numbers. */
const MAX_CACHED = 5000;

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The one search of memories (docs/using/memory.md): the Memory page, the
 * agent editor's tab, the CLI, the settings server and an agent's
 * memory_recall all ask it. With an embedding model set, memories are
 * ranked by meaning (cosine of the query's vector and each memory's), so
 * "user preferences" finds "I prefer short answers"; else, or when the
 * model cannot be reached, by words (BM25), the note saying why. A
 * memory's vector is asked once per model and text, then kept (bounded)
 * in this process: a search sends the query and only memories not seen yet.
 * Only the texts go to the model entry the user chose, as a knowledge base's do.
 */
export class MemorySearch {
  private readonly vectors = new Map<string, number[]>();

  constructor(private readonly deps: MemorySearchDeps) {}

  async search(space: MemorySpace, query: string, limit: number): Promise<MemorySearchResult> {
    const modelId = this.deps.modelId();
    const words = () => this.deps.store.search(space, query, limit);
    if (!modelId) return { mode: 'words', hits: words() };
    const entry = this.deps.models.get(modelId);
    if (!entry || !offersEmbeddings(entry)) return { mode: 'words', hits: words(), note: `searched by words: model "${modelId}" cannot embed` };
    const memories = this.deps.store.list(space);
    if (!memories.length) return { mode: 'meaning', hits: [] };
    try {
      const embedder = createEmbedder(entry, await this.deps.models.keyFor(entry), { retries: 0 });
      const [queryVector] = await embedder.embed([query]);
      const vectors = await this.vectorsOf(
        embedder,
        memories.map((m) => m.text),
      );
      const hits = memories.map((memory, i) => ({ ...memory, score: cosine(queryVector!, vectors[i]!) })).sort((a, b) => b.score - a.score);
      return { mode: 'meaning', hits: hits.slice(0, limit) };
    } catch (error) {
      const reason = (error as Error).message;
      this.deps.logger.warn(`memory search by meaning failed, by words instead: ${reason}`);
      return { mode: 'words', hits: words(), note: `searched by words: ${reason}` };
    }
  }

  /** Each text's vector: those kept, the others asked in batches and kept. */
  private async vectorsOf(embedder: Embedder, texts: readonly string[]): Promise<number[][]> {
    const keyOf = (text: string) => `${embedder.modelId}\n${text}`;
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(keyOf(text))))];
    for (let start = 0; start < missing.length; start += EMBED_BATCH) {
      const batch = missing.slice(start, start + EMBED_BATCH);
      const vectors = await embedder.embed(batch);
      batch.forEach((text, i) => this.keep(keyOf(text), vectors[i]!));
    }
    return texts.map((text) => this.vectors.get(keyOf(text))!);
  }

  private keep(key: string, vector: number[]): void {
    if (this.vectors.size >= MAX_CACHED) this.vectors.delete(this.vectors.keys().next().value!);
    this.vectors.set(key, vector);
  }
}
