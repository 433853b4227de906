import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { caller, startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { startTimeOf } from '../../helpers/processStart.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';
import { until } from '../../helpers/until.js';

/**
 * Issue 25 item 11: a server's daemon that double-forked with setsid (its
 * parent exits at once, so no look at /proc ever sees it below the server)
 * still belongs to the server's tree: it carries the tree's CHATOS_TREE
 * marker, and ending the tree ends it. The kill -9 case (reaped by the next
 * start) is in test/cli/orphans.test.ts.
 */

const doubleForkServer = path.join(repoRoot, 'test', 'fixtures', 'servers', 'doubleForkServer.mjs');

interface Forked {
  server: number;
  middle: number;
  daemon: number;
}

let leftover: { pid: number; started: string } | undefined;
afterEach(() => {
  // A failed test must not leave its daemon behind: ended by pid and start time only.
  if (leftover && startTimeOf(leftover.pid) === leftover.started) process.kill(leftover.pid, 'SIGKILL');
  leftover = undefined;
});

describe.runIf(process.platform === 'linux')('a daemon that double-forked away from its server (Linux)', () => {
  it('is ended when the conversation releases the server, and carries the tree marker the host gave the server', async () => {
    const pidsFile = path.join(tempDir(), 'forked.json');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { fork: { transport: 'stdio', command: process.execPath, args: [doubleForkServer, pidsFile] } }));
    const called = await host.gateway.callTool(caller('c1'), 'mcp_fork_daemon', {});
    expect(called.result.isError).toBeFalsy();
    const forked = await until('the server to write its pids', () => (fs.existsSync(pidsFile) ? (JSON.parse(fs.readFileSync(pidsFile, 'utf8')) as Forked) : undefined));
    const started = startTimeOf(forked.daemon)!;
    leftover = { pid: forked.daemon, started };
    expect(started).toBeDefined();
    expect(startTimeOf(forked.middle)).toBeUndefined();
    // Nothing ties it to the server but the marker: a session of its own, adopted by someone else.
    const stat = fs.readFileSync(`/proc/${forked.daemon}/stat`, 'utf8');
    const [, ppid, , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(session)).toBe(forked.daemon);
    expect(Number(ppid)).not.toBe(forked.server);
    const marker = (pid: number) =>
      fs
        .readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .find((entry) => entry.startsWith('CHATOS_TREE='));
    expect(marker(forked.daemon)).toMatch(/^CHATOS_TREE=[0-9a-f-]{36}$/);
    expect(marker(forked.daemon)).toBe(marker(forked.server));

    expect(await host.mcp.connections.release('chatos::fork', 'c1')).toBe(true);
    await expect.poll(() => startTimeOf(forked.server)).toBeUndefined();
    await expect.poll(() => startTimeOf(forked.daemon)).toBeUndefined();
  });
});
