import { describe, expect, it } from 'vitest';
import type { ToolMessage } from '../../../src/shared/chat.js';
import { startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';

/** The gateway's lease reminder ("call mcp_release") is for the model: stored apart, so faces and exports leave it out. */

describe('the lease reminder of a first call', () => {
  it('reaches the model but is stored as a reminder item, left out of the summary and the export', async () => {
    const { host, provider } = await startChatWorld();
    // A first conversation lists the server's tools; the second starts its own instance at its first call, which reminds.
    provider.enqueue({ kind: 'reply', text: 'hello' });
    await host.chat.send({ agentId: 'helper', text: 'hi' }).done;
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'e1', name: 'mcp_chat_echo', arguments: { text: 'hi' } }] }, { kind: 'reply', text: 'done' });
    const events: string[] = [];
    host.chat.onEvent((event) => event.type === 'toolCall' && event.call.phase === 'finished' && events.push(event.call.summary ?? ''));
    const turn = host.chat.send({ agentId: 'helper', text: 'echo' });
    const outcome = await turn.done;
    const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(result.content).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'reminder', text: expect.stringContaining('mcp_release') },
    ]);
    expect(toolResultsIn(provider.requests[2]!.body)[0]![1]).toContain('call mcp_release({"serverId":"chatos::chat"})');
    expect(events).toEqual(['hi']);
    expect(host.chat.export(turn.conversationId, 'md').text).not.toContain('mcp_release');
  });
});
