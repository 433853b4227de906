import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type Host } from '../../../src/core/host.js';
import { KnowledgeError, type KnowledgeErrorCode } from '../../../src/core/knowledge/knowledgeError.js';
import { KnowledgeIndex } from '../../../src/core/knowledge/knowledgeIndex.js';
import type { Chunk } from '../../../src/shared/knowledge.js';
import { tempDir } from '../../helpers/tempDir.js';
import { expect } from 'vitest';

// Re-exported for the host tests that import them from here; the browser test imports knowledgeFiles.ts itself.
export { FIELD_NOTES_PDF, GUIDE_MD, writeFixtures } from './knowledgeFiles.js';

const hosts: Host[] = [];

export async function startedHost(home = tempDir('chatos-kb-home-')): Promise<Host> {
  const host = createHost({ home, env: {}, builtinPluginsDir: tempDir('chatos-kb-builtin-'), defaultsDir: tempDir('chatos-kb-defaults-') });
  hosts.push(host);
  await host.start();
  return host;
}

export async function disposeHosts(): Promise<void> {
  for (const host of hosts.splice(0)) await host.dispose();
}

export async function knowledgeError(promise: Promise<unknown>, code: KnowledgeErrorCode): Promise<KnowledgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(KnowledgeError);
  expect((error as KnowledgeError).code).toBe(code);
  return error as KnowledgeError;
}

/**
 * Rewrites a base's folder in the format before the store (issue 44):
 * index.msp and vectors.bin, written by the code that wrote them
 * (KnowledgeIndex), from its chunks and the vectors the embedding server
 * answers for them; base.json is kept. What a user's base looks like
 * before the first open with the store.
 */
export async function writeLegacyBase(folder: string, chunks: Chunk[], vectors: number[][] | null): Promise<void> {
  const index = KnowledgeIndex.empty(vectors ? vectors[0]!.length : null);
  await index.add(chunks, vectors ?? undefined);
  const write = index.takeVectorsWrite();
  for (const name of fs.readdirSync(folder)) if (name !== 'base.json') fs.rmSync(path.join(folder, name), { force: true });
  fs.writeFileSync(path.join(folder, 'index.msp'), index.toBytes());
  if (write.kind === 'rewrite' && write.bytes) fs.writeFileSync(path.join(folder, 'vectors.bin'), write.bytes);
}

/** Every chunk of a base, in file and position order. */
export async function allChunks(host: Host, id: string): Promise<Chunk[]> {
  return (await host.knowledge.listDocuments(id, { limit: 500 })).chunks;
}

/** The vectors a model entry answers for texts, fetched the way a base does (the local provider server embeds deterministically). */
export async function vectorsOf(host: Host, modelId: string, texts: string[]): Promise<number[][]> {
  const entry = host.models.get(modelId)!;
  const response = await fetch(`${entry.baseUrl}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: entry.model, input: texts, encoding_format: 'float' }),
  });
  return ((await response.json()) as { data: { embedding: number[] }[] }).data.map((d) => d.embedding);
}
