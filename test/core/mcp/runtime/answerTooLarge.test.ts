import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolMessage } from '../../../../src/shared/chat.js';
import { McpRuntimeError } from '../../../../src/core/mcp/mcpRuntimeError.js';
import { startChatWorld, toolResultsIn } from '../../../helpers/chatWorld.js';
import { caller, pidOf, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { repoRoot } from '../../../helpers/tempDir.js';

/** docs/using/mcp-servers.md#an-answer-too-large-for-stdio: a 6 MB JSON-RPC line is reported as what it is, and the instance goes on. */

const RESULT_SIZE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'resultSizeServer.mjs');
const entry = { transport: 'stdio', command: process.execPath, args: [RESULT_SIZE_SERVER] };

describe('an answer over the stdio limit of one message', () => {
  it('fails its call with its size and the limit; the same instance answers the next call', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { big: entry }));
    const who = caller('conv-big');
    const pid = pidOf((await host.tools.call(who, 'mcp_big_pid', {})).result);

    const error = await host.tools.call(who, 'mcp_big_huge', { mb: 6 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpRuntimeError);
    expect((error as McpRuntimeError).code).toBe('ANSWER_TOO_LARGE');
    expect((error as Error).message).toBe(
      'call to huge on "chatos::big" failed: the server\'s answer was 6 MB, over the 4 MB limit of one message over stdio; it was dropped and the server is still connected',
    );

    // Not a crash: the conversation's instance is the one it was, and it answers.
    expect(textOf((await host.tools.call(who, 'mcp_big_echo', { text: 'still here' })).result)).toBe('still here');
    expect(pidOf((await host.tools.call(who, 'mcp_big_pid', {})).result)).toBe(pid);
    const lease = host.mcp.servers.snapshots()[0]!.leases.find((l) => l.conversationId === 'conv-big')!;
    expect(lease.state.kind).toBe('running');
  });

  it('in a chat, the model and the tool card read what happened, and the next call in the conversation works', async () => {
    const { host, provider } = await startChatWorld({ servers: { big: entry } });
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'h1', name: 'mcp_big_huge', arguments: { mb: 6 } }] },
      { kind: 'reply', toolCalls: [{ id: 'e1', name: 'mcp_big_echo', arguments: { text: 'smaller' } }] },
      { kind: 'reply', text: 'done' },
    );
    const outcome = await host.chat.send({ agentId: 'helper', text: 'fetch it all' }).done;
    const results = outcome.messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(results.map((m) => m.status)).toEqual(['error', 'ok']);
    expect(toolResultsIn(provider.requests[1]!.body)[0]![1]).toContain("the server's answer was 6 MB, over the 4 MB limit of one message over stdio");
    expect(toolResultsIn(provider.requests[1]!.body)[0]![1]).not.toContain('stopped unexpectedly');
    expect(toolResultsIn(provider.requests[2]!.body).at(-1)).toEqual(['e1', 'smaller']);
  });
});
