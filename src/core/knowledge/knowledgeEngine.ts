import type { Chunk, KnowledgeBase, SearchHit } from '../../shared/knowledge.js';
import { KnowledgeStore, type StoreChange } from './knowledgeStore.js';

export type { StoreChange } from './knowledgeStore.js';

/**
 * Where a base's chunks live, as the service sees it (issue 44): the
 * embedded store (an SQLite file beside base.json) or a team's server
 * (knowledge/postgres/). Asynchronous because a server answers over the
 * network; the embedded store answers at once. Every engine writes a change
 * in one transaction (all of it or none), ranks with hybridFusion.ts, and
 * names the base and the fix in each KnowledgeError it throws.
 */
export interface KnowledgeEngine {
  /** The model and dimensions of the vectors held; null without vectors. */
  embeddedWith(): Promise<KnowledgeBase['embeddedWith']>;
  counts(): Promise<{ files: number; chunks: number }>;
  get(id: string): Promise<Chunk | undefined>;
  /** Every chunk, in the order added (for re-embedding). */
  all(): Promise<Chunk[]>;
  files(): Promise<{ file: string; chunks: number }[]>;
  page(file: string | undefined, offset: number, limit: number): Promise<{ total: number; chunks: Chunk[] }>;
  chunkCounts(names: Iterable<string>): Promise<Map<string, number>>;
  /** Returns notes for the user about a change that was saved (the embedded store's search graph could not be written). */
  write(change: StoreChange): Promise<string[]>;
  /** Every chunk's vector replaced (a new model) or removed (none), in one transaction. */
  replaceVectors(embeddedWith: KnowledgeBase['embeddedWith'], vectors?: ReadonlyMap<string, readonly number[]>): Promise<void>;
  search(query: string, limit: number, vector?: readonly number[]): Promise<SearchHit[]>;
  /** Another process changed the base: what is cached is read again on next use. */
  refresh(): void;
  close(): Promise<void>;
}

/** The embedded store (KnowledgeStore) behind the engine interface. */
export function embeddedEngine(store: KnowledgeStore): KnowledgeEngine {
  return {
    embeddedWith: async () => store.embeddedWith,
    counts: async () => store.counts(),
    get: async (id) => store.get(id),
    all: async () => [...store.all()],
    files: async () => store.files(),
    page: async (file, offset, limit) => store.page(file, offset, limit),
    chunkCounts: async (names) => store.chunkCounts(names),
    write: async (change) => store.write(change),
    replaceVectors: async (embeddedWith, vectors) => {
      store.replaceVectors(embeddedWith, vectors);
      // Built now, rather than on the first search.
      if (embeddedWith) store.prepareVectors();
    },
    search: async (query, limit, vector) => store.search(query, limit, vector),
    refresh: () => store.refresh(),
    close: async () => store.close(),
  };
}

/** Opens (or creates) the embedded store in a base's folder. */
export const openEmbedded = (folder: string, id: string): KnowledgeEngine => embeddedEngine(KnowledgeStore.open(folder, id));
