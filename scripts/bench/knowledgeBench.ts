import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { KnowledgeService } from '../../src/core/knowledge/knowledgeService.js';
import type { ModelEntry } from '../../src/shared/models.js';
import { DIMENSIONS, makeChunks, makeWords, vectorOf } from './knowledgeCorpus.js';
import { atMost, check, gcNow, info, percentile, type BenchRow, type BenchSection } from './section.js';

/**
 * Knowledge bases on real files in a temp data home:
 *
 * - hybrid search over 10,000 chunks with 768-dimension vectors (the size
 *   of nomic-embed-text, a common local embedding model), each query
 *   embedded by a local OpenAI-compatible `/embeddings` server: p95 of 200
 *   queries after 20 warm-up ones;
 * - adding 1 MB of Markdown to a base without a model (read, cut, index,
 *   written to disk);
 * - the heap and off-heap memory of the process after that add and a full
 *   garbage collection, against before the base was opened.
 */

const CHUNKS = 10_000;
const QUERIES = 200;
const WARMUP = 20;
const SEARCH_P95_MS = 50;
const INGEST_MS = 2000;
const MEMORY_MB = 50;
const MiB = 1024 * 1024;

/** A minimal OpenAI-compatible `/embeddings` server. */
export async function embeddingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: 'bench',
          data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
    });
  });
  // Longer than the client keeps an idle socket: a socket closed by the server just as the client reuses it is a reset.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export function serviceOn(dir: string, baseUrl: string): KnowledgeService {
  const entry: ModelEntry = { id: 'embed', name: 'Embed', api: 'openai', baseUrl, model: 'bench-embed', vision: false, key: { kind: 'none' } };
  return new KnowledgeService({ dir, models: { get: (id) => (id === 'embed' ? entry : undefined), ids: () => ['embed'], keyFor: async () => undefined }, now: () => Date.now() });
}

/** 1 MB of Markdown: sections with headings, paragraphs, lists and code. */
export function markdownOfSize(bytes: number): string {
  const word = makeWords(7);
  const parts: string[] = [];
  let size = 0;
  for (let section = 0; size < bytes; section++) {
    const lines = [`## Section ${section} ${word()} ${word()}`, ''];
    for (let p = 0; p < 4; p++) lines.push(Array.from({ length: 60 }, word).join(' ') + '.', '');
    lines.push(`- ${word()} ${word()}`, `- ${word()} ${word()}`, '', '```js', `const ${word()} = ${section};`, '```', '');
    const text = lines.join('\n');
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return parts.join('\n');
}

const usedMiB = () => {
  const m = process.memoryUsage();
  return (m.heapUsed + m.external + m.arrayBuffers) / MiB;
};

export async function runKnowledgeBench(): Promise<BenchSection> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-kb-'));
  const server = await embeddingServer();
  const rows: BenchRow[] = [];
  const gc = gcNow();
  try {
    // 1 MB of Markdown, words only, into a fresh service: timed, and its memory measured.
    const markdown = markdownOfSize(MiB);
    const lexical = serviceOn(path.join(home, 'lexical'), server.url);
    gc();
    const before = usedMiB();
    await lexical.create({ id: 'md', name: 'Markdown' });
    const started = performance.now();
    const added = await lexical.addText('md', markdown, 'big.md');
    const ingestMs = performance.now() - started;
    rows.push(atMost(`add 1 MB of Markdown (${added.chunks} chunks), no model`, ingestMs, 'ms', INGEST_MS));
    gc();
    const after = usedMiB();
    rows.push(atMost('memory after that add (heap + off-heap), more than before', after - before, 'MiB', MEMORY_MB));
    rows.push(info('store file of that base', fs.statSync(path.join(home, 'lexical', 'md', 'store.sqlite')).size / MiB, 'MiB'));
    lexical.dispose();
    // Hybrid search over 10,000 chunks: 10 documents of 1,000 chunks each (each add one store transaction).
    const service = serviceOn(home, server.url);
    await service.create({ id: 'big', name: 'Big', embeddingModel: 'embed', chunkSize: 400, chunkOverlap: 0 });
    const word = makeWords(1);
    const corpus = makeChunks(1);
    const buildStarted = performance.now();
    for (let d = 0; d < CHUNKS / 1000; d++) {
      const paragraphs = Array.from({ length: 1000 }, () => corpus.chunk());
      corpus.nextDocument();
      await service.addText('big', paragraphs.join('\n\n'), `doc-${d}.md`);
    }
    const built = await service.get('big');
    check(built.counts.chunks >= CHUNKS * 0.9, `the base holds ${built.counts.chunks} chunks, expected about ${CHUNKS}`);
    rows.push(info(`build ${built.counts.chunks} chunks (embed, index, save)`, performance.now() - buildStarted, 'ms'));
    const times: number[] = [];
    for (let q = 0; q < WARMUP + QUERIES; q++) {
      const query = corpus.query();
      const started = performance.now();
      const result = await service.search('big', query, { limit: 5 });
      if (q >= WARMUP) times.push(performance.now() - started);
      check(result.mode === 'hybrid', 'the search was not hybrid');
    }
    rows.push(atMost(`hybrid search, ${built.counts.chunks} chunks × ${DIMENSIONS} dims: p95`, percentile(times, 95), 'ms', SEARCH_P95_MS));
    rows.push(info('hybrid search: median', percentile(times, 50), 'ms'));
    // The part of each search that is the query's trip to the embedding server, for the reader to subtract.
    const trips: number[] = [];
    for (let q = 0; q < 50; q++) {
      const started = performance.now();
      await (
        await fetch(`${server.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'bench-embed', input: [`${word()} ${word()}`] }) })
      ).json();
      trips.push(performance.now() - started);
    }
    rows.push(info('of which the query embedding request: p95', percentile(trips, 95), 'ms'));
    const addStarted = performance.now();
    await service.addText('big', Array.from({ length: 10 }, () => corpus.chunk()).join('\n\n'), 'one-more.md');
    rows.push(info('add a 10-chunk file to that base (embed, one store transaction)', performance.now() - addStarted, 'ms'));
    rows.push(info('its store file (store.sqlite)', fs.statSync(path.join(home, 'big', 'store.sqlite')).size / MiB, 'MiB'));
    service.dispose();
  } finally {
    await server.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
  return {
    title: 'knowledge bases',
    rows,
    notes: ['search time includes embedding the query on a local server; the memory row keeps the base open, as a host does after an add, and is measured first, before the 10,000-chunk base exists'],
  };
}
