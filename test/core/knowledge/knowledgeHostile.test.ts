import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbedder, EMBED_BATCH } from '../../../src/core/knowledge/embedder.js';
import { MAX_EMBEDDING_DIMENSIONS } from '../../../src/shared/knowledge.js';
import { SECRET_PATH, startEndlessServer } from '../../helpers/endlessServer.js';
import { pdfOfRepeatedPage } from '../../helpers/pdfFile.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { tempDir } from '../../helpers/tempDir.js';
import { allChunks, disposeHosts, GUIDE_MD, knowledgeError, startedHost, vectorsOf, writeLegacyBase } from './knowledgeFixtures.js';

/**
 * Knowledge bases against what an attacker controls: an embedding server
 * that answers what it likes, and files in a base's folder.
 */

const servers: http.Server[] = [];

afterEach(async () => {
  await disposeHosts();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A real OpenAI-compatible `/v1/embeddings` whose vectors `vectorFor` makes (from the request's inputs), its JSON indented by `indent`. */
async function embeddingServer(vectorFor: (input: string, inputs: string[]) => number[], indent = 0): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
      const data = body.input.map((input, index) => ({ object: 'embedding', index, embedding: vectorFor(input, body.input) }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data, model: 'hostile', usage: { prompt_tokens: 1, total_tokens: 1 } }, null, indent));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A base embedded by the local provider server (16 numbers a vector), holding the garden guide. */
async function guideBase(name: string) {
  const provider = await startProviderServer();
  const home = tempDir('chatos-kb-home-');
  const host = await startedHost(home);
  await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
  const base = await host.knowledge.create({ name, embeddingModel: 'embed', chunkSize: 200, chunkOverlap: 30 });
  await host.knowledge.addText(base.id, GUIDE_MD, 'guide.md');
  return { home, host, base };
}

/** guideBase written again in the format before the store (index.msp and vectors.bin, by the code that wrote them). */
async function legacyGuideBase(name: string) {
  const made = await guideBase(name);
  const chunks = await allChunks(made.host, made.base.id);
  const vectors = await vectorsOf(
    made.host,
    'embed',
    chunks.map((c) => c.text),
  );
  await disposeHosts();
  await writeLegacyBase(path.join(made.home, 'chatos', 'knowledge', made.base.id), chunks, vectors);
  return made;
}

const ramp = (length: number, seed: string) => Array.from({ length }, (_, i) => ((seed.charCodeAt(i % seed.length) + i) % 17) - 8);

describe('a hostile embedding server', () => {
  it('vectors of absurd length are refused before they reach a base: the model fails its check when the base is made', async () => {
    const url = await embeddingServer((input) => ramp(100_000, input));
    const host = await startedHost();
    await host.models.create({ id: 'huge', name: 'Huge', api: 'openai', baseUrl: url, model: 'huge', kind: 'embedding' });
    const error = await knowledgeError(host.knowledge.create({ name: 'Huge', embeddingModel: 'huge' }), 'KB_EMBEDDING_FAILED');
    expect(error.message).toMatch(/failed its embedding check.*100000 numbers, more than the 8192/);
    expect(await host.knowledge.list()).toEqual([]);
  });

  it('an answer that never ends fails the embedding with a clear error; the host stops reading it and goes on', async () => {
    // Ends after 128 MiB, past every limit: a reader without one fails too, later, on the truncated JSON.
    const hostile = await startEndlessServer({ head: '{"object":"list","data":[{"object":"embedding","index":0,"embedding":[', piece: '0.0123456789,'.repeat(4096), total: 128 * 1024 * 1024 });
    const host = await startedHost();
    await host.models.create({ id: 'endless', name: 'Endless', api: 'openai', baseUrl: hostile.url, model: 'endless', kind: 'embedding' });
    const error = await knowledgeError(host.knowledge.create({ name: 'Endless', embeddingModel: 'endless' }), 'KB_EMBEDDING_FAILED');
    await hostile.closed;
    expect(error.message).toMatch(new RegExp(`failed its embedding check.*the answer from ${hostile.origin} is larger than 1\\.4 MiB`));
    expect(error.message).not.toContain(SECRET_PATH);
    expect(hostile.written, 'the host read on past the limit').toBeLessThan(16 * 1024 * 1024);
    expect(hostile.requests, 'a refused answer is not asked for again').toBe(1);

    // The host goes on: another base, on a sane server, is made, filled and searched.
    const provider = await startProviderServer();
    await host.models.create({ id: 'sane', name: 'Sane', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d', kind: 'embedding' });
    const base = await host.knowledge.create({ name: 'Sane', embeddingModel: 'sane', chunkSize: 200, chunkOverlap: 30 });
    await host.knowledge.addText(base.id, GUIDE_MD, 'guide.md');
    expect((await host.knowledge.search(base.id, 'ladybugs aphids')).hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    expect((await host.knowledge.list()).map((b) => b.name)).toEqual(['Sane']);
  });

  it('a full batch of the largest vectors a base keeps, pretty-printed, is within the limit', async () => {
    // Long numbers (a minus sign and 17 or so digits each); seeded, so the size measured is the same in every run.
    const random = seededRandom();
    const url = await embeddingServer(() => Array.from({ length: MAX_EMBEDDING_DIMENSIONS }, () => -random() / 1e5), 4);
    const entry = { id: 'wide', name: 'Wide', api: 'openai' as const, baseUrl: url, model: 'wide', vision: false, key: { kind: 'stored' as const } };
    const vectors = await createEmbedder(entry, undefined, { retries: 0 }).embed(Array.from({ length: EMBED_BATCH }, (_, i) => `text ${i}`));
    expect(vectors.length).toBe(EMBED_BATCH);
    expect(vectors.every((vector) => vector.length === MAX_EMBEDDING_DIMENSIONS)).toBe(true);
  });

  it('a query answered with another length than the chunks is searched by words only, saying why', async () => {
    const url = await embeddingServer((input) => ramp(input.startsWith('find:') ? 8 : 16, input));
    const host = await startedHost();
    await host.models.create({ id: 'shifty', name: 'Shifty', api: 'openai', baseUrl: url, model: 'shifty', kind: 'embedding' });
    const base = await host.knowledge.create({ name: 'Shifty', embeddingModel: 'shifty', chunkSize: 200, chunkOverlap: 30 });
    await host.knowledge.addText(base.id, GUIDE_MD, 'guide.md');
    const found = await host.knowledge.search(base.id, 'find: ladybugs aphids');
    expect(found.mode).toBe('lexical');
    expect(found.note).toMatch(/answered the query with 8 numbers, the base's vectors have 16/);
    expect(found.hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
  });
});

describe("files in a base's folder", () => {
  it('a base.json claiming absurd vector dimensions is refused, naming the field', async () => {
    const home = tempDir('chatos-kb-home-');
    const host = await startedHost(home);
    const base = await host.knowledge.create({ name: 'Claims' });
    await disposeHosts();
    const file = path.join(home, 'chatos', 'knowledge', base.id, 'base.json');
    fs.writeFileSync(file, JSON.stringify({ ...base, embeddingModel: 'm', embeddedWith: { model: 'm', dimensions: 50_000_000 } }));
    const again = await startedHost(home);
    const error = await knowledgeError(again.knowledge.get(base.id), 'KB_BROKEN');
    expect(error.message).toMatch(/embeddedWith\.dimensions/);
  });

  it('a base of the older format whose vectors.bin header claims other (absurd) dimensions is moved as words only, not sized by it', async () => {
    const { home, base } = await legacyGuideBase('Header');
    const vectors = path.join(home, 'chatos', 'knowledge', base.id, 'vectors.bin');
    const header = Buffer.alloc(8);
    header.write('KBV1', 'ascii');
    header.writeUInt32LE(0xffff_ffff, 4);
    fs.writeFileSync(vectors, header);

    const again = await startedHost(home);
    const found = await again.knowledge.search(base.id, 'ladybugs aphids');
    expect(found.mode).toBe('lexical');
    expect(found.hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    // Re-embedding gives it vectors of the base's dimensions again.
    await again.knowledge.reembed(base.id);
    expect((await again.knowledge.get(base.id)).embeddedWith).toEqual({ model: 'embed', dimensions: 16 });
    expect((await again.knowledge.search(base.id, 'ladybugs aphids')).mode).toBe('hybrid');
  });

  it('a base of the older format whose vectors.bin is a FIFO is not moved: the problem names it, the old files stay, and it moves once put right', async () => {
    const { home, base } = await legacyGuideBase('Fifo');
    const vectors = path.join(home, 'chatos', 'knowledge', base.id, 'vectors.bin');
    const saved = fs.readFileSync(vectors);
    fs.rmSync(vectors);
    execFileSync('mkfifo', [vectors]);

    const host = await startedHost(home);
    const error = await knowledgeError(host.knowledge.search(base.id, 'ladybugs'), 'KB_BROKEN');
    expect(error.message).toContain(`"${base.id}"`);
    expect(error.message).toMatch(/old files are kept/);
    expect(fs.existsSync(path.join(home, 'chatos', 'knowledge', base.id, 'index.msp'))).toBe(true);
    fs.rmSync(vectors);
    fs.writeFileSync(vectors, saved);
    expect((await host.knowledge.search(base.id, 'ladybugs aphids')).hits[0]).toMatchObject({ file: 'guide.md', heading: 'Pests' });
    expect((await host.knowledge.search(base.id, 'ladybugs aphids')).mode).toBe('hybrid');
  });

  it('a small PDF whose pages all show one compressed stream is read page by page and refused once it passes the text limit', async () => {
    const host = await startedHost();
    await host.knowledge.create({ name: 'Bombs' });
    // 400 pages of 100,000 characters each: 40 million characters of text in a file of a few kilobytes.
    const bytes = pdfOfRepeatedPage(400, 'A'.repeat(100), 1000);
    expect(bytes.length).toBeLessThan(256 * 1024);
    const error = await knowledgeError(host.knowledge.addBytes('bombs', 'bomb.pdf', bytes), 'KB_DOCUMENT_TOO_LARGE');
    const stopped = /reading stopped at page (\d+) of 400/.exec(error.message);
    expect(Number(stopped?.[1])).toBeGreaterThan(100);
    expect(Number(stopped?.[1])).toBeLessThan(400);
    expect((await host.knowledge.get('bombs')).counts.chunks).toBe(0);
  });
});
