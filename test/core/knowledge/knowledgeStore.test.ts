import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeIndex } from '../../../src/core/knowledge/knowledgeIndex.js';
import { KnowledgeService } from '../../../src/core/knowledge/knowledgeService.js';
import { KnowledgeStore } from '../../../src/core/knowledge/knowledgeStore.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { tempDir } from '../../helpers/tempDir.js';
import { smallDisk } from '../../helpers/tmpfs.js';
import { allChunks, disposeHosts, GUIDE_MD, knowledgeError, startedHost, vectorsOf, writeFixtures, writeLegacyBase } from './knowledgeFixtures.js';

const unmounts: (() => void)[] = [];
afterEach(async () => {
  await disposeHosts();
  for (const unmount of unmounts.splice(0)) unmount();
});

const QUERIES = ['ladybugs aphids', 'volcano basalt cliffs', 'water the garden in the morning', 'compost'];
const MiB = 1024 * 1024;

/** Fills a disk until `free` bytes are left (a file of zeros), as other programs fill a user's disk. */
function fillDisk(dir: string, free: number): string {
  const filler = path.join(dir, 'filler.bin');
  const stat = fs.statfsSync(dir);
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, stat.bavail * stat.bsize - free)));
  return filler;
}

/** Paragraphs of distinct words, about `bytes` long. */
function longText(bytes: number, seed: string): string {
  const paragraphs: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const paragraph = `${seed} paragraph ${i} speaks of harbour ${i % 97} and lantern ${i % 31}, with tide table ${i}.`;
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

describe('a base of the format before the store', () => {
  it('is moved into a store on first open, reporting progress, and finds the same documents', async () => {
    const provider = await startProviderServer();
    const home = tempDir('chatos-kb-home-');
    const host = await startedHost(home);
    await host.models.create({ id: 'embed-a', name: 'Embed A', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    const base = await host.knowledge.create({ name: 'Garden', embeddingModel: 'embed-a', chunkSize: 120, chunkOverlap: 0 });
    const { md, pdf } = writeFixtures(tempDir('chatos-kb-files-'));
    await host.knowledge.addFiles(base.id, [md, pdf]);
    const chunks = await allChunks(host, base.id);
    // Today's files, written by today's code from these chunks and their vectors; what today's code finds in them.
    const folder = path.join(home, 'chatos', 'knowledge', base.id);
    await writeLegacyBase(
      folder,
      chunks,
      await vectorsOf(
        host,
        'embed-a',
        chunks.map((c) => c.text),
      ),
    );
    const { index } = await KnowledgeIndex.fromBytes(fs.readFileSync(path.join(folder, 'index.msp')), 16, fs.readFileSync(path.join(folder, 'vectors.bin')));
    const queryVectors = await vectorsOf(host, 'embed-a', QUERIES);
    const expected = await Promise.all(QUERIES.map(async (q, i) => (await index.search(q, 5, queryVectors[i])).map((h) => h.id)));
    expect(expected.every((ids) => ids.length > 0)).toBe(true);

    const progress: { done: number; total: number }[] = [];
    const service = new KnowledgeService({
      dir: path.join(home, 'chatos', 'knowledge'),
      models: internalsOf(host).models.service,
      now: () => Date.now(),
      onMigration: (_base, p) => progress.push(p),
    });
    try {
      for (const [i, query] of QUERIES.entries()) {
        const found = await service.search(base.id, query);
        expect(found.mode).toBe('hybrid');
        // The same chunks; near ties may swap, FTS5's BM25 (k1 1.2, b 0.75) not being MiniSearch's BM25+.
        expect(found.hits.map((h) => h.id).sort()).toEqual([...expected[i]!].sort());
      }
      expect(progress.at(-1)).toEqual({ done: chunks.length, total: chunks.length });
      expect((await service.listDocuments(base.id, { limit: 500 })).chunks).toEqual(chunks);
      expect(fs.readdirSync(folder).filter((f) => f === 'index.msp' || f === 'vectors.bin')).toEqual([]);
    } finally {
      service.dispose();
    }
  });

  it('that cannot be moved (the disk fills up) keeps its old files as they were, and moves once there is room', async () => {
    const disk = smallDisk(4 * MiB);
    unmounts.push(disk.unmount);
    const home = path.join(disk.dir, 'home');
    const host = await startedHost(home);
    const base = await host.knowledge.create({ name: 'Tight', chunkSize: 200, chunkOverlap: 0 });
    await host.knowledge.addText(base.id, longText(300_000, 'old'), 'old.md');
    await disposeHosts();
    const folder = path.join(home, 'chatos', 'knowledge', base.id);
    const store = KnowledgeStore.open(folder, base.id);
    const all = [...store.all()];
    store.close();
    await writeLegacyBase(folder, all, null);
    const before = new Map(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]));
    const filler = fillDisk(disk.dir, 64 * 1024);

    const again = await startedHost(home);
    const error = await knowledgeError(again.knowledge.search(base.id, 'harbour'), 'KB_BROKEN');
    expect(error.message).toContain(`"${base.id}"`);
    expect(error.message).toMatch(/old files are kept/);
    expect(error.hint).toMatch(/free disk space/);
    expect(new Map(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]))).toEqual(before);

    fs.rmSync(filler);
    const found = await again.knowledge.search(base.id, 'lantern 7 tide');
    expect(found.hits.length).toBeGreaterThan(0);
    expect((await again.knowledge.get(base.id)).counts.chunks).toBe(all.length);
  });
});

describe('bad input to a base in its store', () => {
  it('a full disk refuses the add naming the base, keeps what it held, and leaves other bases searchable', async () => {
    const disk = smallDisk(6 * MiB);
    unmounts.push(disk.unmount);
    const host = await startedHost(path.join(disk.dir, 'home'));
    const full = await host.knowledge.create({ name: 'Full' });
    const other = await host.knowledge.create({ name: 'Other' });
    await host.knowledge.addText(full.id, GUIDE_MD, 'guide.md');
    await host.knowledge.addText(other.id, 'Owls hunt at night over the meadow.', 'owls.md');
    const before = await host.knowledge.get(full.id);
    const filler = fillDisk(disk.dir, 128 * 1024);

    const error = await knowledgeError(host.knowledge.addText(full.id, longText(2 * MiB, 'new'), 'big.md'), 'KB_DISK_FULL');
    expect(error.message).toContain(`"${full.id}"`);
    expect(error.hint).toMatch(/free some space/);
    expect((await host.knowledge.get(full.id)).counts).toEqual(before.counts);
    expect((await host.knowledge.search(full.id, 'ladybugs')).hits[0]!.file).toBe('guide.md');
    expect((await host.knowledge.search(other.id, 'owls')).hits[0]!.file).toBe('owls.md');

    fs.rmSync(filler);
    await host.knowledge.addText(full.id, longText(200_000, 'new'), 'big.md');
    expect((await host.knowledge.search(full.id, 'lantern harbour')).hits[0]!.file).toBe('big.md');
    expect((await host.knowledge.search(full.id, 'ladybugs')).hits[0]!.file).toBe('guide.md');
  });

  it('a disk that fills before the search graph is written keeps the saved change, says so once, and searches it; the graph is written once there is room', () => {
    const disk = smallDisk(8 * MiB);
    unmounts.push(disk.unmount);
    const folder = path.join(disk.dir, 'kb');
    fs.mkdirSync(folder);
    const random = seededRandom();
    const vectors = Array.from({ length: 4400 }, () => Array.from({ length: 8 }, () => random() - 0.5));
    const rows = (from: number, to: number) => ({
      chunks: Array.from({ length: to - from }, (_, i) => ({ id: `c${from + i}`, file: `f${from}.md`, position: i, start: 0, end: 5, heading: '', text: `row${from + i} words` })),
      vectors: vectors.slice(from, to),
      embeddedWith: { model: 'm', dimensions: 8 },
    });
    const store = KnowledgeStore.open(folder, 'full');
    try {
      // Below FOLD_AT (4,096): no graph yet. Then a disk with room for the rows but not for a graph of them (~1.2 MB).
      expect(store.write(rows(0, 4000))).toEqual([]);
      const filler = fillDisk(disk.dir, 512 * 1024);
      const notes = store.write(rows(4000, 4200));
      expect(notes).toHaveLength(1);
      expect(notes[0]).toBe(
        `knowledge base "full": the change was saved, but its search graph could not be written (the disk holding ${folder} is full); ` +
          'searches compare the newest rows one by one until a later add writes it (free some space on that disk if it is full)',
      );
      expect(fs.readdirSync(folder).filter((f) => f.includes('.usearch'))).toEqual([]);
      // Saved and found, by its words and by its vector.
      expect(store.counts().chunks).toBe(4200);
      expect(store.search('row4150', 1)[0]!.id).toBe('c4150');
      expect(store.nearest(Float32Array.from(vectors[4150]!), 1)[0]!.seq).toBe(store.exactNearest(Float32Array.from(vectors[4150]!), 1)[0]!.seq);
      store.close();
      // Opened again on the full disk: the fold due at open fails the same way, and the search goes on.
      const again = KnowledgeStore.open(folder, 'full');
      try {
        expect(again.search('row4199', 1, vectors[4199])[0]!.id).toBe('c4199');
        fs.rmSync(filler);
        expect(again.write(rows(4200, 4201))).toEqual([]);
        expect(fs.readdirSync(folder).filter((f) => f.includes('.usearch'))).toEqual(['ann-0-4201.usearch']);
        expect(again.search('row4150', 1, vectors[4150])[0]!.id).toBe('c4150');
      } finally {
        again.close();
      }
    } finally {
      store.close();
    }
  });

  it('a damaged store is a problem naming the base and the fix; other bases are unaffected', async () => {
    const home = tempDir('chatos-kb-home-');
    const host = await startedHost(home);
    const broken = await host.knowledge.create({ name: 'Broken' });
    const other = await host.knowledge.create({ name: 'Other' });
    await host.knowledge.addText(broken.id, GUIDE_MD, 'guide.md');
    await host.knowledge.addText(other.id, 'Owls hunt at night over the meadow.', 'owls.md');
    await disposeHosts();
    const file = path.join(home, 'chatos', 'knowledge', broken.id, 'store.sqlite');
    const bytes = fs.readFileSync(file);
    bytes.fill(0x5a, 0, 100);
    fs.writeFileSync(file, bytes);

    const again = await startedHost(home);
    const error = await knowledgeError(again.knowledge.search(broken.id, 'ladybugs'), 'KB_BROKEN');
    expect(error.message).toContain(`"${broken.id}"`);
    expect(error.message).toContain(file);
    expect(error.hint).toContain(`chatos kb delete ${broken.id}`);
    expect((await again.knowledge.search(other.id, 'owls')).hits[0]!.file).toBe('owls.md');
    expect((await again.knowledge.list()).map((b) => b.id)).toEqual([broken.id, other.id]);
  });

  it('a vector of another dimension than the base holds is refused whole, naming the base and the fix', () => {
    const folder = tempDir('chatos-kb-store-');
    const store = KnowledgeStore.open(folder, 'dims');
    try {
      const chunk = (id: string) => ({ id, file: 'a.md', position: 0, start: 0, end: 5, heading: '', text: `words of ${id}` });
      store.write({ chunks: [chunk('c1')], vectors: [[1, 0, 0, 0]], embeddedWith: { model: 'm', dimensions: 4 } });
      let error: unknown;
      try {
        store.write({
          chunks: [chunk('c2'), chunk('c3')],
          vectors: [
            [0, 1, 0, 0],
            [1, 0, 0],
          ],
        });
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'KB_INVALID' });
      expect((error as Error).message).toMatch(/knowledge base "dims" holds vectors of 4 dimensions; a vector of 3/);
      expect((error as { hint: string }).hint).toContain('chatos kb reembed dims');
      expect(store.counts()).toEqual({ files: 1, chunks: 1 });
      expect(store.search('words', 5, [1, 0, 0, 0]).map((h) => h.id)).toEqual(['c1']);
    } finally {
      store.close();
    }
  });
});

describe('a store written before graph nodes were keyed by vector', () => {
  it('keys its rows on open, builds a new graph and finds what it held', () => {
    const folder = tempDir('chatos-kb-store-');
    const random = seededRandom();
    const vectors = Array.from({ length: 5000 }, () => Array.from({ length: 8 }, () => random() - 0.5));
    const writer = KnowledgeStore.open(folder, 'old');
    try {
      for (let f = 0; f < 5; f++) {
        const chunks = Array.from({ length: 1000 }, (_, i) => ({ id: `f${f}c${i}`, file: `f${f}.md`, position: i, start: 0, end: 5, heading: '', text: `words ${f} ${i}` }));
        writer.write({ chunks, vectors: vectors.slice(f * 1000, (f + 1) * 1000), embeddedWith: { model: 'm', dimensions: 8 } });
      }
    } finally {
      writer.close();
    }
    // The schema of the release before: no key column, graph files of epoch 0.
    const db = new DatabaseSync(path.join(folder, 'store.sqlite'));
    db.exec('DROP INDEX chunks_by_vkey; ALTER TABLE chunks DROP COLUMN vkey;');
    db.close();
    expect(fs.readdirSync(folder).filter((f) => f.startsWith('ann-0-'))).toHaveLength(1);
    const store = KnowledgeStore.open(folder, 'old');
    try {
      expect(fs.readdirSync(folder).filter((f) => f.endsWith('.usearch'))).toEqual([]);
      // The graph is approximate and built on every core, in an order that varies from run to run: an exact top 5
      // for each of 20 queries missed one row in one run of 25. So each query finds its own row first (a score of 1),
      // and the graph's top 5 hold nearly all of the exact scan's.
      let found = 0;
      for (const query of vectors.slice(0, 20)) {
        const nearest = store.nearest(Float32Array.from(query), 5);
        const exact = store.exactNearest(Float32Array.from(query), 5);
        expect(nearest[0]!.seq).toBe(exact[0]!.seq);
        found += exact.filter((e) => nearest.some((n) => n.seq === e.seq)).length;
      }
      expect(found).toBeGreaterThanOrEqual(95);
      expect(fs.readdirSync(folder).filter((f) => f.startsWith('ann-1-'))).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});

describe('a writer adding many documents', () => {
  /** This process's mappings of graph files in `folder` (Linux's /proc/self/maps): a graph object usearch has not freed maps its file. */
  const graphMappings = (folder: string) =>
    fs
      .readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .filter((line) => line.includes(folder) && /ann-\d+-\d+\.usearch/.test(line));

  it.runIf(process.platform === 'linux')('keeps one graph across its folds, not one per fold, and each fold leaves a file holding every row', () => {
    const folder = tempDir('chatos-kb-folds-');
    const random = seededRandom();
    const vectors = Array.from({ length: 5 * 4000 }, () => Array.from({ length: 8 }, () => random() - 0.5));
    const writer = KnowledgeStore.open(folder, 'kb');
    try {
      // 4,000 rows a write: a fold after every second write (FOLD_AT), all in one synchronous loop as a bulk add runs.
      for (let f = 0; f < 5; f++) {
        const chunks = Array.from({ length: 4000 }, (_, i) => ({ id: `f${f}c${i}`, file: `f${f}.md`, position: i, start: 0, end: 5, heading: '', text: `words ${f} ${i}` }));
        writer.write({ chunks, vectors: vectors.slice(f * 4000, (f + 1) * 4000), embeddedWith: { model: 'm', dimensions: 8 } });
      }
      // A graph loaded per fold stayed in memory, and each file mapped before it, until V8 finalized them: never, in a loop.
      const mapped = graphMappings(folder);
      expect(mapped.filter((line) => line.endsWith('(deleted)'))).toEqual([]);
      expect(mapped.length).toBeLessThanOrEqual(1);
      expect(fs.readdirSync(folder).filter((f) => f.endsWith('.usearch'))).toEqual(['ann-0-16000.usearch']);
    } finally {
      writer.close();
    }
    const reader = KnowledgeStore.open(folder, 'kb');
    try {
      for (const at of [0, 7_999, 15_999, 19_999]) {
        const query = Float32Array.from(vectors[at]!);
        expect(reader.nearest(query.slice(), 1)[0]!.seq).toBe(reader.exactNearest(query, 1)[0]!.seq);
      }
    } finally {
      reader.close();
    }
  });
});

describe('a crash in the middle of an add', () => {
  it('(SIGKILL while the store is being written) leaves a base that opens with all or none of that document', async () => {
    const home = tempDir('chatos-kb-home-');
    const host = await startedHost(home);
    const base = await host.knowledge.create({ name: 'Crash', chunkSize: 200, chunkOverlap: 0 });
    await host.knowledge.addText(base.id, GUIDE_MD, 'guide.md');
    const before = (await host.knowledge.get(base.id)).counts;
    await disposeHosts();
    const file = path.join(tempDir('chatos-kb-files-'), 'big.md');
    fs.writeFileSync(file, longText(3 * MiB, 'crash'));
    const folder = path.join(home, 'chatos', 'knowledge', base.id);

    // Killed once the store's log holds a MiB: the add's transaction (several MiB) is spilling pages to it, not yet committed.
    const child = spawn(process.execPath, [path.resolve('bin/chatos.js'), 'kb', 'add', base.id, file, '--home', home], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const log = path.join(folder, 'store.sqlite-wal');
    const watcher = fs.watch(folder, (_event, name) => {
      if (name === 'store.sqlite-wal' && (fs.statSync(log, { throwIfNoEntry: false })?.size ?? 0) > MiB) child.kill('SIGKILL');
    });
    await exited;
    watcher.close();
    expect(child.signalCode).toBe('SIGKILL');

    const again = await startedHost(home);
    const counts = (await again.knowledge.get(base.id)).counts;
    const files = (await again.knowledge.listDocuments(base.id)).files;
    const big = files.find((f) => f.file === 'big.md');
    if (big) {
      expect(counts.chunks - before.chunks).toBe(big.chunks);
      expect((await again.knowledge.search(base.id, 'crash paragraph')).hits[0]!.file).toBe('big.md');
    } else expect(counts).toEqual(before);
    expect((await again.knowledge.search(base.id, 'ladybugs')).hits[0]!.file).toBe('guide.md');
  });
});
