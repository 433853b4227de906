import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Clock, Logger } from '../../../src/core/ports.js';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { RecordsStore, type RecordsStoreOptions } from '../../../src/core/store/recordsStore.js';
import { repoRoot } from '../../helpers/tempDir.js';

export const Notes = defineTable('notes', z.object({ title: z.string(), tags: z.array(z.string()).default([]) }));
export const Counters = defineTable('counters', z.object({ value: z.number().int() }));

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private ms = Date.parse('2025-01-02T03:04:05.000Z')) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A logger that keeps what it was told. */
export class TestLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error: ${message}`);
  }
}

/** Writes a real DB with `rows` notes through the store, closes it and returns its bytes. */
export async function makeDb(file: string, rows: number, options: RecordsStoreOptions = {}): Promise<Buffer> {
  const store = await RecordsStore.open(file, { backups: 0, ...options });
  store.transaction(() => {
    for (let i = 0; i < rows; i++) store.put(Notes, `note-${String(i).padStart(4, '0')}`, { title: `note ${i}`, tags: ['t'] });
  });
  await store.close();
  return fs.readFileSync(file);
}

export function listDir(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/** The compiled store the child-process fixtures import; fails clearly when `npm run build` was not run or is stale. */
export function requireBuiltStore(): string {
  const built = path.join(repoRoot, 'dist', 'src', 'core', 'store', 'recordsStore.js');
  if (!fs.existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first (npm test does)`);
  const sourceDir = path.join(repoRoot, 'src', 'core', 'store');
  for (const name of fs.readdirSync(sourceDir)) {
    const source = path.join(sourceDir, name);
    const compiled = path.join(repoRoot, 'dist', 'src', 'core', 'store', name.replace(/\.ts$/, '.js'));
    if (!fs.existsSync(compiled) || fs.statSync(compiled).mtimeMs < fs.statSync(source).mtimeMs) {
      throw new Error(`${compiled} is older than ${source}: run "npm run build" first`);
    }
  }
  return built;
}

export const fixturesDir = path.join(import.meta.dirname, 'fixtures');

/**
 * Node flags for the short-lived child processes: a child lives for a few
 * saves, so optimising sql.js's wasm (on by default) only burns CPU that the
 * other children need; Liftoff alone cuts a child's start-up by about a third.
 */
export const CHILD_NODE_FLAGS = ['--liftoff-only'];
