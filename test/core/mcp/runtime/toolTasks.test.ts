import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { callToolAsTask } from '../../../../src/core/mcp/client/toolTask.js';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { connectStdio } from '../../../helpers/mcpClient.js';
import { startChatWorld, toolResultsIn } from '../../../helpers/chatWorld.js';
import { stderrLine } from '../../../helpers/serverStderr.js';
import { until } from '../../../helpers/until.js';
import { repoRoot } from '../../../helpers/tempDir.js';

/** docs/using/tools.md#long-tasks: a tool that requires task-based execution (MCP 2025-11-25) is called as a task. */

/** simulate-research-query's stages, in its order (server-everything's tools/simulate-research-query.js). */
const RESEARCH_STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];

const everything = { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] };

describe("server-everything's simulate-research-query (execution.taskSupport: required)", () => {
  it('runs as a task: its status is reported as it changes, and its result comes back', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything }));
    const listed = await host.tools.list(caller('conv-t'));
    expect(listed.tools.map((t) => t.name)).toContain('mcp_everything_simulate-research-query');

    const progress: Progress[] = [];
    const { result } = await host.tools.call(caller('conv-t'), 'mcp_everything_simulate-research-query', { topic: 'tides' }, { onProgress: (p) => progress.push(p) });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('# Research Report: tides');
    const messages = progress.map((p) => p.message);
    expect(messages[0]).toMatch(/^task working/);
    expect(messages.at(-1)).toMatch(/^task completed/);
    // Between them, the server's stages as the host's polls saw them, in the server's order: a poll may fall between
    // two stages and see neither of them (the server moves on in its own time), never one out of order.
    const stageOf = (message: string | undefined) => RESEARCH_STAGES.findIndex((stage) => message === `task working: ${stage}...`);
    const stages = messages.slice(1, -1).map(stageOf);
    expect(stages.every((stage) => stage >= 0)).toBe(true);
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
  });

  it('a call cancelled while its task runs ends as cancelled at once', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything }));
    const stop = new AbortController();
    const calling = host.tools.call(caller('conv-c'), 'mcp_everything_simulate-research-query', { topic: 'reefs' }, { signal: stop.signal, onProgress: () => stop.abort() });
    const error = await calling.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_ABORTED');
  });

  it('cancelling sends tasks/cancel: the server lists the task as cancelled', async () => {
    const client = await connectStdio(process.execPath, [EVERYTHING_SERVER, 'stdio']);
    try {
      await client.listTools();
      const stop = new AbortController();
      const params = { name: 'simulate-research-query', arguments: { topic: 'reefs' }, _meta: {} };
      await expect(callToolAsTask(client, params, { timeout: 30_000, signal: stop.signal, onprogress: () => stop.abort() })).rejects.toBeDefined();
      const task = await until('the task to be cancelled', async () => {
        const { tasks } = await client.experimental.tasks.listTasks();
        return tasks.find((t) => t.status === 'cancelled');
      });
      expect(task.status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it("in a chat, the call's card is told the task's status as it runs, and the model gets the report", async () => {
    const { host, provider } = await startChatWorld({ servers: { everything } });
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 't1', name: 'mcp_everything_simulate-research-query', arguments: { topic: 'dunes' } }] }, { kind: 'reply', text: 'read it' });
    const shown: string[] = [];
    host.chat.onEvent((event) => {
      if (event.type === 'toolCall' && event.call.phase === 'progress' && event.call.progress?.message) shown.push(event.call.progress.message);
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'research dunes' }).done;
    expect(outcome.status).toBe('done');
    // Its stages last 1 s and it asks to be polled every 1 s, so a poll may miss one: the statuses shown are its stages, in order.
    const stages = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'].map((stage) => `task working: ${stage}...`);
    const working = shown.filter((message) => message.startsWith('task working'));
    expect(working.length).toBeGreaterThan(0);
    const at = working.map((message) => stages.indexOf(message));
    expect(at.every((index, i) => index !== -1 && (i === 0 || index >= at[i - 1]!))).toBe(true);
    expect(toolResultsIn(provider.requests[1]!.body)[0]![1]).toContain('# Research Report: dunes');
  });
});

describe('a task that never ends', () => {
  /**
   * Its task stays `working` and asks to be polled every 250 ms: each poll is progress, which restarts the call's
   * timeout. The total is half again the timeout: a call still running then has outlived its 2 s timeout only
   * because the polls restarted it (a longer total waits the same out for longer and proves nothing more).
   */
  const endless = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'endlessTaskServer.mjs')], timeout: 2_000, maxTotalTimeout: 3_000 };

  it('ends at the maximum total time like any call, and the server is sent tasks/cancel', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { endless }));
    const polls: string[] = [];
    const error = await host.tools.call(caller('conv-e'), 'mcp_endless_forever', {}, { onProgress: (p) => polls.push(p.message ?? '') }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('CALL_TIMEOUT');
    expect((error as McpRuntimeError).message).toContain('maximum total time of 3000 ms');
    // It was created and polled (each poll restarting the 2 s timeout) until the total ended it.
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((message) => message === 'task working')).toBe(true);
    expect(await stderrLine(host, 'chatos::endless', 'task cancelled:')).toMatch(/^task cancelled: \S+/);
  });
});
