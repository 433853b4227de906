import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolMessage } from '../../../src/shared/chat.js';
import { MAX_FRAME_CHARS, STACK_MARK, withoutStackTraces } from '../../../src/core/mcp/stackTrace.js';
import { startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** docs/rules/gateway.md#no-stack-traces: a server's error text reaches the model and the user without its stack trace. */

const RESULT_SIZE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'resultSizeServer.mjs');
const entry = { transport: 'stdio', command: process.execPath, args: [RESULT_SIZE_SERVER] };
/**
 * The length of the text each regular expression run is given while `run` runs, in order. Every use of a RegExp
 * (test, exec, match, replace, split) goes through RegExp.prototype.exec once it is replaced, so none is missed.
 * Counting work, not time: the time bench (npm run bench -- linear) measures it on the clock.
 */
function regexInputs(run: () => void): number[] {
  const exec = RegExp.prototype.exec;
  const lengths: number[] = [];
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    lengths.push(String(input).length);
    return exec.call(this, input);
  };
  try {
    run();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return lengths;
}

/** A frame of any of the kinds servers write. */
const FRAME = /^\s+at .*:\d+|File ".*", line \d+|Traceback \(most recent/m;

describe('error texts from a real server', () => {
  it("a failed result's text and a JSON-RPC error's message keep their words and lose their frames", async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { failing: entry }));
    const { result } = await host.tools.call(caller('conv-s'), 'mcp_failing_stack_result', {});
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).not.toMatch(FRAME);
    expect(text).toBe(`query failed: Error: the database is locked\n    ${STACK_MARK}\n\nand the worker said:\n${STACK_MARK}\ndb.LockedError: the database is locked`);

    const error = await host.tools.call(caller('conv-s'), 'mcp_failing_stack_error', {}).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error!.message).toBe(`call to stack_error on "chatos::failing" failed with JSON-RPC error -32603: internal failure: Error: the database is locked\n    ${STACK_MARK}`);
  });

  it('in a chat, neither the model nor the tool card gets a frame', async () => {
    const { host, provider } = await startChatWorld({ servers: { failing: entry } });
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'r1', name: 'mcp_failing_stack_result', arguments: {} },
          { id: 'r2', name: 'mcp_failing_stack_error', arguments: {} },
        ],
      },
      { kind: 'reply', text: 'both failed' },
    );
    const outcome = await host.chat.send({ agentId: 'helper', text: 'try' }).done;
    const stored = outcome.messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(stored.map((m) => m.status)).toEqual(['error', 'error']);
    for (const message of stored) for (const item of message.content) if (item.type === 'text') expect(item.text).not.toMatch(FRAME);
    const sent = toolResultsIn(provider.requests[1]!.body);
    expect(sent.map(([id]) => id)).toEqual(['r1', 'r2']);
    for (const [, text] of sent) {
      expect(text).not.toMatch(FRAME);
      expect(text).toContain('the database is locked');
    }
  });
});

describe('withoutStackTraces', () => {
  it('leaves one mark for each run of JavaScript, Java or Python frames', () => {
    const java = ['java.lang.IllegalStateException: closed', '\tat com.example.Db.query(Db.java:42)', '\tat com.example.Tool.call(Tool.java:7)', '\t... 12 more', 'done'].join('\n');
    expect(withoutStackTraces(java)).toBe(`java.lang.IllegalStateException: closed\n\t${STACK_MARK}\ndone`);
    const node = [
      'TypeError: x is not a function',
      '    at run (file:///srv/a.mjs:3:9)',
      '    at async Promise.all (index 0)',
      '    at new Thing (<anonymous>)',
      '    at node:internal/main:12:5',
    ].join('\n');
    expect(withoutStackTraces(node)).toBe(`TypeError: x is not a function\n    ${STACK_MARK}`);
  });

  it('keeps prose that only looks like a frame, and is the same string when there is none', () => {
    const prose = 'Results:\n  at least 3 rows matched\n  at noon: 4 more\nFile "a.txt" was read';
    expect(withoutStackTraces(prose)).toBe(prose);
  });

  it('does work in proportion to the text, whatever a server writes: each line is given to a few short regex runs', () => {
    // Lines shaped to make a backtracking frame pattern work hard, and one frame-like line far past the frame length.
    const hostile = (n: number) => `x\n${`  at ${':1 '.repeat(50)}\n  File "${'", line 1, in x'.repeat(40)}\n${' '.repeat(300)}\n`.repeat(n)}`;
    const longFrame = `Error: boom\n  at ${':1 '.repeat(50_000)}\ndone`;
    for (const text of [hostile(500), hostile(2_000), longFrame]) {
      const [scan, ...perLine] = regexInputs(() => withoutStackTraces(text));
      // One look over the whole text for where a frame could start (linear: anchored at line starts)...
      expect(scan).toBe(text.length + 1);
      // ...then each pattern is tried on one line at most MAX_FRAME_CHARS long, so however it backtracks, a run costs a bounded time;
      expect(Math.max(...perLine)).toBeLessThanOrEqual(MAX_FRAME_CHARS);
      // and a line meets a few of them, once: the characters tried grow with the text, not with its square.
      expect(perLine.reduce((sum, length) => sum + length, 0)).toBeLessThanOrEqual(6 * text.length);
    }
  });
});
