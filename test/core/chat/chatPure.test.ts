import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addToTotals, answerStats } from '../../../src/core/chat/answerStats.js';
import { planCompaction, summaryRequestText } from '../../../src/core/chat/contextWindow.js';
import { historyOf } from '../../../src/core/chat/history.js';
import { DEFAULT_RETRY_POLICY, retryDecision } from '../../../src/core/chat/retryPolicy.js';
import { subAgentToolName } from '../../../src/core/chat/subAgents.js';
import type { ConversationMessage } from '../../../src/shared/chat.js';
import { ProviderErrorKindSchema } from '../../../src/shared/models.js';

const stats = { durationMs: 1, toolsSent: 0, attempts: 1 };
const user = (id: string, text: string, parentId: string | null = null): ConversationMessage => ({ id, parentId, at: 0, role: 'user', text });
const answer = (id: string, text: string, toolCalls: { id: string; name: string; argumentsText: string }[] = []): ConversationMessage => ({
  id,
  parentId: null,
  at: 0,
  role: 'assistant',
  agentId: 'a',
  modelId: 'm',
  text,
  toolCalls,
  status: 'complete',
  stats,
});
const tool = (id: string, callId: string, text: string): ConversationMessage => ({
  id,
  parentId: null,
  at: 0,
  role: 'tool',
  callId,
  name: 't',
  content: [{ type: 'text', text }],
  isError: false,
  status: 'ok',
  durationMs: 1,
});

describe('the retry decision', () => {
  it('never retries a rejection, auth, not-found or abort; retries transient failures within the tries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ProviderErrorKindSchema.options),
        fc.integer({ min: 1, max: 10 }),
        fc.option(fc.integer({ min: 0, max: 600_000 }), { nil: undefined }),
        (kind, attempts, retryAfterMs) => {
          const decision = retryDecision({ kind, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }, attempts, DEFAULT_RETRY_POLICY);
          const transient = kind === 'network' || kind === 'server' || kind === 'rate-limited';
          if (!transient || attempts >= DEFAULT_RETRY_POLICY.maxAttempts) return !decision.retry;
          if (!decision.retry) return retryAfterMs !== undefined && retryAfterMs > DEFAULT_RETRY_POLICY.maxRetryAfterMs;
          return decision.delayMs <= Math.max(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs) && (retryAfterMs === undefined || decision.delayMs === retryAfterMs);
        },
      ),
    );
  });

  it('doubles the wait, up to its cap, and honours Retry-After as given', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 10 };
    expect([1, 2, 3, 6, 7].map((n) => retryDecision({ kind: 'server' }, n, policy))).toEqual([1000, 2000, 4000, 30_000, 30_000].map((delayMs) => ({ retry: true, delayMs })));
    expect(retryDecision({ kind: 'rate-limited', retryAfterMs: 250 }, 1, policy)).toEqual({ retry: true, delayMs: 250 });
    expect(retryDecision({ kind: 'rate-limited', retryAfterMs: 3_600_000 }, 1, policy)).toEqual({ retry: false, why: 'wait-too-long' });
  });
});

describe('answer numbers', () => {
  it('time to first token, tokens per second after it, and cost from the prices per million tokens', () => {
    const s = answerStats({ startedMs: 100, firstTokenMs: 300, lastTokenMs: 1300, endedMs: 1400, usage: { inputTokens: 1000, outputTokens: 50 }, toolsSent: 4, attempts: 1 }, { input: 3, output: 15 });
    expect(s).toEqual({ ttftMs: 200, durationMs: 1300, tokensPerSecond: 50, inputTokens: 1000, outputTokens: 50, cost: 0.00375, toolsSent: 4, attempts: 1 });
    expect(addToTotals({ answers: 1, inputTokens: 1, outputTokens: 1, cost: 0 }, s)).toEqual({ answers: 2, inputTokens: 1001, outputTokens: 51, cost: 0.00375 });
    expect(answerStats({ startedMs: 0, endedMs: 5, toolsSent: 0, attempts: 2 }, undefined)).toEqual({ durationMs: 5, toolsSent: 0, attempts: 2 });
  });
});

describe('the history sent', () => {
  it('gives a call whose result was never written (the host stopped mid-call) a result saying so', () => {
    const history = historyOf(
      [
        user('u', 'hi'),
        answer('a', '', [
          { id: 'c1', name: 't', argumentsText: '{}' },
          { id: 'c2', name: 't', argumentsText: '{}' },
        ]),
        tool('t2', 'c2', 'two'),
      ],
      { vision: false, readImage: () => undefined, readText: () => undefined },
    );
    expect(history.messages.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? [m.callId, m.isError] : []))).toEqual([
      ['c1', true],
      ['c2', false],
    ]);
  });
});

describe('context window', () => {
  const long = (n: number) => 'x'.repeat(n);
  it('summarizes older turns only past the threshold, cutting before a user message and leaving tool traffic out', () => {
    const path = [
      user('u1', long(400)),
      answer('a1', 'first answer', [{ id: 'c', name: 'tool', argumentsText: '{"q":1}' }]),
      tool('t1', 'c', 'TOOL OUTPUT'),
      answer('a1b', long(400)),
      user('u2', long(400)),
      answer('a2', long(400)),
      user('u3', 'latest question'),
    ];
    expect(planCompaction(path, 100, 100_000)).toBeUndefined();
    const plan = planCompaction(path, 100, 600)!;
    expect(plan.throughId).toBe('a2');
    expect(plan.transcript.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant', 'user', 'assistant']);
    const request = summaryRequestText(plan);
    expect(request).toContain('first answer');
    expect(request).not.toContain('TOOL OUTPUT');
    expect(request).not.toContain('"q":1');
  });

  it('never summarizes the newest user message, however long', () => {
    expect(planCompaction([user('u1', long(10_000))], 0, 100)).toBeUndefined();
  });

  it('a summary replaces what it covers, and the next summary builds on it', () => {
    const path: ConversationMessage[] = [
      user('u1', long(400)),
      answer('a1', long(400)),
      { id: 's', parentId: null, at: 0, role: 'summary', text: 'EARLIER', throughId: 'a1', summarized: 2 },
      user('u2', long(400)),
      answer('a2', long(400)),
      user('u3', 'now'),
    ];
    const history = historyOf(path, { vision: false, readImage: () => undefined, readText: () => undefined });
    expect(history.summary?.text).toBe('EARLIER');
    expect(history.messages).toHaveLength(3);
    const plan = planCompaction(path, 0, 200)!;
    expect(plan).toMatchObject({ throughId: 'a2', previousSummary: 'EARLIER', summarized: 4 });
  });
});

describe('sub-agent tool names', () => {
  it('are valid tool names for any agent id', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/), (id) => /^[a-zA-Z0-9_-]{1,64}$/.test(subAgentToolName(id))));
  });
});
