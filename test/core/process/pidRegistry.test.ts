import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PidFileSchema, PidRegistry } from '../../../src/core/process/pidRegistry.js';
import { processIdentity } from '../../../src/core/process/processTree.js';
import { tempDir } from '../../helpers/tempDir.js';
import { fixturesDir, groupOf, isRunning, killAfterTest, launcherScript, serverScript } from '../mcp/process/processHelpers.js';

const posix = process.platform !== 'win32';

/** A process that idles until killed, in its own group (as servers are). */
async function idleProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore', detached: true });
  await once(child, 'spawn');
  killAfterTest(child.pid!);
  return child.pid!;
}

/** The pid of a process that has exited (and been reaped): a host that is gone. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

function writePidFile(runDir: string, content: z.input<typeof PidFileSchema>): string {
  const file = path.join(runDir, `mcp-${content.hostPid}.json`);
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('PidRegistry', () => {
  it('records and forgets servers in mcp-<hostPid>.json, removing the file when none is left', async () => {
    const runDir = path.join(tempDir(), 'run');
    const pid = await idleProcess();
    const registry = new PidRegistry(runDir);
    expect(registry.file).toBe(path.join(runDir, `mcp-${process.pid}.json`));

    registry.record('acme::db', pid, process.execPath);
    const content = PidFileSchema.parse(JSON.parse(fs.readFileSync(registry.file, 'utf8')));
    expect(content.hostPid).toBe(process.pid);
    expect(content.servers).toEqual([expect.objectContaining({ serverId: 'acme::db', pid, command: process.execPath })]);
    expect(fs.readdirSync(runDir)).toEqual([`mcp-${process.pid}.json`]); // no temp file left behind

    registry.forget(pid);
    expect(fs.existsSync(registry.file)).toBe(false);
  });

  it.runIf(posix)(
    'the host SIGKILLed, then restarted: reapOrphans ends the orphaned server tree',
    async () => {
      const runDir = tempDir();
      const host = spawn(
        process.execPath,
        ['--import', path.join(fixturesDir, 'registerTs.mjs'), path.join(fixturesDir, 'orphanHost.mjs'), runDir, process.execPath, launcherScript, serverScript, '--ignore-eof', '--ignore-term'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let hostStderr = '';
      host.stderr.on('data', (chunk) => (hostStderr += chunk));
      try {
        const [line] = (await Promise.race([once(createInterface({ input: host.stdout }), 'line'), once(host, 'exit').then(() => [''])])) as [string];
        if (!line) throw new Error(`the stand-in host failed:\n${hostStderr}`);
        const { leaderPid, serverPid } = JSON.parse(line) as { leaderPid: number; serverPid: number };
        killAfterTest(leaderPid);

        host.kill('SIGKILL');
        await once(host, 'exit');
        // Orphaned: nobody will ever close them. This is what the next start must clean up.
        expect(isRunning(leaderPid)).toBe(true);
        expect(isRunning(serverPid)).toBe(true);
        expect(fs.readdirSync(runDir)).toEqual([`mcp-${host.pid}.json`]);

        const { reaped } = await PidRegistry.reapOrphans(runDir);

        expect(reaped).toEqual([{ kind: 'server', serverId: 'test::orphan', pid: leaderPid }]);
        expect(isRunning(leaderPid)).toBe(false);
        expect(isRunning(serverPid)).toBe(false);
        expect(groupOf(leaderPid)).toEqual([]);
        expect(fs.readdirSync(runDir)).toEqual([]);
      } finally {
        host.kill('SIGKILL');
      }
    },
    120_000,
  );

  it('leaves the file of a host that still runs alone', async () => {
    const runDir = tempDir();
    const server = await idleProcess();
    const registry = new PidRegistry(runDir, process.ppid); // a live host that is not us
    registry.record('acme::db', server, process.execPath);

    expect(await PidRegistry.reapOrphans(runDir)).toEqual({ reaped: [] });
    expect(isRunning(server)).toBe(true);
    expect(fs.existsSync(registry.file)).toBe(true);
  });

  it('never kills a pid that now belongs to another process; still deletes the stale file', async () => {
    const runDir = tempDir();
    const unrelated = await idleProcess();
    const file = writePidFile(runDir, {
      version: 1,
      hostPid: await deadPid(),
      servers: [
        // Same pid, but the start time recorded was another process's.
        { serverId: 'acme::recycled', pid: unrelated, identity: 'proc-start:1', command: process.execPath, recordedAt: new Date().toISOString() },
        // No start time recorded, and the command line does not match.
        { serverId: 'acme::other', pid: unrelated, command: '/opt/acme/bin/server', recordedAt: new Date().toISOString() },
      ],
    });

    expect(await PidRegistry.reapOrphans(runDir)).toEqual({ reaped: [] });
    expect(isRunning(unrelated)).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('reaps a recorded descendant by its start time though its leader is gone, and leaves a pid another process took alone', async () => {
    const runDir = tempDir();
    const orphan = await idleProcess();
    const recycled = await idleProcess();
    writePidFile(runDir, {
      version: 1,
      hostPid: await deadPid(),
      servers: [
        {
          serverId: 'acme::daemon',
          pid: await deadPid(),
          identity: 'proc-start:2',
          command: process.execPath,
          recordedAt: new Date().toISOString(),
          descendants: [
            { pid: orphan, identity: processIdentity(orphan)! },
            // Recorded with another start time: this pid now names a different process.
            { pid: recycled, identity: 'proc-start:1' },
          ],
        },
      ],
    });

    const { reaped } = await PidRegistry.reapOrphans(runDir);
    expect(reaped.map((r) => r.serverId)).toEqual(['acme::daemon']);
    expect(isRunning(orphan)).toBe(false);
    expect(isRunning(recycled)).toBe(true);
  });

  it('a missing run directory has nothing to reap', async () => {
    expect(await PidRegistry.reapOrphans(path.join(tempDir(), 'never-made'))).toEqual({ reaped: [] });
  });
});
