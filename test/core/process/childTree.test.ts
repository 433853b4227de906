import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ChildTree, exitText, OWN_PROCESS_GROUP, type TreeRecord } from '../../../src/core/process/childTree.js';
import type { TrackedProcess } from '../../../src/core/process/processTree.js';
import { isRunning, killAfterTest, launcherScript, serverScript } from './processHelpers.js';

describe('ChildTree', () => {
  it('ends a launcher and the grandchild it started, once however often it is asked, and tells its record', async () => {
    const child = spawn(process.execPath, [launcherScript, serverScript], { stdio: ['pipe', 'pipe', 'pipe'], ...OWN_PROCESS_GROUP });
    killAfterTest(child.pid!);
    const calls: string[] = [];
    const record: TreeRecord = {
      started: (pid, identity) => calls.push(`started ${pid === child.pid} ${identity !== undefined}`),
      descendantsOf: (): readonly TrackedProcess[] => [],
      ended: (pid, survivors) => calls.push(`ended ${pid === child.pid} [${survivors.join(',')}]`),
    };
    const tree = new ChildTree(child, { record, log: () => {} });
    const [line] = (await once(createInterface({ input: child.stderr! }), 'line')) as [string];
    const grandchild = Number(/started pid (\d+)/.exec(line)![1]);
    expect(isRunning(grandchild)).toBe(true);

    const first = tree.end({ termGraceMs: 200 });
    expect(tree.end()).toBe(first);
    await first;

    expect([isRunning(child.pid!), isRunning(grandchild)]).toEqual([false, false]);
    expect(calls).toEqual(['started true true', 'ended true []']);
  });

  it('refuses a child that has no pid (its spawn failed)', async () => {
    const child = spawn('/nonexistent/chatos-test-command', [], { ...OWN_PROCESS_GROUP });
    const failed = once(child, 'error');
    expect(() => new ChildTree(child, { log: () => {} })).toThrow(/no pid/);
    await failed;
  });
});

describe('exitText', () => {
  it('says how the child ended and quotes its last stderr lines', () => {
    expect(exitText('the backend of plugin p', { code: 3, signal: null }, ['boom', 'at x'])).toBe('the backend of plugin p exited with code 3; last stderr:\n  boom\n  at x');
    expect(exitText('MCP server "s"', { code: null, signal: 'SIGKILL' }, [])).toBe('MCP server "s" was killed by SIGKILL (it wrote nothing to stderr)');
  });
});
