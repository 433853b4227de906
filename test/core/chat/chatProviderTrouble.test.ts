import { describe, expect, it } from 'vitest';
import { CONTINUE_TEXT } from '../../../src/core/chat/history.js';
import { MAX_REASONING_CHARS } from '../../../src/core/chat/streamedAnswer.js';
import { type AssistantMessage, type ToolMessage } from '../../../src/shared/chat.js';
import { advanceOnRetry, fileIsWhole, startChatWorld } from '../../helpers/chatWorld.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * What goes wrong with real providers, replayed: errors by their meaning
 * (only transient ones retried, each saying what to do), a refusal, an
 * answer cut at the token limit and continued, and bad input — each ends
 * with a clear word and leaves the conversation file whole.
 */

const answers = (messages: readonly { role: string }[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant');

/** A chat-completions chunk as OpenAI-compatible servers send it. */
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';

describe('provider errors by their meaning', { timeout: 120_000 }, () => {
  for (const [name, code, hint] of [
    ['openai-insufficient-quota-429', 'PROVIDER_QUOTA', /billing/],
    ['deepseek-insufficient-balance-402', 'PROVIDER_QUOTA', /billing/],
    ['openai-insufficient-quota-in-stream', 'PROVIDER_QUOTA', /waiting does not help/],
    ['azure-content-filter-400', 'PROVIDER_CONTENT_FILTERED', /rephrase/],
    ['openai-context-length-exceeded', 'PROVIDER_CONTEXT_TOO_LONG', /summarize/i],
  ] as const) {
    it(`${name}: stops at once (one request, no retry) with ${code} and what to do`, async () => {
      const { host, provider } = await startChatWorld();
      provider.enqueue({ kind: 'fixture', name }, { kind: 'reply', text: 'never sent' });
      const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
      expect(provider.requests).toHaveLength(1);
      expect(outcome.stop).toMatchObject({ kind: 'error', code });
      expect(outcome.stop!.hint).toMatch(hint);
    });
  }

  it('a rate limit waits what Retry-After says, then goes on', async () => {
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ host: { scheduler } });
    provider.enqueue({ kind: 'fixture', name: 'openai-rate-limited-retry-after' }, { kind: 'reply', text: 'after the wait' });
    const delays = advanceOnRetry(host, scheduler);
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(delays).toEqual([2000]);
    expect(answers(outcome.messages)[0]!.text).toBe('after the wait');
  });

  it('Anthropic overloaded (529) is retried, bounded', async () => {
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ api: 'anthropic', host: { scheduler, chat: { retry: { maxAttempts: 2 } } } });
    provider.enqueue({ kind: 'fixture', name: 'anthropic-overloaded-529' }, { kind: 'fixture', name: 'anthropic-overloaded-in-stream' }, { kind: 'fixture', name: 'anthropic-answer' });
    advanceOnRetry(host, scheduler);
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(provider.requests).toHaveLength(2);
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(outcome.stop!.message).toMatch(/failed 2 times \(server\): Overloaded/);
  });

  it('context too long: Summarize and retry summarizes the older turns, then sends the request again', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: 'first answer' }, { kind: 'reply', text: 'second answer' }, { kind: 'fixture', name: 'anthropic-prompt-too-long' });
    const turn = host.chat.send({ agentId: 'helper', text: 'first question' });
    await turn.done;
    await host.chat.send({ conversationId: turn.conversationId, text: 'second question' }).done;
    const stopped = await host.chat.send({ conversationId: turn.conversationId, text: 'third question' }).done;
    expect(stopped.stop).toMatchObject({ code: 'PROVIDER_CONTEXT_TOO_LONG' });
    provider.enqueue({ kind: 'reply', text: 'Notes: two questions were asked and answered.' }, { kind: 'reply', text: 'third answer' });
    const resumed = await host.chat.resume(turn.conversationId, { summarize: true }).done;
    expect(resumed.status, JSON.stringify(resumed.stop)).toBe('done');
    const [summaryRequest, retried] = provider.requests.slice(-2);
    expect(summaryRequest!.body.messages[1].content).toContain('first question');
    expect(retried!.body.messages[0].content).toContain('Notes: two questions were asked and answered.');
    expect(retried!.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content)).toEqual(['third question']);
  });
});

describe('a refusal, a cut answer', { timeout: 120_000 }, () => {
  it('an OpenAI refusal is stored as a refusal, not as an empty answer', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'openai-chat-refusal' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'something bad' }).done;
    expect(outcome.status).toBe('done');
    expect(answers(outcome.messages)[0]).toMatchObject({ text: '', finish: 'refusal', refusal: "I'm sorry, but I can't help with that.", status: 'complete' });
  });

  it("an Anthropic refusal without content carries the provider's explanation", async () => {
    const { host, provider } = await startChatWorld({ api: 'anthropic' });
    provider.enqueue({ kind: 'fixture', name: 'anthropic-refusal' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'something bad' }).done;
    expect(answers(outcome.messages)[0]).toMatchObject({ finish: 'refusal', refusal: expect.stringContaining("blocked under Anthropic's Usage Policy") });
  });

  it('an answer cut at the token limit is marked cut; Continue asks the model to go on from there, after it', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'openai-chat-length' }, { kind: 'reply', text: ' 180 °C.' });
    const turn = host.chat.send({ agentId: 'helper', text: 'how do I bake?' });
    const cut = answers((await turn.done).messages)[0]!;
    expect(cut).toMatchObject({ finish: 'length', status: 'complete', text: 'Here are the first steps:\n\n1. Preheat the oven to' });
    expect(() => host.chat.resume(turn.conversationId)).toThrow(expect.objectContaining({ code: 'NOTHING_TO_RESUME', hint: expect.stringContaining('continue it') }));
    const continued = await host.chat.continue(turn.conversationId).done;
    const body = provider.requests[1]!.body;
    expect(body.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Here are the first steps:\n\n1. Preheat the oven to' },
      { role: 'user', content: CONTINUE_TEXT },
    ]);
    expect(answers(continued.messages)[0]).toMatchObject({ parentId: cut.id, text: ' 180 °C.', finish: 'stop' });
    expect(() => host.chat.continue(turn.conversationId)).toThrow(/was not cut/);
  });

  it('a call cut by the token limit is not run; the answer says so', async () => {
    const { host, provider, home } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'vllm-length-mid-call' });
    const turn = host.chat.send({ agentId: 'helper', text: 'write it' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');
    expect(outcome.messages.filter((m) => m.role === 'tool')).toEqual([]);
    expect(answers(outcome.messages)[0]).toMatchObject({
      finish: 'length',
      toolCalls: [],
      reasoning: { text: 'I will write the file.' },
      notices: ['the call to mcp_chat_echo was cut at the token limit before its arguments were complete; it was not run'],
    });
    expect(fileIsWhole(home, turn.conversationId)).toBe(2);
  });
});

describe('bad input from a provider', { timeout: 120_000 }, () => {
  it('a stream that ends mid-call: a clear stop, no call run, what was said kept', async () => {
    const { host, provider, home } = await startChatWorld({ host: { chat: { retry: { maxAttempts: 1 } } } });
    provider.enqueue({
      kind: 'raw',
      pieces: [
        chunk({ role: 'assistant', content: 'Writing.' }),
        chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'mcp_chat_echo', arguments: '{"text": "unfini' } }] }),
      ],
    });
    const turn = host.chat.send({ agentId: 'helper', text: 'x' });
    const outcome = await turn.done;
    expect(outcome.stop).toMatchObject({ kind: 'error', code: 'PROVIDER_UNAVAILABLE' });
    expect(outcome.stop!.message).toMatch(/stream ended before the model finished/);
    expect(answers(outcome.messages)[0]).toMatchObject({ text: 'Writing.', status: 'stopped', toolCalls: [] });
    expect(outcome.messages.some((m) => m.role === 'tool')).toBe(false);
    expect(fileIsWhole(home, turn.conversationId)).toBe(2);
  });

  it('a call with invalid JSON arguments is told to the model as an error result, and the turn goes on', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue(
      { kind: 'raw', pieces: [chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'mcp_chat_echo', arguments: "{text: 'not json'}" } }] }), chunk({}, 'tool_calls'), DONE] },
      { kind: 'reply', text: 'sorry' },
    );
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    const result = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(result).toMatchObject({ status: 'error', isError: true });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('the arguments of mcp_chat_echo are not valid JSON') });
    expect(answers(outcome.messages)[0]!.toolCalls[0]!.argumentsText).toBe("{text: 'not json'}");
    expect(answers(outcome.messages)[1]!.text).toBe('sorry');
  });

  it('a <think> block that never closes: all it said kept as thinking, and a notice', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'raw', pieces: [chunk({ content: '<think>I keep' }), chunk({ content: ' thinking' }), chunk({}, 'stop'), DONE] });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(answers(outcome.messages)[0]).toMatchObject({ text: '', reasoning: { text: 'I keep thinking', source: 'think-tags' }, notices: [expect.stringContaining('never closed it')] });
  });

  it('ten megabytes of reasoning: the first million characters kept and the cut noticed, the answer intact, the file readable', async () => {
    const { host, provider, home } = await startChatWorld();
    const piece = 'ponder '.repeat(2340);
    const pieces = [chunk({ role: 'assistant', content: null, reasoning_content: '' })];
    for (let sent = 0; sent < 10 * 1024 * 1024; sent += piece.length) pieces.push(chunk({ reasoning_content: piece }));
    pieces.push(chunk({ content: 'Done thinking.' }), chunk({}, 'stop'), DONE);
    provider.enqueue({ kind: 'raw', pieces });
    let streamedReasoning = 0;
    host.chat.onEvent((event) => void (event.type === 'reasoning' && (streamedReasoning += event.text.length)));
    const turn = host.chat.send({ agentId: 'helper', text: 'think hard' });
    const answer = answers((await turn.done).messages)[0]!;
    expect(answer.text).toBe('Done thinking.');
    expect(answer.reasoning!.text).toHaveLength(MAX_REASONING_CHARS);
    expect(answer.reasoning!.truncated).toBe(true);
    expect(answer.notices).toEqual([expect.stringMatching(/thinking was longer than 1,000,000 characters/)]);
    expect(streamedReasoning).toBe(MAX_REASONING_CHARS);
    expect(fileIsWhole(home, turn.conversationId)).toBe(2);
    expect(host.chat.get(turn.conversationId).messages).toHaveLength(2);
  });

  it('an unknown content part is kept in the file and noticed, never shown as [object Object]', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({
      kind: 'raw',
      pieces: [
        chunk({
          content: [
            { type: 'reference', reference_ids: [3, 7] },
            { type: 'text', text: 'See the sources.' },
          ],
        }),
        chunk({}, 'stop'),
        DONE,
      ],
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(answers(outcome.messages)[0]).toMatchObject({ text: 'See the sources.', otherParts: [{ type: 'reference', reference_ids: [3, 7] }], notices: [expect.stringContaining('"reference"')] });
  });

  it('a provider that changes a call id mid-stream: the call runs once under its first id, and a notice says so', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue(
      {
        kind: 'raw',
        pieces: [
          chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'mcp_chat_echo', arguments: '{"text":' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'call_b', function: { arguments: '"once"}' } }] }),
          chunk({}, 'tool_calls'),
          DONE,
        ],
      },
      { kind: 'reply', text: 'done' },
    );
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(outcome.messages.filter((m): m is ToolMessage => m.role === 'tool').map((m) => [m.callId, m.content[0]])).toEqual([['call_a', { type: 'text', text: 'once' }]]);
    expect(answers(outcome.messages)[0]!.notices).toEqual([expect.stringContaining('changed the id of the call to mcp_chat_echo mid-stream')]);
  });
});
