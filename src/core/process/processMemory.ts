import * as fs from 'node:fs';
import { identityIn, indexSnapshot, procSnapshot, treeIn, type ProcSnapshot } from './processTree.js';

/**
 * What the processes the host started cost in memory, as the Servers page
 * shows it (docs/using/mcp-servers.md#what-each-process-costs): the resident set (RSS) of each
 * process tree, the launcher (npx, uvx, a shell) and everything it started,
 * since that is what the machine gives up while the server runs. Linux only
 * (read from /proc); elsewhere there is no figure rather than a wrong one.
 */

/** `VmRSS` of one process in bytes; undefined when it is gone or shows none (a zombie, a kernel thread). */
function rssBytesOf(pid: number): number | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

/**
 * The summed RSS of each given process's tree, read at one moment; a pid
 * whose process is gone, and every pid where there is no /proc, is left out.
 * Processes shared by two trees (none, in practice) would count in both.
 */
export function treeRssBytes(pids: readonly number[], snapshot: ProcSnapshot | undefined = procSnapshot()): Map<number, number> {
  const sizes = new Map<number, number>();
  if (!snapshot) return sizes;
  const index = indexSnapshot(snapshot);
  for (const pid of new Set(pids)) {
    // The identity as the snapshot saw it: the tree is walked in that one moment.
    const identity = identityIn(snapshot, pid);
    if (identity === undefined) continue;
    const members = treeIn(snapshot, [{ pid, identity }], index);
    const total = members.reduce((sum, member) => sum + (rssBytesOf(member.pid) ?? 0), 0);
    if (members.length > 0) sizes.set(pid, total);
  }
  return sizes;
}
