import { describe, expect, it } from 'vitest';
import { createModelClient } from '../../../../src/core/chat/providers/modelClient.js';
import { userText } from '../../../../src/core/chat/providers/modelRequest.js';
import { ProviderError } from '../../../../src/core/chat/providers/providerError.js';
import type { StreamEvent } from '../../../../src/core/chat/providers/streamEvent.js';
import type { ApiKind } from '../../../../src/shared/models.js';
import { startProviderServer } from '../../../helpers/providerServer.js';

/**
 * Each recorded provider stream (test/fixtures/providerStreams) replayed
 * byte for byte over real HTTP to the real SDK clients: what the client
 * makes of it, in vendor-neutral events.
 */

async function replay(name: string, api: ApiKind = 'openai'): Promise<StreamEvent[]> {
  const provider = await startProviderServer();
  provider.enqueue({ kind: 'fixture', name });
  const client = createModelClient({ id: 'm', name: 'M', api, baseUrl: api === 'anthropic' ? provider.url : provider.openaiUrl, model: 'recorded', vision: false, key: { kind: 'none' } }, undefined);
  const events: StreamEvent[] = [];
  for await (const event of client.stream({ messages: [userText('hi')], tools: [{ name: 'mcp_chat_echo', description: 'Echoes', inputSchema: { type: 'object' } }] })) events.push(event);
  return events;
}

async function failure(name: string, api: ApiKind = 'openai'): Promise<ProviderError> {
  try {
    await replay(name, api);
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error(`${name} did not fail`);
}

const of = <T extends StreamEvent['type']>(events: StreamEvent[], type: T) => events.filter((e): e is Extract<StreamEvent, { type: T }> => e.type === type);
const text = (events: StreamEvent[]) =>
  of(events, 'text-delta')
    .map((e) => e.text)
    .join('');
const reasoning = (events: StreamEvent[]) =>
  of(events, 'reasoning-delta')
    .map((e) => e.text)
    .join('');
const calls = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === 'tool-call' || e.type === 'tool-call-malformed' ? [{ type: e.type, id: e.id, name: e.name, argumentsText: e.argumentsText }] : []));
const done = (events: StreamEvent[]) => of(events, 'done')[0]?.finishReason;

describe('recorded chat-completions streams', { timeout: 60_000 }, () => {
  it('OpenAI: two parallel calls by index, usage after the last choice', async () => {
    const events = await replay('openai-chat-parallel-tools');
    expect(calls(events)).toEqual([
      { type: 'tool-call', id: 'call_Qf3kZ8mWv1rT6nYp2LcX9dHa', name: 'mcp_chat_echo', argumentsText: '{"text":"San Francisco"}' },
      { type: 'tool-call', id: 'call_7bNw2xKp4sMq9vRe1TzJ5uLg', name: 'mcp_chat_echo', argumentsText: '{"text":"Tokyo"}' },
    ]);
    expect(of(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 82, outputTokens: 51 }]);
    expect(done(events)).toBe('tool-calls');
  });

  it('Ollama 0.20: two whole calls both at index 0 stay two calls', async () => {
    const events = await replay('ollama-parallel-calls-index-0');
    expect(calls(events)).toEqual([
      { type: 'tool-call', id: 'call_u8bz4kd1', name: 'mcp_chat_echo', argumentsText: '{"text":"hello.py"}' },
      { type: 'tool-call', id: 'call_2lq7x0wm', name: 'mcp_chat_echo', argumentsText: '{"text":"world.py"}' },
    ]);
  });

  it('older Ollama: calls without an index, ending in "stop", are still calls', async () => {
    const events = await replay('ollama-calls-without-index');
    expect(calls(events).map((c) => c.argumentsText)).toEqual(['{"text":"Boston"}', '{"text":"Chicago"}']);
    expect(done(events)).toBe('tool-calls');
  });

  it('Gemini: a call without an index keeps its thought signature, and "stop" after a call means tool calls', async () => {
    const events = await replay('gemini-openai-tool-call');
    const [call] = of(events, 'tool-call');
    expect(call).toMatchObject({ id: 'call_297140', name: 'mcp_chat_echo', args: { text: '/app/skills/stage-design/SKILL.md' } });
    expect(call!.extraContent).toEqual({ google: { thought_signature: expect.stringMatching(/^CqYCAcu98PAb/) } });
    expect(done(events)).toBe('tool-calls');
    expect(of(events, 'usage')[0]).toMatchObject({ reasoningTokens: 90 });
  });

  it('DeepSeek thinking: reasoning_content apart from the call, its source kept for the way back', async () => {
    const events = await replay('deepseek-thinking-tool-call');
    expect(reasoning(events)).toBe('The user asks about the weather in San Francisco. I should use the echo tool.');
    expect(of(events, 'reasoning-delta')[0]).toEqual({ type: 'reasoning-delta', text: '', source: 'reasoning_content' });
    expect(text(events)).toBe('');
    expect(calls(events)).toEqual([{ type: 'tool-call', id: 'call_00_IhCAliIHtM9gKpgfqbBV9873', name: 'mcp_chat_echo', argumentsText: '{"text": "San Francisco"}' }]);
    expect(of(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 374, outputTokens: 61, reasoningTokens: 17 }]);
  });

  it('DashScope: pieces with "id": "" and an empty function continue the call', async () => {
    const events = await replay('qwen-dashscope-thinking-tool-call');
    expect(reasoning(events)).toBe('用户想知道北京的天气，我需要调用工具。');
    expect(calls(events)).toEqual([{ type: 'tool-call', id: 'call_deb0063d315441b18b50d8', name: 'mcp_chat_echo', argumentsText: '{"text": "北京"}' }]);
    expect(of(events, 'usage')[0]).toMatchObject({ inputTokens: 260, outputTokens: 39, reasoningTokens: 17 });
  });

  it('vLLM: reasoning in delta.reasoning, a call whose later pieces have "id": null, usage on every chunk', async () => {
    const events = await replay('vllm-reasoning-tool-call');
    expect(reasoning(events)).toBe("\nThe user wants the word echoed. I'll call the tool.\n");
    expect(of(events, 'reasoning-delta')[0]!.source).toBe('reasoning');
    expect(calls(events)).toEqual([{ type: 'tool-call', id: 'chatcmpl-tool-9f149c74c42f265b', name: 'mcp_chat_echo', argumentsText: '{"text": "vllm"}' }]);
    expect(of(events, 'usage')).toHaveLength(1);
  });

  it('vLLM cut by max_tokens mid-call: finish "length", the cut call malformed', async () => {
    const events = await replay('vllm-length-mid-call');
    expect(done(events)).toBe('length');
    expect(calls(events)).toEqual([{ type: 'tool-call-malformed', id: 'chatcmpl-tool-a0f2b9846aad1c45', name: 'mcp_chat_echo', argumentsText: '{"text": "a very long repetitive' }]);
  });

  it('Mistral Magistral: thinking parts become reasoning, text parts the answer (never [object Object])', async () => {
    const events = await replay('mistral-magistral-content-parts');
    expect(reasoning(events)).toBe('The user is asking for 2+2. This is basic arithmetic. 2+2=4.');
    expect(of(events, 'reasoning-delta')[0]!.source).toBe('thinking-part');
    expect(text(events)).toBe('2 + 2 = 4');
  });

  it('<think> at the start of content is split out, tags split over pieces and escaped as \\u003c', async () => {
    const events = await replay('ollama-deepseek-r1-think-tags');
    expect(reasoning(events)).toBe('\nOkay, the user says hello. I should greet back warmly.\n');
    expect(text(events)).toBe('Hello! How can I help you today?');
    expect(of(events, 'notice')).toEqual([]);
  });

  it('OpenAI refusal: the refusal text, finish "refusal"', async () => {
    const events = await replay('openai-chat-refusal');
    expect(
      of(events, 'refusal-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe("I'm sorry, but I can't help with that.");
    expect(text(events)).toBe('');
    expect(done(events)).toBe('refusal');
  });

  it('OpenAI cut at max tokens: finish "length", the text as far as it got', async () => {
    const events = await replay('openai-chat-length');
    expect(text(events)).toBe('Here are the first steps:\n\n1. Preheat the oven to');
    expect(done(events)).toBe('length');
  });
});

describe('recorded Responses streams', { timeout: 60_000 }, () => {
  it('a reasoning item: its summary streamed as reasoning, the item with encrypted_content kept for the way back, then the call', async () => {
    const events = await replay('openai-responses-reasoning-tool-call', 'openai-responses');
    expect(reasoning(events)).toBe(
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    );
    const [replayed] = of(events, 'reasoning-replay');
    expect(replayed!.item).toMatchObject({ type: 'reasoning', id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9', encrypted_content: expect.stringMatching(/^gAAAAABpPDIVOKrs/) });
    expect(calls(events)).toEqual([{ type: 'tool-call', id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'mcp_chat_echo', argumentsText: '{"text":"12 + 7"}' }]);
    expect(of(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 120, outputTokens: 96, reasoningTokens: 64 }]);
  });

  it('Copilot: ids that change with every event do not split the answer', async () => {
    const events = await replay('copilot-responses-id-rotation', 'openai-responses');
    expect(reasoning(events)).toBe('**Counting character occurrences**');
    expect(text(events)).toBe('There are **3** letter **“r”**s in **“strawberry.”**');
    // Without encrypted_content the item cannot go back (store: false): it is kept, not sent.
    expect(of(events, 'reasoning-replay')[0]!.item).not.toHaveProperty('encrypted_content');
    expect(done(events)).toBe('stop');
  });

  it('a billing error inside a 200 stream is a quota failure', async () => {
    expect((await failure('openai-responses-insufficient-quota', 'openai-responses')).kind).toBe('quota');
  });
});

describe('recorded Anthropic streams', { timeout: 60_000 }, () => {
  it('thinking with its signature, then text and a tool call', async () => {
    const events = await replay('anthropic-thinking-tool-use', 'anthropic');
    expect(reasoning(events)).toBe("The user wants the weather in San Francisco.\nI have an echo tool; I'll call it with the city.");
    expect(of(events, 'reasoning-replay').map((e) => e.item)).toEqual([
      { type: 'thinking', thinking: "The user wants the weather in San Francisco.\nI have an echo tool; I'll call it with the city.", signature: expect.stringMatching(/^EqQBCgIYAhIM1gbcDa9G/) },
    ]);
    expect(text(events)).toBe("Okay, let's check the weather for San Francisco:");
    expect(calls(events)).toEqual([{ type: 'tool-call', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'mcp_chat_echo', argumentsText: '{"text": "San Francisco, CA"}' }]);
    expect(of(events, 'usage')).toEqual([{ type: 'usage', inputTokens: 472, outputTokens: 129, reasoningTokens: 40 }]);
  });

  it('a refusal with no content is a refusal with the explanation, not an empty answer', async () => {
    const events = await replay('anthropic-refusal', 'anthropic');
    expect(done(events)).toBe('refusal');
    expect(of(events, 'refusal-delta')[0]!.text).toContain('Usage Policy');
  });

  it('an overloaded error in a 200 stream is a server failure (retried)', async () => {
    const error = await failure('anthropic-overloaded-in-stream', 'anthropic');
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
  });
});

describe('recorded error bodies, by their meaning', { timeout: 60_000 }, () => {
  for (const [name, api, kind, retryable] of [
    ['openai-insufficient-quota-429', 'openai', 'quota', false],
    ['openai-insufficient-quota-in-stream', 'openai', 'quota', false],
    ['deepseek-insufficient-balance-402', 'openai', 'quota', false],
    ['anthropic-credit-balance-too-low', 'anthropic', 'quota', false],
    ['openai-context-length-exceeded', 'openai', 'context-too-long', false],
    ['deepseek-context-length-exceeded', 'openai', 'context-too-long', false],
    ['anthropic-prompt-too-long', 'anthropic', 'context-too-long', false],
    ['azure-content-filter-400', 'openai', 'content-filter', false],
    ['openai-rate-limited-retry-after', 'openai', 'rate-limited', true],
    ['anthropic-overloaded-529', 'anthropic', 'server', true],
  ] as const) {
    it(`${name}: ${kind}${retryable ? ', retried' : ', not retried'}`, async () => {
      const error = await failure(name, api);
      expect(error.kind).toBe(kind);
      expect(error.retryable).toBe(retryable);
    });
  }

  it('the 429 says when to come back (Retry-After)', async () => {
    expect((await failure('openai-rate-limited-retry-after')).retryAfterMs).toBe(2000);
  });
});
