import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../../src/shared/chat.js';
import { API_KINDS } from '../../../src/shared/models.js';
import { startChatWorld } from '../../helpers/chatWorld.js';
import { endlessChatAnswer } from '../../helpers/providerWire/openaiChatWire.js';

/**
 * Issue 25 item 7: a model's answer is bounded (chat.maxAnswerChars). A
 * provider that streams on and on is stopped at the limit; the answer is
 * kept up to it and marked cut, with a problem saying what to do.
 */

const MiB = 1024 * 1024;
const PIECE = 'All work and no play makes a dull answer. '.repeat(1600);

const assistantIn = (messages: readonly { role: string }[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant');

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).reduce((sum, entry) => (entry.isFile() ? sum + fs.statSync(path.join(entry.parentPath, entry.name)).size : sum), 0);
}

describe('the answer limit', { timeout: 120_000 }, () => {
  it('stops a 200 MiB answer at 1 MiB: the text is kept up to the limit, marked cut, and the stream is not read on', async () => {
    const { host, provider, home } = await startChatWorld();
    const made = { chars: 0 };
    provider.enqueue({ kind: 'frames', frames: endlessChatAnswer(200 * MiB, { piece: PIECE, made }) });
    const turn = host.chat.send({ agentId: 'helper', text: 'write forever' });
    const outcome = await turn.done;

    expect(outcome.status).toBe('stopped');
    expect(outcome.stop).toMatchObject({ kind: 'answer-limit', code: 'ANSWER_TOO_LONG', modelId: 'local' });
    expect(outcome.stop!.message).toContain('1048576 characters');
    expect(outcome.stop!.hint).toContain('chat.maxAnswerChars');
    const [answer] = assistantIn(outcome.messages);
    expect(answer!.status).toBe('stopped');
    expect(answer!.text.length).toBe(MiB);
    expect(answer!.text).toBe(PIECE.repeat(Math.ceil(MiB / PIECE.length)).slice(0, MiB));

    // The client went away at the limit: the provider made a few MiB (what the sockets held), not 200.
    await provider.requests[0]!.closed;
    expect(made.chars).toBeLessThan(16 * MiB);
    // The conversation's folder holds the kept answer once (a JSON line), nothing of the rest.
    const detail = host.chat.get(turn.conversationId);
    expect(detail.conversation.status).toMatchObject({ kind: 'stopped', stop: { kind: 'answer-limit' } });
    expect(assistantIn(detail.messages)[0]!.text.length).toBe(MiB);
    expect(bytesUnder(path.join(home, 'chatos', 'conversations', turn.conversationId))).toBeLessThan(MiB + 64 * 1024);
  });

  it('counts tool-call arguments too: an endless call is stopped, never run, and the text before it is kept', async () => {
    const { host, provider } = await startChatWorld();
    const made = { chars: 0 };
    provider.enqueue({ kind: 'frames', frames: endlessChatAnswer(200 * MiB, { piece: PIECE, made, into: 'arguments' }) }, { kind: 'reply', text: 'never asked for' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'call with everything' }).done;

    expect(outcome.stop).toMatchObject({ kind: 'answer-limit', code: 'ANSWER_TOO_LONG' });
    const [answer] = assistantIn(outcome.messages);
    expect(answer).toMatchObject({ text: 'Writing.', status: 'stopped', toolCalls: [] });
    expect(outcome.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    await provider.requests[0]!.closed;
    expect(made.chars).toBeLessThan(16 * MiB);
    expect(provider.requests).toHaveLength(1);
  });

  for (const api of API_KINDS) {
    it(`cuts the text at the configured limit, keeps an answer of exactly the limit whole, and stops past it in arguments (${api})`, async () => {
      const { host, provider } = await startChatWorld({ api, host: { chat: { maxAnswerChars: 2000 } } });
      const long = Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ');
      const exact = 'x'.repeat(1999) + '.';
      provider.enqueue(
        { kind: 'reply', text: long.match(/.{1,100}/gs)! },
        { kind: 'reply', text: exact.match(/.{1,100}/gs)! },
        { kind: 'reply', text: 'Calling.', toolCalls: [{ id: 'c1', name: 'mcp_chat_echo', arguments: { text: 'y'.repeat(3000) } }] },
      );
      const cut = await host.chat.send({ agentId: 'helper', text: 'long' }).done;
      expect(cut.stop).toMatchObject({ kind: 'answer-limit', code: 'ANSWER_TOO_LONG' });
      expect(assistantIn(cut.messages)[0]!.text).toBe(long.slice(0, 2000));

      const whole = await host.chat.send({ conversationId: cut.conversationId, text: 'exactly' }).done;
      expect(whole.status, JSON.stringify(whole.stop)).toBe('done');
      expect(assistantIn(whole.messages)[0]).toMatchObject({ text: exact, status: 'complete' });

      const call = await host.chat.send({ conversationId: cut.conversationId, text: 'call' }).done;
      expect(call.stop).toMatchObject({ kind: 'answer-limit' });
      expect(call.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(assistantIn(call.messages)[0]).toMatchObject({ text: 'Calling.', toolCalls: [] });
      expect(provider.requests).toHaveLength(3);
    });
  }

  it('does not count reasoning: a thought three times the limit is kept, and the short answer after it is whole', async () => {
    const { host, provider } = await startChatWorld({ host: { chat: { maxAnswerChars: 2000 } } });
    // DeepSeek's thinking mode streams reasoning_content deltas before the content (test/fixtures/providerStreams/deepseek-thinking-answer.http).
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'r1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-reasoner', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const thought = Array.from({ length: 60 }, (_, i) => `step ${i}: ${'think '.repeat(16)}`);
    provider.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      pieces: [
        chunk({ role: 'assistant', content: null, reasoning_content: '' }),
        ...thought.map((text) => chunk({ reasoning_content: text })),
        chunk({ content: 'Short answer.' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'think hard' }).done;
    expect(thought.join('').length).toBeGreaterThan(3 * 2000);
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const [answer] = assistantIn(outcome.messages);
    expect(answer).toMatchObject({ text: 'Short answer.', status: 'complete' });
    expect(answer!.reasoning!.text).toBe(thought.join(''));
  });

  it('never cuts between the halves of a surrogate pair', async () => {
    const { host, provider } = await startChatWorld({ host: { chat: { maxAnswerChars: 2001 } } });
    provider.enqueue({ kind: 'reply', text: ['😀'.repeat(1500)] });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'smile' }).done;
    expect(outcome.stop).toMatchObject({ kind: 'answer-limit' });
    expect(assistantIn(outcome.messages)[0]!.text).toBe('😀'.repeat(1000));
  });
});
