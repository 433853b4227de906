import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../src/shared/chat.js';
import { startChatWorld } from '../helpers/chatWorld.js';
import { chatChunk } from '../helpers/providerWire/openaiChatWire.js';

/**
 * A hostile provider's depth bomb: JSON nested 100,000 deep parses (V8's
 * JSON.parse does not recurse), but anything that walks it recursively
 * (JSON.stringify, a structured clone, a deep copy) overflows the stack.
 * A content part of a type ChatOS does not show, nested that deep, must
 * not break the turn or the conversation file: the answer's text is kept.
 */

const DEPTH = 100_000;
/** A chat chunk whose one content part nests DEPTH arrays, written as text (the provider server's JSON.stringify would overflow too). */
const bombChunk = (delta: object = { content: [{ type: 'bomb', nested: 'NESTED' }] }) => {
  const chunk = JSON.stringify(chatChunk(delta).data);
  return chunk.replace('"NESTED"', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
};

describe('a depth bomb in a provider stream', { timeout: 120_000 }, () => {
  it('an unknown content part nested 100,000 deep is not kept as it is, and the answer is', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({
      kind: 'frames',
      frames: [chatChunk({ role: 'assistant', content: '' }), { data: bombChunk() }, chatChunk({ content: 'Still here.' }), chatChunk({}, 'stop'), { data: '[DONE]' }],
    });
    const turn = host.chat.send({ agentId: 'helper', text: 'hi' });
    const outcome = await turn.done;
    const answer = outcome.messages.find((m): m is AssistantMessage => m.role === 'assistant');
    expect(outcome.status, JSON.stringify(outcome.stop ?? null).slice(0, 400)).toBe('done');
    expect(answer?.text).toBe('Still here.');
    // The conversation reads back.
    expect(host.chat.get(turn.conversationId).messages.some((m) => m.role === 'assistant' && (m as AssistantMessage).text === 'Still here.')).toBe(true);
  });

  it('a reasoning detail nested 100,000 deep is not kept to send back, and the answer is', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({
      kind: 'frames',
      frames: [
        chatChunk({ role: 'assistant', content: '' }),
        { data: bombChunk({ reasoning_details: [{ type: 'reasoning.encrypted', index: 0, data: 'NESTED' }] }) },
        chatChunk({ content: 'Still here.' }),
        chatChunk({}, 'stop'),
        { data: '[DONE]' },
      ],
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'hi' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop ?? null).slice(0, 400)).toBe('done');
    expect(outcome.messages.find((m): m is AssistantMessage => m.role === 'assistant')?.text).toBe('Still here.');
  });
});
