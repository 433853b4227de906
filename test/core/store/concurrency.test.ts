import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import fsModule from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { stressSize } from '../../helpers/stress.js';
import { tempDir } from '../../helpers/tempDir.js';
import { CHILD_NODE_FLAGS, Notes, TestClock, fixturesDir, listDir, requireBuiltStore } from './storeTestKit.js';

describe('two writers on one DB (in one process, two stores)', () => {
  it('never lose an update: the second flush reloads the file and replays its own mutations', async () => {
    const file = path.join(tempDir(), 'admin.db');
    // Only the explicit flushes below may write: a batching timer firing mid-test (a loaded machine) would reorder the writes.
    const a = await RecordsStore.open(file, { flushDelayMs: 600_000 });
    const b = await RecordsStore.open(file, { flushDelayMs: 600_000 });
    a.put(Notes, 'from-a', { title: 'A', tags: [] });
    b.put(Notes, 'from-b', { title: 'B', tags: [] });
    b.put(Notes, 'shared', { title: 'B wrote', tags: [] });
    await a.flush();
    a.put(Notes, 'shared', { title: 'A wrote later', tags: [] });
    a.delete(Notes, 'from-a');
    await b.flush(); // the file changed under b: reload + replay
    expect(b.stats.reloads).toBe(1);
    expect(b.list(Notes).map((r) => r.id)).toEqual(['from-a', 'from-b', 'shared']);
    await a.flush(); // and again under a
    expect(a.list(Notes).map((r) => [r.id, r.payload.title])).toEqual([
      ['from-b', 'B'],
      ['shared', 'A wrote later'],
    ]);
    await Promise.all([a.close(), b.close()]);

    const reader = await RecordsStore.open(file, { readOnly: true });
    expect(reader.list(Notes).map((r) => [r.id, r.payload.title])).toEqual([
      ['from-b', 'B'],
      ['shared', 'A wrote later'],
    ]);
  });

  it('concurrent flushes from two stores both land (the lock serialises them)', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const stores = await Promise.all([RecordsStore.open(file), RecordsStore.open(file), RecordsStore.open(file)]);
    for (let round = 0; round < 10; round++) {
      stores.forEach((store, i) => store.put(Notes, `s${i}-${round}`, { title: `${round}`, tags: [] }));
      await Promise.all(stores.map((store) => store.flush()));
    }
    await Promise.all(stores.map((store) => store.close()));
    const reader = await RecordsStore.open(file, { readOnly: true });
    expect(reader.count(Notes)).toBe(30);
  });

  it('refresh() picks up another writer, keeps unflushed mutations, and is one stat when nothing changed', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const writer = await RecordsStore.open(file);
    const reader = await RecordsStore.open(file);
    writer.put(Notes, 'w1', { title: 'one', tags: [] });
    await writer.flush();
    reader.put(Notes, 'mine', { title: 'unflushed', tags: [] });

    reader.refresh();
    expect(reader.stats.reloads).toBe(1);
    expect(reader.list(Notes).map((r) => r.id)).toEqual(['mine', 'w1']);
    expect(reader.pendingChanges).toBe(1);

    const calls = countFsCalls(['statSync', 'openSync', 'readFileSync'], () => {
      for (let i = 0; i < 100; i++) reader.refresh();
    });
    expect(calls).toEqual({ statSync: 100, openSync: 0, readFileSync: 0 });
    expect(reader.stats.reloads).toBe(1);

    await reader.close();
    await writer.close();
    const check = await RecordsStore.open(file, { readOnly: true });
    expect(check.list(Notes).map((r) => r.id)).toEqual(['mine', 'w1']);
  });

  it('refreshIfOlderThan() shares one stat within its window and sees another writer once the window has passed', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const writer = await RecordsStore.open(file);
    const clock = new TestClock();
    const reader = await RecordsStore.open(file, { readOnly: true, clock });
    reader.refresh();
    const calls = countFsCalls(['statSync'], () => {
      for (let i = 0; i < 100; i++) reader.refreshIfOlderThan(50);
    });
    expect(calls).toEqual({ statSync: 0 });

    writer.put(Notes, 'late', { title: 'late', tags: [] });
    await writer.flush();
    clock.advance(49);
    reader.refreshIfOlderThan(50);
    expect(reader.count(Notes)).toBe(0); // still inside the window: not looked at yet
    clock.advance(1);
    reader.refreshIfOlderThan(50);
    expect(reader.count(Notes)).toBe(1);
    // A clock set back (the wall clock corrected) is past the window too, not inside it until the time comes round again.
    writer.delete(Notes, 'late');
    await writer.flush();
    clock.advance(-60_000);
    reader.refreshIfOlderThan(50);
    expect(reader.count(Notes)).toBe(0);
    await writer.close();
  });

  it('a read-only store follows the file with refresh()', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const reader = await RecordsStore.open(file, { readOnly: true });
    expect(reader.count(Notes)).toBe(0);
    const writer = await RecordsStore.open(file);
    writer.put(Notes, 'x', { title: 'x', tags: [] });
    await writer.close();
    reader.refresh();
    expect(reader.count(Notes)).toBe(1);
    fs.rmSync(file);
    reader.refresh();
    expect(reader.count(Notes)).toBe(0);
  });

  it('a stale lock left by a dead process is taken over', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file);
    fs.mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    store.put(Notes, 'a', { title: 'A', tags: [] });
    // Taken over at the first try: a lock the store did not see as stale would be waited on for a round, then refused (DB_LOCK_FAILED).
    await store.flush();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    await store.close();
  });

  it('orphaned temp files from a killed writer are removed at the next write', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(`${file}.tmp-999999-deadbeef`, 'half a write');
    const store = await RecordsStore.open(file, { backups: 0 });
    store.put(Notes, 'a', { title: 'A', tags: [] });
    await store.close();
    expect(listDir(dir)).toEqual(['admin.db']);
  });
});

describe('many processes on one DB', () => {
  // CHATOS_STRESS=1: the full 20; a default run starts 8, which is contention enough with every writer opened before any writes.
  const PROCESSES = stressSize(20, 8);
  it(`${PROCESSES} processes writing at once never lose an update`, async () => {
    requireBuiltStore();
    const file = path.join(tempDir(), 'admin.db');
    const ROWS_EACH = 5;
    const writers = Array.from({ length: PROCESSES }, (_, writer) => startWriter([path.join(fixturesDir, 'putRows.mjs'), file, String(writer), String(ROWS_EACH)]));
    // Every writer has read the file before any writes: all but the first find it changed under them, however the OS schedules them.
    await Promise.all(writers.map((writer) => writer.opened));
    for (const writer of writers) writer.go();
    const results = await Promise.all(writers.map((writer) => writer.done));
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
    const reloads = results.reduce((sum, r) => sum + (JSON.parse(r.stdout.slice(r.stdout.indexOf('\n') + 1)) as { reloads: number }).reloads, 0);

    const Rows = defineTable('rows', z.object({ writer: z.number(), n: z.number() }));
    const reader = await RecordsStore.open(file, { readOnly: true });
    expect(reader.problems).toEqual([]);
    expect(reader.count(Rows)).toBe(PROCESSES * ROWS_EACH);
    expect(reader.list(Rows, { prefix: 'w07-' }).map((r) => r.payload)).toEqual(Array.from({ length: ROWS_EACH }, (_, n) => ({ writer: 7, n })));
    // Contention really happened: writers found the file changed under them and replayed.
    expect(reloads).toBeGreaterThan(0);
    expect(listDir(path.dirname(file)).filter((name) => name.includes('.tmp-') || name.endsWith('.lock'))).toEqual([]);
  }, 300_000);
});

/** A writer process: `opened` once it has the DB open and waits, `go()` lets it write, `done` when it exits. */
function startWriter(args: string[]): { opened: Promise<void>; go(): void; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [...CHILD_NODE_FLAGS, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let saidOpen: () => void;
  const opened = new Promise<void>((resolve) => (saidOpen = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('open\n')) saidOpen();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  // A writer that dies before it opens the file must fail the test, not leave it waiting for "open".
  const openedOrDied = Promise.race([opened, done.then((result) => Promise.reject(new Error(`writer exited ${result.code} before opening the DB: ${result.stderr}`)))]);
  return { opened: openedOrDied, go: () => child.stdin.end('go\n'), done };
}

/** Counts calls to `node:fs` functions made by any module while `fn` runs (the store imports the ESM namespace, so sync it). */
function countFsCalls<K extends keyof typeof fsModule>(names: K[], fn: () => void): Record<K, number> {
  const counts = {} as Record<K, number>;
  const originals = new Map<K, unknown>();
  const patchable = fsModule as unknown as Record<K, (...args: unknown[]) => unknown>;
  for (const name of names) {
    counts[name] = 0;
    const original = patchable[name];
    originals.set(name, original);
    patchable[name] = (...args: unknown[]) => {
      counts[name]++;
      return original(...args);
    };
  }
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    for (const name of names) patchable[name] = originals.get(name) as (...args: unknown[]) => unknown;
    syncBuiltinESMExports();
  }
  return counts;
}
