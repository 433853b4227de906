import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KnowledgeBase } from '../../shared/knowledge.js';
import { readRegularFile } from '../files/readRegularFile.js';
import { KnowledgeError } from './knowledgeError.js';
import { KnowledgeIndex } from './knowledgeIndex.js';
import { KnowledgeStore, STORE_FILE } from './knowledgeStore.js';
import { removeGraphs } from './vectorIndex.js';

/** The files of the format before the store (issue 44): MiniSearch's text index and the flat vectors file. */
const INDEX_FILE = 'index.msp';
const VECTORS_FILE = 'vectors.bin';
const PARTIAL = `${STORE_FILE}.migrating`;
const MAX_INDEX_BYTES = 2 * 1024 * 1024 * 1024 - 1;
/** Chunks per transaction while moving: progress is reported after each. */
const BATCH = 2000;

export const hasLegacyIndex = (folder: string) => fs.existsSync(path.join(folder, INDEX_FILE));

/**
 * Moves a base of the older format into a store: the old files are read
 * (with the code that wrote them), the chunks and vectors written into
 * `store.sqlite.migrating`, which is renamed to `store.sqlite` only when
 * complete; then the old files are removed. A failure at any point before
 * the rename removes the partial store and leaves the old files as they
 * were, so the next open tries again; after it, the store is the base.
 */
export async function migrateLegacy(folder: string, base: KnowledgeBase, onProgress: (progress: { done: number; total: number }) => void): Promise<void> {
  const target = path.join(folder, STORE_FILE);
  // A crash after the rename and before the old files were removed: the store is complete.
  if (fs.existsSync(target)) return removeLegacy(folder);
  const partial = path.join(folder, PARTIAL);
  removeStoreFiles(partial);
  // Graph files are of the store being written: any left by an earlier try are of no store.
  removeGraphs(folder);
  try {
    const index = await readLegacy(folder, base);
    const chunks = [...index.all()];
    const vectors = index.vectorRows;
    const embeddedWith = base.embeddedWith && vectors?.size ? base.embeddedWith : null;
    const store = KnowledgeStore.open(folder, base.id, PARTIAL);
    try {
      onProgress({ done: 0, total: chunks.length });
      for (let at = 0; at < chunks.length; at += BATCH) {
        const batch = chunks.slice(at, at + BATCH);
        // Chunks a vectors file lacks (a crash of the old format mid-append) are kept, by words only, as the old format searched them.
        const withVectors = embeddedWith ? batch.filter((c) => vectors!.has(c.id)) : [];
        const without = batch.filter((c) => !withVectors.includes(c));
        if (withVectors.length) store.write({ chunks: withVectors, vectors: withVectors.map((c) => vectors!.get(c.id)!), embeddedWith });
        if (without.length) store.write({ chunks: without });
        onProgress({ done: Math.min(at + BATCH, chunks.length), total: chunks.length });
      }
      if (embeddedWith) store.write({ embeddedWith });
    } finally {
      store.close();
    }
    fs.renameSync(partial, target);
  } catch (error) {
    removeStoreFiles(partial);
    removeGraphs(folder);
    const why = error instanceof KnowledgeError ? error.message : (error as Error).message;
    throw new KnowledgeError(
      'KB_BROKEN',
      `knowledge base "${base.id}" could not be moved into its new store (${why}); its old files are kept as they were`,
      'free disk space if it is full and open the base again to retry; if its old index is damaged, delete the base and add its documents again',
    );
  }
  removeLegacy(folder);
}

async function readLegacy(folder: string, base: KnowledgeBase): Promise<KnowledgeIndex> {
  const read = readRegularFile(path.join(folder, INDEX_FILE), { maxBytes: MAX_INDEX_BYTES, noFollow: true });
  if (!read.ok) throw new Error(read.message);
  const dimensions = base.embeddedWith?.dimensions ?? null;
  const vectors = dimensions ? readRegularFile(path.join(folder, VECTORS_FILE), { maxBytes: MAX_INDEX_BYTES, noFollow: true }) : undefined;
  if (vectors && !vectors.ok && vectors.code !== 'FILE_NOT_FOUND') throw new Error(vectors.message);
  return (await KnowledgeIndex.fromBytes(read.bytes, dimensions, vectors?.ok ? vectors.bytes : undefined)).index;
}

function removeLegacy(folder: string): void {
  for (const name of [INDEX_FILE, VECTORS_FILE]) fs.rmSync(path.join(folder, name), { force: true });
}

function removeStoreFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}
