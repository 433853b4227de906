import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolMessage } from '../../../src/shared/chat.js';
import { STACK_MARK, withoutStackTraces } from '../../../src/core/mcp/stackTrace.js';
import { startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { repoRoot } from '../../helpers/tempDir.js';

/** docs/rules/gateway.md#no-stack-traces: a server's error text reaches the model and the user without its stack trace. */

const RESULT_SIZE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'resultSizeServer.mjs');
const entry = { transport: 'stdio', command: process.execPath, args: [RESULT_SIZE_SERVER] };
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
    expect(error!.message).toBe(`MCP error -32603: internal failure: Error: the database is locked\n    ${STACK_MARK}`);
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

  it('costs time in proportion to the text, whatever a server writes (4x the text within 8x the time; quadratic would be 16x)', () => {
    const hostile = (n: number) => `x\n${`  at ${':1 '.repeat(50)}\n  File "${'", line 1, in x'.repeat(40)}\n${' '.repeat(300)}\n`.repeat(n)}`;
    const small = hostile(500);
    const large = hostile(2_000);
    const median = (times: number[]) => times.sort((a, b) => a - b)[times.length >> 1]!;
    const took = (text: string) => {
      const start = performance.now();
      withoutStackTraces(text);
      return performance.now() - start;
    };
    // Rounds interleaved and their medians compared: the machine's load falls on both alike.
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let round = 0; round < 9; round++) (smallTimes.push(took(small)), largeTimes.push(took(large)));
    expect(median(largeTimes) / median(smallTimes)).toBeLessThanOrEqual(8);
  });
});
