import { describe, expect, it } from 'vitest';
import { answerStats } from '../../../src/core/chat/answerStats.js';
import type { ModelClient } from '../../../src/core/chat/providers/modelClient.js';
import type { StreamEvent } from '../../../src/core/chat/providers/streamEvent.js';
import { collect, newStreamed } from '../../../src/core/chat/streamedAnswer.js';

/**
 * An answer's numbers from when its pieces arrived: a model that thinks
 * first has its first token when it starts thinking; tokens per second are
 * counted over the time pieces were arriving, not the wait for the usage
 * after them; a burst (a call sent whole) has no rate to tell.
 */

/** A model client that yields scripted events, each at a given clock time (the clock is the test's). */
class TestModelClient implements ModelClient {
  readonly apiKind = 'openai' as const;
  readonly model = 'scripted';
  constructor(
    private readonly script: [number, StreamEvent][],
    private readonly clock: { now: number },
  ) {}

  async *stream(): AsyncIterable<StreamEvent> {
    for (const [at, event] of this.script) {
      this.clock.now = at;
      yield event;
    }
  }
}

async function numbers(script: [number, StreamEvent][], endAt: number) {
  const clock = { now: 0 };
  const streamed = newStreamed('m1', 0);
  await collect(new TestModelClient([...script, [endAt, { type: 'done', finishReason: 'stop' }]], clock), { messages: [] }, streamed, {
    signal: new AbortController().signal,
    idleTimeoutMs: 1000,
    now: () => clock.now,
  });
  return { streamed, stats: answerStats({ ...streamed, toolsSent: 0, attempts: 1 }, undefined) };
}

describe('the numbers of an answer', () => {
  it('a thinking model: first token at its first thought, thinking timed until the answer, tokens/s over the pieces, reasoning tokens apart', async () => {
    const { streamed, stats } = await numbers(
      [
        [400, { type: 'reasoning-delta', text: 'hmm', source: 'reasoning_content' }],
        [2400, { type: 'reasoning-delta', text: ' so', source: 'reasoning_content' }],
        [2900, { type: 'text-delta', text: 'Yes' }],
        [4400, { type: 'text-delta', text: '.' }],
        [9000, { type: 'usage', inputTokens: 10, outputTokens: 400, reasoningTokens: 300 }],
      ],
      9500,
    );
    expect(stats).toMatchObject({ ttftMs: 400, durationMs: 9500, tokensPerSecond: 100, outputTokens: 400, reasoningTokens: 300 });
    expect(streamed.reasoning).toMatchObject({ text: 'hmm so', startedMs: 400, endedMs: 2900 });
  });

  it('a tool call sent whole, in one burst: no tokens/s rather than tens of thousands', async () => {
    const { stats } = await numbers(
      [
        [800, { type: 'tool-input-delta' }],
        [801, { type: 'tool-call', id: 'c', name: 't', argumentsText: '{}', args: {} }],
        [805, { type: 'usage', inputTokens: 10, outputTokens: 86 }],
      ],
      806,
    );
    expect(stats.ttftMs).toBe(800);
    expect(stats).not.toHaveProperty('tokensPerSecond');
  });
});
