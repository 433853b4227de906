/**
 * The child of knowledgeScaleBench.ts: opens a built base as a fresh host
 * process would, and prints its figures as JSON.
 *   node knowledgeScaleChild.js store KNOWLEDGE_DIR EMBEDDINGS_URL
 *   node knowledgeScaleChild.js baseline SQLITE_FILE EMBEDDINGS_URL
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DatabaseSync } from 'node:sqlite';
import { KnowledgeStore } from '../../src/core/knowledge/knowledgeStore.js';
import { chunkText } from '../../src/core/knowledge/markdownChunker.js';
import { markdownOfSize, serviceOn } from './knowledgeBench.js';
import { makeChunks, vectorOf } from './knowledgeCorpus.js';
import { baselineInsert, openBaseline } from './knowledgeScaleBench.js';
import { percentile } from './section.js';

/**
 * Past 100,000 chunks (CHATOS_BENCH_KB_CHUNKS, inherited from the bench) the
 * exact scans are what take the time: the baseline's vec0 reads every
 * vector for each query, and so does the recall check's exact scan. There
 * the baseline is timed on 40 queries (5 warm-up) and recall measured on 20
 * (200 neighbours), our store still on 200 queries.
 */
const LARGE = Number(process.env.CHATOS_BENCH_KB_CHUNKS ?? 100_000) > 100_000;
const QUERIES = 200;
const WARMUP = 20;
const BASELINE_QUERIES = LARGE ? 40 : QUERIES;
const BASELINE_WARMUP = LARGE ? 5 : WARMUP;
const RECALL_QUERIES = LARGE ? 20 : 50;
const MiB = 1024 * 1024;
const [mode, where, url] = process.argv.slice(2) as [string, string, string];
const asked = makeChunks(99);
const query = () => asked.query();

async function embed(texts: string[]): Promise<number[][]> {
  const response = await fetch(`${url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'bench-embed', input: texts }) });
  return ((await response.json()) as { data: { embedding: number[] }[] }).data.map((d) => d.embedding);
}

async function timed(search: (q: string) => Promise<unknown>, queries = QUERIES, warmup = WARMUP): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let q = 0; q < warmup + queries; q++) {
    const started = performance.now();
    await search(query());
    if (q >= warmup) times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** The resident pages of this process's mappings of graph files (Linux; 0 elsewhere): part of its RSS, shared with the page cache. */
function graphResidentMiB(): number {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return 0;
  }
  let inGraph = false;
  let kib = 0;
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inGraph = line.endsWith('.usearch');
    else if (inGraph && line.startsWith('Rss:')) kib += Number(/\d+/.exec(line)![0]);
  }
  return kib / 1024;
}

async function store(): Promise<object> {
  let started = performance.now();
  const service = serviceOn(where, url);
  await service.get('scale');
  const first = await service.search('scale', query());
  if (first.mode !== 'hybrid') throw new Error(`the search was ${first.mode}`);
  const openMs = performance.now() - started;
  const { p50, p95 } = await timed((q) => service.search('scale', q));
  const rssMiB = process.memoryUsage().rss / MiB;
  const graphMiB = graphResidentMiB();
  // Recall of the vector side: the graph's 10 against an exact scan's 10.
  const direct = KnowledgeStore.open(path.join(where, 'scale'), 'scale');
  let found = 0;
  for (let q = 0; q < RECALL_QUERIES; q++) {
    const vector = Float32Array.from(vectorOf(query()));
    // A row whose score reaches the exact 10th is one of the 10 nearest (rows of equal score: either may be named).
    const tenth = direct.exactNearest(vector.slice(), 10)[9]!.score - 1e-6;
    found += direct.nearest(vector.slice(), 10).filter((n) => n.score >= tenth).length;
  }
  direct.close();
  const markdown = markdownOfSize(MiB);
  let saving = 0;
  started = performance.now();
  await service.addText('scale', markdown, 'added.md', { onProgress: (p) => p.phase === 'saving' && (saving = performance.now()) });
  const ended = performance.now();
  service.dispose();
  return { openMs, p50, p95, rssMiB, graphMiB, recall: found / (RECALL_QUERIES * 10), addMs: ended - started, addStoreMs: ended - saving, addMiB: Buffer.byteLength(markdown) / MiB };
}

function hybrid(db: DatabaseSync, text: string, vector: number[]): unknown[] {
  const match = [...new Set(text.toLowerCase().match(/\p{L}+/gu) ?? [])].map((w) => `"${w}"`).join(' OR ');
  const words = db.prepare('SELECT rowid AS id, bm25(fts) AS rank FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT 50').all(match) as { id: number; rank: number }[];
  const near = db.prepare('SELECT rowid AS id, distance FROM vec WHERE embedding MATCH ? AND k = 50').all(new Uint8Array(Float32Array.from(vector).buffer)) as { id: number; distance: number }[];
  const scores = new Map<number, number>();
  const top = -(words[0]?.rank ?? -1);
  for (const w of words) scores.set(w.id, (-w.rank / top) * 0.5);
  for (const n of near) scores.set(n.id, (scores.get(n.id) ?? 0) + (1 - (n.distance * n.distance) / 2) * 0.5);
  const read = db.prepare('SELECT id, file, text FROM chunks WHERE id = ?');
  return [...scores]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id]) => read.get(id));
}

async function baseline(): Promise<object> {
  let started = performance.now();
  const db = openBaseline(where);
  const firstQuery = query();
  hybrid(db, firstQuery, (await embed([firstQuery]))[0]!);
  const openMs = performance.now() - started;
  const { p50, p95 } = await timed(async (q) => hybrid(db, q, (await embed([q]))[0]!), BASELINE_QUERIES, BASELINE_WARMUP);
  const rssMiB = process.memoryUsage().rss / MiB;
  const markdown = markdownOfSize(MiB);
  started = performance.now();
  const texts = chunkText(markdown, { size: 400, overlap: 0 }).map((c) => c.text);
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += 64) vectors.push(...(await embed(texts.slice(i, i + 64))));
  const saving = performance.now();
  baselineInsert(db, 'added.md', texts, vectors);
  const ended = performance.now();
  db.close();
  return { openMs, p50, p95, rssMiB, addMs: ended - started, addStoreMs: ended - saving, addMiB: Buffer.byteLength(markdown) / MiB };
}

process.stdout.write(JSON.stringify(mode === 'store' ? await store() : await baseline()));
