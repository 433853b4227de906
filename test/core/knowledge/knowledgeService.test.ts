import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProviderServer } from '../../helpers/providerServer.js';
import { tempDir } from '../../helpers/tempDir.js';
import { create, insertMultiple, save } from '@orama/orama';
import { encode } from '@msgpack/msgpack';
import type { Host } from '../../../src/core/host.js';
import type { Chunk } from '../../../src/shared/knowledge.js';
import { allChunks, disposeHosts, GUIDE_MD, knowledgeError, startedHost, vectorsOf, writeFixtures, writeLegacyBase } from './knowledgeFixtures.js';

afterEach(disposeHosts);

const embeddingRequests = (requests: { path: string; body: any }[], model?: string) => requests.filter((r) => r.path.endsWith('/embeddings') && (model === undefined || r.body.model === model));

describe('knowledge bases by words only (no model at all)', () => {
  it('adds a Markdown and a PDF file, finds the right chunk first, lists by file, deletes a file, and keeps it all on disk', async () => {
    const home = tempDir('chatos-kb-home-');
    const host = await startedHost(home);
    const files = writeFixtures(tempDir('chatos-kb-files-'));
    const base = await host.knowledge.create({ name: 'Garden notes', chunkSize: 200, chunkOverlap: 30 });
    expect(base).toMatchObject({ id: 'garden_notes', embeddingModel: null, embeddedWith: null, counts: { files: 0, chunks: 0 } });

    const md = await host.knowledge.addFile(base.id, files.md);
    const pdf = await host.knowledge.addFile(base.id, files.pdf);
    expect(md).toMatchObject({ file: 'guide.md', embedded: false });
    expect(md.chunks).toBeGreaterThanOrEqual(3);
    expect(pdf.file).toBe('field-notes.pdf');

    const aphids = await host.knowledge.search(base.id, 'ladybugs aphids');
    expect(aphids.mode).toBe('lexical');
    expect(aphids.hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    expect(aphids.hits[0]!.text).toContain('Ladybugs eat aphids');
    const volcano = await host.knowledge.search(base.id, 'volcano');
    expect(volcano.hits[0]).toMatchObject({ file: 'field-notes.pdf' });
    expect(volcano.hits[0]!.text).toContain('erupted');

    const page = await host.knowledge.listDocuments(base.id, { limit: 2 });
    expect(page.files.map((f) => f.file)).toEqual(['field-notes.pdf', 'guide.md']);
    expect(page.files.reduce((n, f) => n + f.chunks, 0)).toBe(page.total);
    expect(page.chunks).toHaveLength(2);
    expect((await host.knowledge.get(base.id)).counts).toEqual({ files: 2, chunks: page.total });

    // Adding the same file again replaces its chunks rather than doubling them.
    expect((await host.knowledge.addFile(base.id, files.md)).replaced).toBe(md.chunks);
    expect((await host.knowledge.get(base.id)).counts.chunks).toBe(page.total);

    expect(await host.knowledge.deleteFile(base.id, 'field-notes.pdf')).toBe(pdf.chunks);
    expect((await host.knowledge.search(base.id, 'volcano')).hits).toEqual([]);
    await knowledgeError(host.knowledge.deleteFile(base.id, 'field-notes.pdf'), 'KB_FILE_NOT_FOUND');

    const one = (await host.knowledge.listDocuments(base.id, { file: 'guide.md' })).chunks[0]!;
    expect((await host.knowledge.deleteChunk(base.id, one.id)).id).toBe(one.id);
    await knowledgeError(host.knowledge.deleteChunk(base.id, one.id), 'KB_CHUNK_NOT_FOUND');
    const left = (await host.knowledge.get(base.id)).counts;

    // A new process reads the same base from its folder.
    await disposeHosts();
    const again = await startedHost(home);
    expect((await again.knowledge.list()).map((b) => [b.id, b.counts])).toEqual([[base.id, left]]);
    expect((await again.knowledge.search(base.id, 'ladybugs')).hits[0]!.heading).toBe('Pests');
    expect(fs.readdirSync(path.join(home, 'chatos', 'knowledge', base.id)).filter((f) => !f.startsWith('store.sqlite'))).toEqual(['base.json']);

    await again.knowledge.delete(base.id);
    expect(fs.existsSync(path.join(home, 'chatos', 'knowledge', base.id))).toBe(false);
    await knowledgeError(again.knowledge.get(base.id), 'KB_NOT_FOUND');
  });

  it('finds Chinese text by its words, and adds a text with a title', async () => {
    const host = await startedHost();
    const base = await host.knowledge.create({ name: 'zh', id: 'zh' });
    await host.knowledge.addText(base.id, '机器学习是人工智能的一个分支。\n\n深度学习使用多层神经网络。', '笔记');
    await host.knowledge.addText(base.id, '今天天气很好，我们去公园散步。', '日记');
    const found = await host.knowledge.search(base.id, '神经网络');
    expect(found.hits[0]).toMatchObject({ file: '笔记' });
  });

  it('refuses what it cannot read or use, with a code and nothing changed', async () => {
    const host = await startedHost();
    const dir = tempDir('chatos-kb-bad-');
    const base = await host.knowledge.create({ name: 'bad' });
    await knowledgeError(host.knowledge.create({ name: 'bad', id: 'bad' }), 'KB_EXISTS');
    await knowledgeError(host.knowledge.create({ name: '', chunkSize: 100, chunkOverlap: 100 }), 'KB_INVALID');
    await knowledgeError(host.knowledge.create({ name: 'x', id: '../escape' }), 'KB_INVALID');
    await knowledgeError(host.knowledge.create({ name: 'x', embeddingModel: 'nope' }), 'KB_MODEL_NOT_FOUND');
    await host.models.create({ id: 'claude', name: 'Claude', api: 'anthropic', baseUrl: 'http://127.0.0.1:9', model: 'c', kind: 'embedding' });
    await knowledgeError(host.knowledge.create({ name: 'x', embeddingModel: 'claude' }), 'KB_MODEL_NO_EMBEDDINGS');

    fs.writeFileSync(path.join(dir, 'a.docx'), 'x');
    await knowledgeError(host.knowledge.addFile(base.id, path.join(dir, 'a.docx')), 'KB_FILE_UNSUPPORTED');
    fs.writeFileSync(path.join(dir, 'empty.md'), ' \n');
    await knowledgeError(host.knowledge.addFile(base.id, path.join(dir, 'empty.md')), 'KB_DOCUMENT_EMPTY');
    fs.writeFileSync(path.join(dir, 'broken.pdf'), 'not a pdf');
    await knowledgeError(host.knowledge.addFile(base.id, path.join(dir, 'broken.pdf')), 'KB_FILE_UNREADABLE');
    if (process.platform !== 'win32') {
      // A FIFO would block a plain read forever.
      execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
      const error = await knowledgeError(host.knowledge.addFile(base.id, path.join(dir, 'pipe.md')), 'KB_FILE_UNREADABLE');
      expect(error.message).toContain('FIFO');
    }
    expect((await host.knowledge.get(base.id)).counts).toEqual({ files: 0, chunks: 0 });
    await knowledgeError(host.knowledge.get('missing'), 'KB_NOT_FOUND');
  });
});

describe('knowledge bases with an embedding model (the local provider server)', () => {
  it('embeds in batches, searches hybrid with the right chunk first, and re-embeds when the model changes', async () => {
    const provider = await startProviderServer();
    const host = await startedHost();
    await host.models.create({ id: 'embed-a', name: 'Embed A', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    await host.models.create({ id: 'embed-b', name: 'Embed B', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-24d' });
    const files = writeFixtures(tempDir('chatos-kb-files-'));
    const base = await host.knowledge.create({ name: 'Embedded', embeddingModel: 'embed-a', chunkSize: 200, chunkOverlap: 30 });

    const progress: string[] = [];
    const md = await host.knowledge.addFile(base.id, files.md, { onProgress: (p) => progress.push(`${p.phase}:${p.done}/${p.total}`) });
    await host.knowledge.addFile(base.id, files.pdf);
    expect(md.embedded).toBe(true);
    expect(progress).toContain(`embedding:${md.chunks}/${md.chunks}`);
    expect((await host.knowledge.get(base.id)).embeddedWith).toEqual({ model: 'embed-a', dimensions: 16 });
    // The first request checked the model when the base was made; then the chunks, in batches.
    const [check, ...sent] = embeddingRequests(provider.requests, 'embed-16d');
    expect(check!.body.input).toEqual(['ChatOS embedding check']);
    expect(sent[0]!.body.input).toHaveLength(md.chunks);
    expect(sent[0]!.body.encoding_format).toBe('float');

    const result = await host.knowledge.search(base.id, 'ladybugs aphids');
    expect(result.mode).toBe('hybrid');
    expect(result.hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    expect((await host.knowledge.search(base.id, 'volcano')).hits[0]!.file).toBe('field-notes.pdf');
    // The query was embedded too, with the base's model.
    expect(embeddingRequests(provider.requests).at(-1)!.body.input).toEqual(['volcano']);

    const chunks = (await host.knowledge.get(base.id)).counts.chunks;
    const before = embeddingRequests(provider.requests, 'embed-24d').length;
    const updated = await host.knowledge.update(base.id, { embeddingModel: 'embed-b' });
    expect(updated.embeddedWith).toEqual({ model: 'embed-b', dimensions: 24 });
    const reembedded = embeddingRequests(provider.requests, 'embed-24d').slice(before);
    expect(reembedded.flatMap((r) => r.body.input)).toHaveLength(chunks);
    const after = await host.knowledge.search(base.id, 'ladybugs aphids');
    expect(after.mode).toBe('hybrid');
    expect(after.hits[0]!.heading).toBe('Pests');

    // Back to words only: no vectors, and nothing sent anywhere any more.
    const lexical = await host.knowledge.update(base.id, { embeddingModel: null });
    expect(lexical.embeddedWith).toBeNull();
    const count = provider.requests.length;
    expect((await host.knowledge.search(base.id, 'volcano')).mode).toBe('lexical');
    await host.knowledge.addText(base.id, 'more words', 'note');
    expect(provider.requests).toHaveLength(count);
  });

  it('keeps chunks, words and vectors in its store; a base of the older layouts is moved into it on first open and found the same', async () => {
    const provider = await startProviderServer();
    const home = tempDir('chatos-kb-home-');
    let host = await startedHost(home);
    await host.models.create({ id: 'embed-a', name: 'Embed A', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    const base = await host.knowledge.create({ name: 'Split', embeddingModel: 'embed-a', chunkSize: 200, chunkOverlap: 30 });
    const folder = findFolder(home, base.id);
    await host.knowledge.addText(base.id, GUIDE_MD, 'guide.md');
    await host.knowledge.addText(base.id, 'Volcanoes erupt lava and ash.', 'volcano.md');
    expect(fs.readdirSync(folder).filter((f) => !f.startsWith('store.sqlite'))).toEqual(['base.json']);
    expect((await host.knowledge.search(base.id, 'volcano lava')).hits[0]!.file).toBe('volcano.md');
    await host.knowledge.deleteFile(base.id, 'volcano.md');
    expect((await host.knowledge.search(base.id, 'volcano lava')).hits.map((h) => h.file)).not.toContain('volcano.md');
    const chunks = await allChunks(host, base.id);
    const before = await host.knowledge.search(base.id, 'ladybugs aphids');

    // A base saved in the oldest layout (vectors inside the Orama index) is read, moved into a store, and searched hybrid.
    const old = await oldLayoutIndex(host, chunks);
    await disposeHosts();
    await writeLegacyBase(folder, [], null);
    fs.writeFileSync(path.join(folder, 'index.msp'), old);
    host = await startedHost(home);
    const found = await host.knowledge.search(base.id, 'ladybugs aphids');
    expect(found.mode).toBe('hybrid');
    expect(found.hits.map((h) => h.id)).toEqual(before.hits.map((h) => h.id));
    expect(fs.existsSync(path.join(folder, 'index.msp'))).toBe(false);
    expect(fs.existsSync(path.join(folder, 'store.sqlite'))).toBe(true);
  });

  it('a cancel or a failed embedding request leaves the base as it was', async () => {
    const provider = await startProviderServer();
    const host = await startedHost();
    await host.models.create({ id: 'embed-a', name: 'Embed A', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    await host.models.create({ id: 'gone', name: 'Gone', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'embed-8d' });
    const base = await host.knowledge.create({ name: 'Cancel', embeddingModel: 'embed-a', chunkSize: 100, chunkOverlap: 0 });
    await host.knowledge.addText(base.id, 'The first note is about owls.', 'owls');
    const long = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} tells of river number ${i}.`).join('\n\n');

    const controller = new AbortController();
    const abortAfterFirstBatch = (p: { phase: string; done: number }) => p.phase === 'embedding' && p.done > 0 && controller.abort();
    await knowledgeError(host.knowledge.addText(base.id, long, 'rivers', { signal: controller.signal, onProgress: abortAfterFirstBatch }), 'KB_CANCELLED');
    expect((await host.knowledge.get(base.id)).counts).toEqual({ files: 1, chunks: 1 });
    expect(embeddingRequests(provider.requests).length).toBeGreaterThan(1);

    await knowledgeError(host.knowledge.update(base.id, { embeddingModel: 'gone' }), 'KB_EMBEDDING_FAILED');
    const kept = await host.knowledge.get(base.id);
    expect(kept).toMatchObject({ embeddingModel: 'embed-a', embeddedWith: { model: 'embed-a', dimensions: 16 } });
    expect((await host.knowledge.search(base.id, 'owls')).mode).toBe('hybrid');
  });
});

/** A base's folder under a data home (the one holding its base.json). */
function findFolder(home: string, id: string): string {
  const found = (fs.readdirSync(home, { recursive: true }) as string[]).find((f) => f.endsWith(path.join('knowledge', id, 'base.json')));
  return path.dirname(path.join(home, found!));
}

/** The index.msp of the layout before vectors had their own file: chunks and their vectors in one Orama index (as issue 20 shipped it). */
async function oldLayoutIndex(host: Host, chunks: Chunk[]): Promise<Uint8Array> {
  const vectors = await vectorsOf(
    host,
    'embed-a',
    chunks.map((c) => c.text),
  );
  const db = create({ schema: { text: 'string', embedding: 'vector[16]' } as never });
  await insertMultiple(db, chunks.map((chunk, i) => ({ ...chunk, embedding: vectors[i] })) as never);
  return encode(save(db));
}
