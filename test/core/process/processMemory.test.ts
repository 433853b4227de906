import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { OWN_PROCESS_GROUP } from '../../../src/core/process/childTree.js';
import { treeRssBytes } from '../../../src/core/process/processMemory.js';
import { hasProcFs } from '../../../src/core/process/processTree.js';
import { killAfterTest } from './processHelpers.js';

const MiB = 1024 * 1024;

/**
 * A launcher (like npx) that starts a child holding 96 MiB it has written to
 * (so it is resident), and says "ready" once it does. The Servers page's
 * figure must be the whole tree's, not the launcher's few MB.
 */
const LAUNCHER = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(96 * 1024 * 1024, 1); globalThis.keep = b; console.log('ready'); setInterval(() => {}, 1e6)"], { stdio: ['ignore', 'inherit', 'inherit'] });
process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });
`;

describe.runIf(hasProcFs())('what a process tree costs (RSS from /proc)', () => {
  it("sums the launcher's and its child's resident memory; a pid that is gone has no figure", async () => {
    const launcher = spawn(process.execPath, ['-e', LAUNCHER], { stdio: ['ignore', 'pipe', 'inherit'], ...OWN_PROCESS_GROUP });
    killAfterTest(launcher.pid!);
    const [line] = (await once(createInterface({ input: launcher.stdout! }), 'line')) as [string];
    expect(line).toBe('ready');

    const tree = treeRssBytes([launcher.pid!]).get(launcher.pid!)!;
    // The child's 96 MiB buffer is in the tree's figure; a launcher alone holds ~40 MB.
    expect(tree).toBeGreaterThan(96 * MiB);

    launcher.kill('SIGTERM');
    await once(launcher, 'exit');
    expect(treeRssBytes([launcher.pid!]).has(launcher.pid!)).toBe(false);
  });
});
