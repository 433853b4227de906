import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONNECTIVITY, graphFileProblem } from '../../../src/core/knowledge/graphFile.js';
import { KnowledgeStore } from '../../../src/core/knowledge/knowledgeStore.js';
import { FOLD_AT } from '../../../src/core/knowledge/vectorIndex.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * A base's files are opened only as the regular files the host wrote (review finding F9, docs/rules/knowledge.md#storage):
 * whoever can write the data home (another local account, a synced folder) must not make the host follow a link out of
 * it, nor crash it with a graph file usearch would map as it is. Real SQLite stores and real usearch graphs, written by
 * the store itself; the crafted graph is opened in a child process (the built store), since it crashed the process.
 */

const DIMENSIONS = 8;

/** A store in a folder of its own holding `rows` chunks with seeded vectors: past FOLD_AT, a graph file beside it. */
function storeWith(rows: number, seed = 9): { folder: string; vectors: number[][] } {
  const folder = tempDir('chatos-kb-types-');
  const random = seededRandom(seed);
  const vectors = Array.from({ length: rows }, () => Array.from({ length: DIMENSIONS }, () => random() - 0.5));
  const store = KnowledgeStore.open(folder, 'kb');
  try {
    const chunks = vectors.map((_, i) => ({ id: `c${i}`, file: 'notes.md', position: i, start: 0, end: 5, heading: '', text: `note number ${i}` }));
    store.write({ chunks, vectors, embeddedWith: { model: 'm', dimensions: DIMENSIONS } });
    // The first search opens the vector side; on a base this large it writes the graph file.
    store.search('note', 1, vectors[0]);
  } finally {
    store.close();
  }
  return { folder, vectors };
}

const openError = (folder: string): { code?: string; message: string } | undefined => {
  try {
    KnowledgeStore.open(folder, 'kb').close();
    return undefined;
  } catch (error) {
    return error as { code?: string; message: string };
  }
};

describe('the store file and the files SQLite keeps beside it', () => {
  it('a store that is a link to a file elsewhere is refused, and that file is not touched', () => {
    const elsewhere = storeWith(3).folder;
    const target = path.join(elsewhere, 'store.sqlite');
    const before = fs.readFileSync(target);
    const folder = tempDir('chatos-kb-link-');
    fs.symlinkSync(target, path.join(folder, 'store.sqlite'));
    const error = openError(folder);
    expect(error?.code).toBe('KB_BROKEN');
    expect(error?.message).toMatch(/store\.sqlite is a link; only regular files are opened as a store/);
    expect(fs.readFileSync(target).equals(before)).toBe(true);
  });

  it('a write-ahead log that is a link is refused before SQLite writes through it', () => {
    const { folder } = storeWith(3);
    const outside = path.join(tempDir('chatos-kb-outside-'), 'precious.txt');
    fs.writeFileSync(outside, 'the user’s own file');
    fs.rmSync(path.join(folder, 'store.sqlite-wal'), { force: true });
    fs.symlinkSync(outside, path.join(folder, 'store.sqlite-wal'));
    const error = openError(folder);
    expect(error?.message).toMatch(/store\.sqlite-wal is a link/);
    expect(fs.readFileSync(outside, 'utf8')).toBe('the user’s own file');
  });
});

describe('a graph file (ann-*.usearch)', () => {
  /** The store's one graph file. */
  const graphOf = (folder: string) =>
    path.join(
      folder,
      fs.readdirSync(folder).find((name) => /^ann-\d+-\d+\.usearch$/.test(name))!,
    );

  /** Runs `body` in a child process with the built store (`KnowledgeStore`) and `fs` in scope: its exit and its output. */
  function inChild(body: string): { status: number | null; signal: string | null; stdout: string; stderr: string } {
    const store = path.join(repoRoot, 'dist', 'src', 'core', 'knowledge', 'knowledgeStore.js');
    // A file, not `-e`: the rows it writes are more than one argument may hold.
    const script = path.join(tempDir('chatos-kb-child-'), 'child.mjs');
    fs.writeFileSync(script, `import * as fs from 'node:fs';\nconst { KnowledgeStore } = await import(${JSON.stringify(pathToFileURL(store).href)});\n${body}`);
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
  }

  /** Opens the base with the built store in a child process and searches it: its exit and its hits. */
  function searchInChild(folder: string, vector: number[]): { status: number | null; signal: string | null; ids: string[] } {
    const run = inChild(`const store = KnowledgeStore.open(${JSON.stringify(folder)}, 'kb');
console.log(JSON.stringify(store.search('note', 5, ${JSON.stringify(vector)}).map((hit) => hit.id)));
store.close();`);
    return { status: run.status, signal: run.signal, ids: run.status === 0 ? (JSON.parse(run.stdout) as string[]) : [] };
  }

  /** The bytes of a graph file with every neighbour of every node made a slot far past the last (the layout: src/core/knowledge/graphFile.ts). */
  function pointingPastItsNodes(file: string): Buffer {
    const bytes = fs.readFileSync(file);
    const rows = bytes.readUInt32LE(0);
    const levelsAt = 8 + rows * bytes.readUInt32LE(4) + 64 + 40;
    for (let i = 0, at = levelsAt + rows * 2; i < rows; i++) {
      const level = bytes.readInt16LE(levelsAt + i * 2);
      const base = 2 * CONNECTIVITY;
      bytes.writeUInt32LE(base, at + 10);
      for (let k = 0; k < base; k++) bytes.writeUInt32LE(0x7fffff00 + k, at + 14 + k * 4);
      at += 10 + 4 + base * 4 + level * (4 + CONNECTIVITY * 4);
    }
    return bytes;
  }

  it('replaced after the base mapped it is not loaded by the next fold: the graph is built again from the rows, nothing crashes', () => {
    const { folder, vectors } = storeWith(FOLD_AT);
    const file = graphOf(folder);
    const crafted = path.join(tempDir('chatos-kb-crafted-'), 'graph');
    fs.writeFileSync(crafted, pointingPastItsNodes(file));
    const more = seededRandom(11);
    const added = Array.from({ length: FOLD_AT }, () => Array.from({ length: DIMENSIONS }, () => more() - 0.5));
    // The child maps the checked graph (a search), then the file is renamed over (as another process could), then a
    // write of FOLD_AT rows folds: usearch would load the crafted file into the graph it adds to.
    const run = inChild(
      `const store = KnowledgeStore.open(${JSON.stringify(folder)}, 'kb');
store.search('note', 1, ${JSON.stringify(vectors[0])});
fs.renameSync(${JSON.stringify(crafted)}, ${JSON.stringify(file)});
const added = ${JSON.stringify(added)};
store.write({ chunks: added.map((_, i) => ({ id: 'n' + i, file: 'more.md', position: i, start: 0, end: 5, heading: '', text: 'more ' + i })), vectors: added });
console.log(JSON.stringify([store.search('note', 5, ${JSON.stringify(vectors[7])}), store.search('more', 5, added[3])].map((hits) => hits.map((hit) => hit.id))));
store.close();`,
    );
    expect(run.signal).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    const [old, fresh] = JSON.parse(run.stdout) as string[][];
    expect(old).toContain('c7');
    expect(fresh).toContain('n3');
    // The graph written then is one the checks pass, holding both writes: the crafted file is gone.
    const written = graphOf(folder);
    expect(path.basename(written)).toBe(`ann-0-${2 * FOLD_AT}.usearch`);
    expect(graphFileProblem(written, DIMENSIONS, 2 * FOLD_AT)).toBeUndefined();
  });

  it('whose neighbour lists point past its nodes is not mapped: the base is searched from its rows, nothing crashes', () => {
    const { folder, vectors } = storeWith(FOLD_AT);
    const file = graphOf(folder);
    expect(searchInChild(folder, vectors[7]!)).toMatchObject({ status: 0, ids: expect.arrayContaining(['c7']) });

    fs.writeFileSync(file, pointingPastItsNodes(file));

    const searched = searchInChild(folder, vectors[7]!);
    expect(searched.signal).toBeNull();
    expect(searched).toMatchObject({ status: 0, ids: expect.arrayContaining(['c7']) });
  });

  it('that is a link to another base’s graph is not mapped', () => {
    const { folder, vectors } = storeWith(FOLD_AT);
    const other = storeWith(FOLD_AT, 10).folder;
    const file = graphOf(folder);
    fs.rmSync(file);
    // The other base's graph holds the same keys for other vectors: followed, its candidates would be this base's nearest.
    fs.symlinkSync(graphOf(other), file);
    const store = KnowledgeStore.open(folder, 'kb');
    try {
      const hits = store.search('note', 5, vectors[11]!).map((hit) => hit.id);
      expect(hits[0]).toBe('c11');
    } finally {
      store.close();
    }
  });
});
