import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTable } from '../../../src/core/store/logicalTable.js';
import { RecordsStore } from '../../../src/core/store/recordsStore.js';
import { seededRandom } from '../../helpers/seededRandom.js';
import { stressSize } from '../../helpers/stress.js';
import { tempDir } from '../../helpers/tempDir.js';
import { CHILD_NODE_FLAGS, fixturesDir, requireBuiltStore } from './storeTestKit.js';

const Counter = defineTable('counter', z.object({ value: z.number().int() }));
const Items = defineTable('items', z.object({ n: z.number().int(), pad: z.string() }));
/** CHATOS_STRESS=1: 50 kills; a default run kills 15 times, with the same checks after each. */
const KILLS = stressSize(50, 15);
const BOOT_AHEAD = 3;

/** A saveLoop child: booted (modules and wasm ready), waiting for "go". */
class SaveLoopChild {
  readonly lines: string[] = [];
  private partial = '';
  private waiters: { test: (line: string) => boolean; resolve: () => void }[] = [];
  readonly exited: Promise<void>;

  constructor(readonly process: ChildProcessWithoutNullStreams) {
    process.stdout.on('data', (chunk: Buffer) => {
      const parts = (this.partial + chunk.toString()).split('\n');
      this.partial = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        this.waiters = this.waiters.filter((w) => !(w.test(line) && (w.resolve(), true)));
      }
    });
    let stderr = '';
    process.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.exited = new Promise((resolve, reject) => {
      process.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`saveLoop exited by itself: ${stderr}`))));
    });
  }

  static start(file: string): SaveLoopChild {
    return new SaveLoopChild(spawn(process.execPath, [...CHILD_NODE_FLAGS, path.join(fixturesDir, 'saveLoop.mjs'), file], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  waitFor(line: string): Promise<void> {
    if (this.lines.includes(line)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test: (l) => l === line, resolve }));
  }

  lastSaved(): number {
    const saved = this.lines.filter((l) => l.startsWith('saved ')).map((l) => Number(l.slice(6)));
    return saved.length > 0 ? saved[saved.length - 1]! : -1;
  }
}

describe('crash safety', () => {
  it(`a writer SIGKILLed at random moments ${KILLS} times never leaves a file that fails to open clean`, async () => {
    requireBuiltStore();
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    let committed = 0; // the newest state the store reported as saved
    // Children boot (node, modules, wasm) ahead of their turn, so boots overlap the runs.
    const queue = Array.from({ length: BOOT_AHEAD }, () => SaveLoopChild.start(file));
    const outcomes: string[] = [];
    // Seeded: a failure prints its seed, and CHATOS_SEED replays the same moments.
    const random = seededRandom();
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const child = queue.shift()!;
        await child.waitFor('booted');
        child.process.stdin.write('go\n');
        if (kill + queue.length + 1 < KILLS) queue.push(SaveLoopChild.start(file));
        await child.waitFor('ready');
        // A random moment inside the save loop: after 1-3 saves, then 0-15 ms into the following ones
        // (a save takes a few ms, so some kills land mid-write, some between writes). The moment is the
        // test's input, not a wait for something: the one timer test/scripts/noSleeps.test.ts allows here.
        await child.waitFor(`saved ${committed + 1 + Math.floor(random() * 3)}`);
        await setTimeout(random() * 15);
        child.process.kill('SIGKILL');
        await child.exited;

        const reader = await RecordsStore.open(file, { readOnly: true, backups: 0 });
        const value = reader.get(Counter, 'state')?.payload.value ?? 0;
        expect(reader.problems, `after kill ${kill}`).toEqual([]);
        // What the child had reported saved is there; at most the one save in flight when killed is added.
        const saved = Math.max(child.lastSaved(), committed);
        expect([saved, saved + 1], `after kill ${kill}`).toContain(value);
        // The state is whole: counter n and exactly items 1..n.
        expect(reader.count(Items)).toBe(value);
        if (value > 0) expect(reader.get(Items, `item-${String(value).padStart(6, '0')}`)?.payload.n).toBe(value);
        await reader.close();
        outcomes.push(value === saved ? 'old' : 'new');
        committed = value;

        // The killed child may have held the lock; it is dead, so free it rather than wait out
        // the stale timeout each round (taking over a stale lock is tested on its own).
        fs.rmSync(`${file}.lock`, { recursive: true, force: true });
      }
    } finally {
      for (const left of queue) left.process.kill('SIGKILL'); // only after a failure
    }

    expect(committed).toBeGreaterThanOrEqual(KILLS); // every child really saved
    expect(fs.readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toEqual([]);
    // A writable open still finds it clean.
    const store = await RecordsStore.open(file);
    expect(store.problems).toEqual([]);
    await store.close();
    console.log(`crash safety: ${KILLS} kills, final state ${committed}, killed with ${outcomes.filter((o) => o === 'new').length} save(s) landed but unreported`);
  }, 300_000);
});
