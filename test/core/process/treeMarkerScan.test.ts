import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasProcFs, markedIn, procSnapshot } from '../../../src/core/process/processTree.js';
import { until } from '../../helpers/until.js';
import { killAfterTest } from './processHelpers.js';

/**
 * Ending a server's tree looks for its CHATOS_TREE marker in the
 * environment of every process of the machine (a double-forked daemon has
 * nothing else tying it to the tree), a few times per server stopped. Read
 * with fs.readFileSync, each of those environments took two or more fresh
 * 8 KiB ArrayBuffers (/proc says its files are empty, so Node reads in
 * chunks), kept until a collection: megabytes of malloc churn per scan, and
 * the host's RSS grew by tens of MiB over a few hundred chat turns (issue 39).
 */
describe.runIf(hasProcFs())('looking for a tree marker in every process (Linux)', () => {
  it('finds the process that carries it, and keeps no buffer per process it read', async () => {
    const marker = randomUUID();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { env: { ...process.env, CHATOS_TREE: marker }, stdio: 'ignore' });
    killAfterTest(child.pid!);
    // Until the child has exec'd node: before that, /proc shows the environment it was forked with.
    await until('the child to carry the marker', () => markedIn(procSnapshot()!, marker).length > 0 || undefined);

    const snapshot = procSnapshot()!;
    const before = process.memoryUsage().arrayBuffers;
    const found = markedIn(snapshot, marker);
    const grew = process.memoryUsage().arrayBuffers - before;

    expect(found.map((tracked) => tracked.pid)).toEqual([child.pid]);
    expect(snapshot.size).toBeGreaterThan(2);
    // Each environment is read into one buffer the scans share: nothing per process is left for the collector.
    expect(grew).toBeLessThan(16 * 1024);
  });
});
