import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ProcessTransport, type ProcessTransportOptions } from '../../../src/core/process/processTransport.js';
import { serverEnvironment } from '../../../src/core/process/serverEnvironment.js';
import { ServerLog } from '../../../src/core/process/serverLog.js';
import { repoRoot } from '../../helpers/tempDir.js';
import { afterEachTest } from '../../helpers/afterEachTest.js';

export const serverScript = path.join(repoRoot, 'test', 'fixtures', 'servers', 'processTestServer.mjs');
export const launcherScript = path.join(repoRoot, 'test', 'fixtures', 'servers', 'grandchildLauncher.mjs');
export const fixturesDir = path.join(import.meta.dirname, 'fixtures');

interface PsRow {
  pid: number;
  ppid: number;
  pgid: number;
  stat: string;
}

/**
 * The machine's processes as `ps` sees them: deliberately not the code under
 * test's /proc reader, so the tests check its claims independently.
 * Zombies are left out: they are dead, merely not yet reaped by their new parent.
 */
export function livingProcesses(): PsRow[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 4)
    .map(([pid, ppid, pgid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), stat: stat! }))
    .filter((row) => !row.stat.startsWith('Z'));
}

export const isRunning = (pid: number) => livingProcesses().some((row) => row.pid === pid);
export const groupOf = (pgid: number) =>
  livingProcesses()
    .filter((row) => row.pgid === pgid)
    .map((row) => row.pid);

export function descendantsOf(pid: number): number[] {
  const rows = livingProcesses();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows) if (row.ppid === parent) (found.push(row.pid), queue.push(row.pid));
  }
  return found;
}

const opened: ProcessTransport[] = [];
const stray: number[] = [];

/**
 * Remembers a process group to SIGKILL after the test, should the test fail before cleaning up; or a lone
 * process (one spawned without `detached`, so no group of its own), which is then killed by its pid.
 */
export function killAfterTest(pgid: number): void {
  stray.push(pgid);
}

function killGroupOrProcess(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
      return;
    } catch {
      // no such group (a lone process), or already gone, as it should be
    }
  }
}

afterEachTest(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
  for (const pgid of stray.splice(0)) killGroupOrProcess(pgid);
});

export interface Connected {
  client: Client;
  transport: ProcessTransport;
  log: ServerLog;
  errors: Error[];
}

/** Starts `node <args>` through a ProcessTransport and connects the SDK's own Client to it. */
export async function connectNode(args: string[], options: Partial<ProcessTransportOptions> = {}): Promise<Connected> {
  const log = options.log ?? new ServerLog();
  const transport = new ProcessTransport({ serverId: 'test::srv', command: process.execPath, args, env: serverEnvironment(process.env, undefined, {}), log, ...options });
  opened.push(transport);
  const client = new Client({ name: 'chatos-test', version: '0.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  if (transport.pid) killAfterTest(transport.pid);
  return { client, transport, log, errors };
}

/** The text of a tools/call result's first content block. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  if (first?.type !== 'text' || first.text === undefined) throw new Error(`tool ${name} returned no text`);
  return first.text;
}
