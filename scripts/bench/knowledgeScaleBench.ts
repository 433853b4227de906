import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { getLoadablePath } from 'sqlite-vec';
import { KnowledgeStore } from '../../src/core/knowledge/knowledgeStore.js';
import { runBenchChild } from './benchChild.js';
import { embeddingServer, serviceOn } from './knowledgeBench.js';
import { DIMENSIONS, makeChunks, vectorOf } from './knowledgeCorpus.js';
import { atMost, check, info, type BenchRow, type BenchSection } from './section.js';

/**
 * A knowledge base at scale (issue 44): 100,000 chunks of about 400
 * characters with 768-dimension vectors, built into the store in
 * transactions of 1,000 chunks (the vectors computed in this process, not
 * fetched: the store is measured, not the embedding server). A child
 * process then opens it as a host would and measures open, hybrid search
 * (query embedded by the local server), memory (its RSS), recall@10 of the
 * vector side against an exact scan, and adding 1 MB. The same figures are
 * measured on a baseline built from the same rows in the same run: one
 * SQLite file with FTS5 and sqlite-vec's vec0 (exact vector search).
 *
 * `CHATOS_BENCH_KB_CHUNKS=1000000 npm run bench -- scale` runs it at a
 * million chunks (not part of the default run's targets, which are for
 * 100,000). The store's build is most of it: inserting into the graph grows
 * with its size (5,000 rows took 1 s at 100,000, 7-18 s near a million, on
 * this 2-core machine at load 4-9): 29 minutes for a million on a quiet
 * machine, 53 at load 3-20 (docs/rules/knowledge.md has the figures). The baseline is then timed on fewer queries and recall checked
 * on fewer (knowledgeScaleChild.ts): each of theirs scans every vector.
 *
 * `CHATOS_BENCH_KB_HOME=<folder>` builds both stores there and keeps them;
 * a later run with the same folder (and size) measures them again without
 * the hour of building, e.g. after a change to how the store opens.
 */

const CHUNKS = Number(process.env.CHATOS_BENCH_KB_CHUNKS ?? 100_000);
const PER_DOCUMENT = 1000;
/**
 * Issue 44's targets: at 100,000 chunks p95 ≤ 50 ms, add ≤ 500 ms a MB, open ≤ 200 ms, memory ≤ 300 MB; past that,
 * a million "builds, opens and searches (p95 ≤ 100 ms) on this machine within 8 GB", with recall reported. So at a
 * million, open, add and recall are shown, not held to the 100,000 targets, and the building process's peak is held
 * to 8 GB as the opener's is.
 */
const LARGE = CHUNKS > 100_000;
const TARGETS = { searchP95: LARGE ? 100 : 50, addMsPerMiB: LARGE ? undefined : 500, openMs: LARGE ? undefined : 200, memoryMiB: LARGE ? 8192 : 300 };
const held = (name: string, value: number, unit: string, target: number | undefined) => (target === undefined ? info(name, value, unit) : atMost(name, value, unit, target));
const MiB = 1024 * 1024;

/** One document's chunks (about 55 words each) and their vectors, the same for the store and the baseline. */
function* documents(): Generator<{ file: string; texts: string[] }> {
  const corpus = makeChunks(1);
  for (let d = 0; d * PER_DOCUMENT < CHUNKS; d++) {
    yield { file: `doc-${d}.md`, texts: Array.from({ length: PER_DOCUMENT }, () => corpus.chunk()) };
    corpus.nextDocument();
  }
}

function buildStore(folder: string): number {
  const store = KnowledgeStore.open(folder, 'scale');
  const started = performance.now();
  let n = 0;
  try {
    for (const { file, texts } of documents()) {
      const chunks = texts.map((text, position) => ({ id: `c_${n + position}`, file, position, start: 0, end: text.length, heading: '', text }));
      store.write({ chunks, vectors: texts.map(vectorOf), embeddedWith: { model: 'embed', dimensions: DIMENSIONS } });
      n += texts.length;
    }
  } finally {
    store.close();
  }
  return performance.now() - started;
}

/** The baseline: chunks, FTS5 (unicode61) and vec0 (float[768], exact) in one SQLite file. */
export const BASELINE_SCHEMA = `
CREATE TABLE chunks(id INTEGER PRIMARY KEY, file TEXT NOT NULL, text TEXT NOT NULL);
CREATE VIRTUAL TABLE fts USING fts5(text, content='chunks', content_rowid='id');
CREATE VIRTUAL TABLE vec USING vec0(embedding float[${DIMENSIONS}]);`;

export function openBaseline(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { allowExtension: true });
  db.loadExtension(getLoadablePath());
  db.exec('PRAGMA journal_mode = WAL');
  return db;
}

/** Inserts rows into the baseline in one transaction. */
export function baselineInsert(db: DatabaseSync, file: string, texts: string[], vectors: number[][]): void {
  const chunk = db.prepare('INSERT INTO chunks(file, text) VALUES (?, ?) RETURNING id');
  const fts = db.prepare('INSERT INTO fts(rowid, text) VALUES (?, ?)');
  const vec = db.prepare('INSERT INTO vec(rowid, embedding) VALUES (?, ?)');
  db.exec('BEGIN');
  texts.forEach((text, i) => {
    const { id } = chunk.get(file, text) as { id: number };
    fts.run(id, text);
    vec.run(BigInt(id), new Uint8Array(Float32Array.from(vectors[i]!).buffer));
  });
  db.exec('COMMIT');
}

function buildBaseline(file: string): number {
  const db = openBaseline(file);
  db.exec(BASELINE_SCHEMA);
  const started = performance.now();
  for (const { file: name, texts } of documents()) baselineInsert(db, name, texts, texts.map(vectorOf));
  db.close();
  return performance.now() - started;
}

interface ChildFigures {
  openMs: number;
  p50: number;
  p95: number;
  rssMiB: number;
  graphMiB?: number;
  addMs: number;
  addStoreMs: number;
  addMiB: number;
  recall?: number;
}

export async function runKnowledgeScaleBench(): Promise<BenchSection> {
  const kept = process.env.CHATOS_BENCH_KB_HOME;
  const home = kept ? path.resolve(kept) : fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bench-kb-scale-'));
  const built = kept !== undefined && fs.existsSync(path.join(home, 'built.json'));
  const server = await embeddingServer();
  const rows: BenchRow[] = [];
  try {
    const dir = path.join(home, 'knowledge');
    const baselineFile = path.join(home, 'baseline.sqlite');
    if (built) {
      const was = JSON.parse(fs.readFileSync(path.join(home, 'built.json'), 'utf8')) as { chunks: number; buildMs: number; baselineBuildMs: number; peakMiB?: number };
      check(was.chunks === CHUNKS, `${home} holds ${was.chunks} chunks, not ${CHUNKS}: set CHATOS_BENCH_KB_CHUNKS=${was.chunks} or use another folder`);
      rows.push(info(`build ${CHUNKS} chunks into the store: kept from an earlier run in ${home}`, was.buildMs / 1000, 's'));
      rows.push(info('build the same rows into the baseline: kept', was.baselineBuildMs / 1000, 's'));
      if (was.peakMiB !== undefined) rows.push(held('peak RSS of the process that built both (kept)', was.peakMiB, 'MiB', LARGE ? TARGETS.memoryMiB : undefined));
    } else {
      fs.mkdirSync(home, { recursive: true });
      const service = serviceOn(dir, server.url);
      await service.create({ id: 'scale', name: 'Scale', embeddingModel: 'embed', chunkSize: 400, chunkOverlap: 0 });
      service.dispose();
      const buildMs = buildStore(path.join(dir, 'scale'));
      rows.push(info(`build ${CHUNKS} chunks × ${DIMENSIONS} dims into the store (transactions of ${PER_DOCUMENT}, graph folds included)`, buildMs / 1000, 's'));
      const baselineBuildMs = buildBaseline(baselineFile);
      rows.push(info('build the same rows into the baseline (FTS5 + sqlite-vec)', baselineBuildMs / 1000, 's'));
      // This process's peak so far: the builds, and whatever bench sections ran before this one (so at least theirs).
      const peakMiB = process.resourceUsage().maxRSS / 1024;
      rows.push(held('peak RSS of the process that built both', peakMiB, 'MiB', LARGE ? TARGETS.memoryMiB : undefined));
      if (kept) fs.writeFileSync(path.join(home, 'built.json'), JSON.stringify({ chunks: CHUNKS, buildMs, baselineBuildMs, peakMiB }));
    }
    const storeBytes = fs.readdirSync(path.join(dir, 'scale')).reduce((sum, f) => sum + fs.statSync(path.join(dir, 'scale', f)).size, 0);
    rows.push(info('store on disk (SQLite file, WAL and graph file)', storeBytes / MiB, 'MiB'));

    const child = fileURLToPath(new URL('./knowledgeScaleChild.js', import.meta.url));
    const ours = JSON.parse(await runBenchChild([child, 'store', dir, server.url], 'the store child')) as ChildFigures;
    const base = JSON.parse(await runBenchChild([child, 'baseline', baselineFile, server.url], 'the baseline child')) as ChildFigures;
    check(ours.recall !== undefined, 'the store child measured no recall');
    rows.push(atMost(`hybrid search, ${CHUNKS} chunks: p95 (query embedded by the local server)`, ours.p95, 'ms', TARGETS.searchP95));
    rows.push(info('hybrid search: median', ours.p50, 'ms'));
    rows.push(held(`add ${ours.addMiB.toFixed(2)} MB: the store's part, per MB (after its vectors came back)`, ours.addStoreMs / ours.addMiB, 'ms', TARGETS.addMsPerMiB));
    rows.push(info('add that MB in all (read, cut, embed by the local server, store)', ours.addMs, 'ms'));
    rows.push(held('open the base (settings, store, graph mapped, tail read)', ours.openMs, 'ms', TARGETS.openMs));
    rows.push(atMost('memory of a process that opened it and searched (RSS)', ours.rssMiB, 'MiB', TARGETS.memoryMiB));
    rows.push(info("of which the graph file's pages (mapped, touched by the searches)", ours.graphMiB ?? 0, 'MiB'));
    // Held at 100,000 (0.99 there). At a million the issue asks only that it be reported: the graph's walk misses more
    // there (0.95 on the child's 20 queries, 0.907 on 30 others; rescoring 128 or 256 candidates rather than 64 found
    // the same rows), so a guard on 20 queries would pass or fail by which queries were drawn.
    rows.push(held('recall@10 of the vector side against an exact scan (at least)', -ours.recall!, '(negated)', LARGE ? undefined : -0.95));
    const ratio = (name: string, a: number, b: number) => ({ ...info(name, a / b, '×'), group: 'ChatOS ÷ baseline (SQLite FTS5 + sqlite-vec, same rows, same run)' });
    rows.push(ratio(`hybrid p95 (baseline ${base.p95.toFixed(1)} ms)`, ours.p95, base.p95));
    rows.push(ratio(`hybrid median (baseline ${base.p50.toFixed(1)} ms)`, ours.p50, base.p50));
    rows.push(ratio(`add, store part per MB (baseline ${(base.addStoreMs / base.addMiB).toFixed(0)} ms)`, ours.addStoreMs / ours.addMiB, base.addStoreMs / base.addMiB));
    rows.push(ratio(`open (baseline ${base.openMs.toFixed(1)} ms)`, ours.openMs, base.openMs));
    rows.push(ratio(`memory, RSS (baseline ${base.rssMiB.toFixed(0)} MiB)`, ours.rssMiB, base.rssMiB));
  } finally {
    await server.close();
    if (!kept) fs.rmSync(home, { recursive: true, force: true });
  }
  return {
    title: `knowledge bases at ${CHUNKS} chunks`,
    rows,
    notes: [
      'recall is shown negated so that "at most" reads as "at least 0.95"',
      'the baseline searches vectors exactly (vec0 scans every row); ours searches an int8 HNSW graph and rescores its candidates from the float32 rows',
      "memory is the child's RSS after 220 searches: it counts the graph file's mapped pages that the searches touched (nearly all of them), not the bench's corpus (its word vectors are made only when the recall check asks for them)",
      'open and memory are measured in a fresh child process; the page cache is warm from the build',
    ],
  };
}
