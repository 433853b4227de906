import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasProcFs, markedIn, processIdentity, procSnapshot, type TrackedProcess } from '../../../src/core/process/processTree.js';
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

  it("reads no process older than the tree's leader: none of them can carry its marker", async () => {
    const marker = randomUUID();
    const spawnMarked = () => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { env: { ...process.env, CHATOS_TREE: marker }, stdio: 'ignore' });
      killAfterTest(child.pid!);
      return child.pid!;
    };
    const startTicks = (tracked: TrackedProcess) => Number(tracked.identity.replace('proc-start:', ''));
    // A process that carries the marker (copied by hand, say) but was started before the leader: not of its tree.
    const older = spawnMarked();
    const [olderTracked] = await until('the older process to carry the marker', () => {
      const found = markedIn(procSnapshot()!, marker);
      return found.length > 0 ? found : undefined;
    });
    // The leader, started later by the clock /proc keeps (ticks of 10 ms): another start until one is.
    const leader = await until('a leader started after it', () => {
      const pid = spawnMarked();
      const identity = processIdentity(pid);
      return identity && startTicks({ pid, identity }) > startTicks(olderTracked!) ? { pid, identity } : undefined;
    });
    await until('the leader to carry the marker', () => markedIn(procSnapshot()!, marker).some((tracked) => tracked.pid === leader.pid) || undefined);

    const all = markedIn(procSnapshot()!, marker).map((tracked) => tracked.pid);
    expect(all).toEqual(expect.arrayContaining([older, leader.pid]));
    const ofTree = markedIn(procSnapshot()!, marker, leader).map((tracked) => tracked.pid);
    expect(ofTree).toContain(leader.pid);
    expect(ofTree).not.toContain(older);
  });
});
