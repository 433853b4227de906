import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/memory/memoryError.js';
import { MemoryStore, type MemorySpace } from '../../../src/core/memory/memoryStore.js';
import { silentLogger } from '../../../src/core/ports.js';
import { MAX_MEMORIES, MAX_MEMORY_CHARS } from '../../../src/shared/memory.js';
import { tempDir } from '../../helpers/tempDir.js';

const writer: MemorySpace = { kind: 'agent', id: 'writer' };

function storeIn(dir = tempDir('chatos-memory-')) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ dir, now: () => (now += 1000), logger: silentLogger });
  return { dir, store };
}

async function refusal(promise: Promise<unknown>): Promise<MemoryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemoryError);
  return error as MemoryError;
}

describe('the memory store', () => {
  it('keeps memories in a file of the space, lists them newest first and finds them by their words', async () => {
    const { store, dir } = storeIn();
    const tea = await store.remember(writer, 'The user drinks green tea, never coffee.', 'writer');
    await store.remember(writer, 'The project deadline is the 3rd of March.', 'writer');
    await store.remember(writer, '用户喜欢用中文写周报。', 'writer');
    expect(tea.existed).toBe(false);
    expect(fs.existsSync(path.join(dir, 'agents', 'writer.json'))).toBe(true);

    expect(store.list(writer).map((m) => m.text)).toEqual(['用户喜欢用中文写周报。', 'The project deadline is the 3rd of March.', 'The user drinks green tea, never coffee.']);
    expect(store.search(writer, 'what does the user drink? coffee', 5)[0]!.text).toBe('The user drinks green tea, never coffee.');
    expect(store.search(writer, 'deadline', 5).map((m) => m.text)).toEqual(['The project deadline is the 3rd of March.']);
    // Chinese words are found by the knowledge bases' tokenizer, not only whole runs.
    expect(store.search(writer, '周报', 5).map((m) => m.text)).toEqual(['用户喜欢用中文写周报。']);
    expect(store.search(writer, 'giraffe', 5)).toEqual([]);

    // The same text again is the same memory, saved anew.
    const again = await store.remember(writer, '  The user drinks green tea, never coffee. ', 'writer');
    expect(again).toMatchObject({ existed: true, memory: { id: tea.memory.id } });
    expect(store.count(writer)).toBe(3);
    expect(store.list(writer)[0]!.id).toBe(tea.memory.id);

    const edited = await store.update(writer, tea.memory.id, 'The user drinks black tea now.', 'user');
    expect(store.search(writer, 'black', 5).map((m) => m.id)).toEqual([edited.id]);
    expect(store.search(writer, 'green', 5)).toEqual([]);
    await store.forget(writer, edited.id);
    expect(store.search(writer, 'tea', 5)).toEqual([]);
    expect((await refusal(store.forget(writer, edited.id))).code).toBe('MEMORY_NOT_FOUND');
  });

  it('refuses a memory of 10 MB with the limit and its size, before writing anything', async () => {
    const { store, dir } = storeIn();
    const error = await refusal(store.remember(writer, 'x'.repeat(10 * 1024 * 1024), 'writer'));
    expect(error.code).toBe('MEMORY_TOO_LARGE');
    expect(error.message).toBe(`a memory is at most ${MAX_MEMORY_CHARS} characters; this one has ${10 * 1024 * 1024}`);
    expect(error.hint).toMatch(/knowledge base/);
    expect(fs.existsSync(path.join(dir, 'agents'))).toBe(false);
    expect((await refusal(store.remember(writer, 'y'.repeat(MAX_MEMORY_CHARS + 1), 'writer'))).code).toBe('MEMORY_TOO_LARGE');
    expect((await refusal(store.remember(writer, '   ', 'writer'))).code).toBe('MEMORY_EMPTY');
    await store.remember(writer, 'z'.repeat(MAX_MEMORY_CHARS), 'writer');
    expect(store.count(writer)).toBe(1);
  });

  it('refuses a memory past the cap on their number, naming the fix', async () => {
    const { store, dir } = storeIn();
    const at = '2026-01-01T00:00:00.000Z';
    const memories = Array.from({ length: MAX_MEMORIES }, (_, i) => ({ id: `m_${i.toString(16).padStart(16, '0')}`, text: `fact ${i}`, createdAt: at, updatedAt: at, by: 'writer' }));
    fs.mkdirSync(path.join(dir, 'agents'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'agents', 'writer.json'), JSON.stringify({ format: 'chatos-memory/1', memories }));
    const error = await refusal(store.remember(writer, 'one more fact', 'writer'));
    expect(error.code).toBe('MEMORY_FULL');
    expect(error.hint).toMatch(/forget some/);
    // A fact it holds already is still saved anew.
    expect((await store.remember(writer, 'fact 7', 'writer')).existed).toBe(true);
  });

  it('leaves a file it cannot read where it is, names it, and writes nothing over it', async () => {
    const { store, dir } = storeIn();
    const file = path.join(dir, 'agents', 'writer.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"format": "chatos-memory/1", "memories": [');
    const broken = await refusal(store.remember(writer, 'a fact', 'writer'));
    expect(broken.code).toBe('MEMORY_BROKEN');
    expect(broken.message).toContain(file);
    expect(broken.hint).toMatch(/move it aside/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"format": "chatos-memory/1", "memories": [');
    expect(() => store.list(writer)).toThrow(MemoryError);

    // A FIFO in its place is refused at once, not waited on.
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(() => store.list(writer)).toThrow(/cannot be read/);
  });

  it('sees what another process wrote, and keeps each space in its own file', async () => {
    const { store, dir } = storeIn();
    const other = new MemoryStore({ dir, now: () => Date.now(), logger: silentLogger });
    await store.remember(writer, 'first fact', 'writer');
    expect(other.list(writer).map((m) => m.text)).toEqual(['first fact']);
    await other.remember(writer, 'second fact', 'writer');
    expect(
      store
        .list(writer)
        .map((m) => m.text)
        .sort(),
    ).toEqual(['first fact', 'second fact']);

    // An app id may hold any character: its file name is a hash, never a path of its own.
    const odd: MemorySpace = { kind: 'app', id: '../../Etc/Passwd' };
    await store.remember(odd, 'shared fact', 'writer');
    const files = fs.readdirSync(path.join(dir, 'apps'));
    expect(files).toEqual([expect.stringMatching(/^~[0-9a-f]{64}\.json$/)]);
    expect(store.list(odd).map((m) => m.text)).toEqual(['shared fact']);
    expect(store.list({ kind: 'app', id: '../../etc/passwd' })).toEqual([]);
    store.drop(writer);
    expect(store.list(writer)).toEqual([]);
  });

  it('runs changes made at once one after the other: none is lost', async () => {
    const { store } = storeIn();
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.remember(writer, `parallel fact ${i}`, 'writer')));
    expect(store.count(writer)).toBe(8);
  });
});
