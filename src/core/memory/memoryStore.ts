import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type MiniSearch from 'minisearch';
import { z } from 'zod';
import { MAX_MEMORIES, MAX_MEMORY_CHARS, MemorySchema, type Memory, type MemoryHit } from '../../shared/memory.js';
import { readRegularText } from '../files/readRegularFile.js';
import { sameStamp, stampFile, type FileStamp } from '../files/fileStamps.js';
import { createWordIndex } from '../knowledge/wordIndex.js';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../store/dbFile.js';
import { withFileLock } from '../store/dbLock.js';
import { MemoryError } from './memoryError.js';

/** Whose memories: one agent's own, or those shared by the agents of one host app (docs/rules/agents.md#memory). */
export interface MemorySpace {
  kind: 'agent' | 'app';
  id: string;
}

export const spaceName = (space: MemorySpace) => `${space.kind}:${space.id}`;

const FORMAT = 'chatos-memory/1';
const MemoryFileSchema = z.object({ format: z.literal(FORMAT), memories: z.array(MemorySchema).max(MAX_MEMORIES) }).strict();
/** A full space at its longest (JSON escapes included) stays under this; a bigger file is not one of ours. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** A name that is a file name as it is on every system (no case pairs, no dots); any other id is hashed. */
const PLAIN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const newMemoryId = () => `m_${randomBytes(8).toString('hex')}`;

/** A space's file name: the id itself when plain, else `~` and its SHA-256 (an app id may hold any character, and `A` and `a` are one file on Windows and macOS). */
function fileNameOf(id: string): string {
  return `${PLAIN_NAME.test(id) ? id : `~${createHash('sha256').update(id).digest('hex')}`}.json`;
}

/** The text a memory keeps, or why it cannot: checked before any other work, so a 10 MB text costs one comparison. */
export function memoryText(raw: unknown): string {
  if (typeof raw !== 'string') throw new MemoryError('MEMORY_EMPTY', 'a memory is text', 'give {"text": "<what to remember>"}');
  if (raw.length > MAX_MEMORY_CHARS * 4)
    throw new MemoryError('MEMORY_TOO_LARGE', `a memory is at most ${MAX_MEMORY_CHARS} characters; this one has ${raw.length}`, 'keep the fact itself; a document belongs in a knowledge base');
  const text = raw.trim();
  if (!text) throw new MemoryError('MEMORY_EMPTY', 'a memory needs some text', 'give {"text": "<what to remember>"}');
  if (text.length > MAX_MEMORY_CHARS)
    throw new MemoryError('MEMORY_TOO_LARGE', `a memory is at most ${MAX_MEMORY_CHARS} characters; this one has ${text.length}`, 'keep the fact itself; a document belongs in a knowledge base');
  return text;
}

/** A space as read: its memories by id, the file's stamp when read, its word index once a search needs it. */
interface Loaded {
  stamp: FileStamp;
  memories: ReadonlyMap<string, Memory>;
  words?: MiniSearch<Memory>;
}

export interface MemoryStoreDeps {
  /** `$CHATOS_HOME/chatos/memory`: `agents/<id>.json` and `apps/<id>.json`. */
  dir: string;
  now: () => number;
  logger: Logger;
}

/**
 * Memories, one JSON file per space under the data home (not the admin DB:
 * they grow with use, and sql.js rewrites its whole file on every flush).
 * Bounded: MAX_MEMORIES per space, MAX_MEMORY_CHARS per memory. A change
 * holds the file's lock, starts from what is on disk (the window and the
 * CLI may both write) and is written atomically; a read re-reads the file
 * only when its stamp changed. A file that cannot be read is left where it
 * is and named in the error, so nothing is lost by writing over it. Found
 * by words with the knowledge bases' BM25 index (wordIndex.ts).
 */
export class MemoryStore {
  private readonly loaded = new Map<string, Loaded>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: MemoryStoreDeps) {}

  fileOf(space: MemorySpace): string {
    return path.join(this.deps.dir, space.kind === 'agent' ? 'agents' : 'apps', fileNameOf(space.id));
  }

  /** Every memory of the space, the most recently saved first. */
  list(space: MemorySpace): Memory[] {
    return [...this.read(space).memories.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  }

  count(space: MemorySpace): number {
    return this.read(space).memories.size;
  }

  /** The memories whose words match `query` (BM25), best first. */
  search(space: MemorySpace, query: string, limit: number): MemoryHit[] {
    const loaded = this.read(space);
    if (!loaded.memories.size) return [];
    if (!loaded.words) {
      loaded.words = createWordIndex<Memory>(['text']);
      loaded.words.addAll([...loaded.memories.values()]);
    }
    return loaded.words
      .search(query)
      .slice(0, limit)
      .flatMap((hit) => {
        const memory = loaded.memories.get(hit.id as string);
        return memory ? [{ ...memory, score: hit.score }] : [];
      });
  }

  /** Saves a memory; the same text saved again is the memory it was, saved anew (`existed`). */
  async remember(space: MemorySpace, raw: unknown, by: string): Promise<{ memory: Memory; existed: boolean }> {
    const text = memoryText(raw);
    return this.change(space, (memories, now) => {
      const same = [...memories.values()].find((m) => m.text === text);
      if (same) {
        const memory = { ...same, updatedAt: now, ...(same.by !== by || same.changedBy ? { changedBy: by } : {}) };
        memories.set(memory.id, memory);
        return { memory, existed: true };
      }
      if (memories.size >= MAX_MEMORIES)
        throw new MemoryError('MEMORY_FULL', `${spaceName(space)} holds ${memories.size} memories, the most it may`, 'forget some first (memory_list shows them, oldest last)');
      let id = newMemoryId();
      while (memories.has(id)) id = newMemoryId();
      const memory: Memory = { id, text, createdAt: now, updatedAt: now, by };
      memories.set(id, memory);
      return { memory, existed: false };
    });
  }

  /** Replaces a memory's text; `by` (who changed it) is kept beside who first saved it, so an edited memory never reads as saved by its first author alone. */
  async update(space: MemorySpace, id: string, raw: unknown, by: string): Promise<Memory> {
    const text = memoryText(raw);
    return this.change(space, (memories, now) => {
      const memory = { ...this.existing(space, memories, id), text, updatedAt: now, changedBy: by };
      memories.set(id, memory);
      return memory;
    });
  }

  /** Removes a memory; it is returned as it was. */
  forget(space: MemorySpace, id: string): Promise<Memory> {
    return this.change(space, (memories) => {
      const memory = this.existing(space, memories, id);
      memories.delete(id);
      return memory;
    });
  }

  /** Removes a whole space (an agent deleted: a new agent given its id starts with no memories). */
  drop(space: MemorySpace): void {
    const file = this.fileOf(space);
    fs.rmSync(file, { force: true });
    this.loaded.delete(file);
  }

  private existing(space: MemorySpace, memories: ReadonlyMap<string, Memory>, id: string): Memory {
    const memory = memories.get(id);
    if (!memory) throw new MemoryError('MEMORY_NOT_FOUND', `no memory "${id}" in ${spaceName(space)}`, 'list the memories to see their ids');
    return memory;
  }

  /** The space as on disk now: the cached one while the file's stamp is unchanged. */
  private read(space: MemorySpace): Loaded {
    const file = this.fileOf(space);
    // Stamped before the read: a file replaced meanwhile differs from the stamp, so the next read sees it.
    const stamp = stampFile(file);
    const cached = this.loaded.get(file);
    if (cached && sameStamp(cached.stamp, stamp)) return cached;
    const loaded: Loaded = { stamp, memories: stamp.errorCode === 'ENOENT' ? new Map() : this.parse(file) };
    this.loaded.set(file, loaded);
    return loaded;
  }

  private parse(file: string): Map<string, Memory> {
    const read = readRegularText(file, { maxBytes: MAX_FILE_BYTES, noFollow: true });
    if (!read.ok) throw new MemoryError('MEMORY_BROKEN', `the memory file ${file} cannot be read: ${read.message}`, read.hint);
    let json: unknown;
    try {
      json = JSON.parse(read.text);
    } catch (error) {
      throw broken(file, `it is not JSON (${(error as Error).message})`);
    }
    const parsed = MemoryFileSchema.safeParse(json);
    if (!parsed.success) throw broken(file, issuesText(parsed.error.issues));
    return new Map(parsed.data.memories.map((memory) => [memory.id, memory]));
  }

  /** One change of a space at a time, in this process (a queue) and across processes (the file's lock). */
  private change<T>(space: MemorySpace, edit: (memories: Map<string, Memory>, now: string) => T): Promise<T> {
    const file = this.fileOf(space);
    const run = async () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      return withFileLock(file, this.deps.logger, () => {
        const memories = new Map(this.read(space).memories);
        const result = edit(memories, new Date(this.deps.now()).toISOString());
        const content = { format: FORMAT, memories: [...memories.values()] };
        writeFileAtomic(file, Buffer.from(`${JSON.stringify(content, null, 1)}\n`));
        this.loaded.set(file, { stamp: stampFile(file), memories });
        return result;
      });
    };
    const previous = this.queues.get(file) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(file, settled);
    void settled.then(() => this.queues.get(file) === settled && this.queues.delete(file));
    return next;
  }
}

/** The first few schema issues, each at its JSON path. */
const issuesText = (issues: readonly z.core.$ZodIssue[]) =>
  issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');

function broken(file: string, why: string): MemoryError {
  return new MemoryError('MEMORY_BROKEN', `the memory file ${file} is not valid: ${why}`, `mend it, or move it aside (the memories then start empty); nothing is written over it until then`);
}
