import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../../src/shared/chat.js';
import { advanceOnRetry, fileIsWhole, startChatWorld } from '../../helpers/chatWorld.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * Providers say the same things in their own words and shapes
 * (test/fixtures/providerStreams names each one's source): the meaning is
 * found whatever the wording, the words a person needs are shown wherever
 * the body keeps them, and a body that is no API error at all ends in one
 * clear stop naming the provider and the status, retried only when a
 * retry can help.
 */

const answers = (messages: readonly { role: string }[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('"too long for the model" in the words providers use', { timeout: 120_000 }, () => {
  for (const [name, api, words] of [
    ['llamacpp-exceed-context-size', 'openai', /exceeds the available context size/],
    ['xai-maximum-prompt-length', 'openai', /maximum prompt length is 131072/],
    ['xai-input-too-large', 'openai', /\[input_too_large\] Current message \(1149677 tokens\) exceeds budget/],
    ['moonshot-exceeded-token-limit', 'openai', /exceeded model token limit: 262144/],
    ['dashscope-range-of-input-length', 'openai', /Range of input length should be \[1, 204800\]/],
    ['anthropic-input-and-max-tokens-exceed', 'anthropic', /input length and `max_tokens` exceed context limit/],
  ] as const) {
    it(`${name}: one request, PROVIDER_CONTEXT_TOO_LONG with the provider's words, and Summarize and retry offered`, async () => {
      const { host, provider } = await startChatWorld({ api });
      provider.enqueue({ kind: 'fixture', name }, { kind: 'reply', text: 'never sent' });
      const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
      expect(provider.requests).toHaveLength(1);
      expect(outcome.stop).toMatchObject({ kind: 'error', code: 'PROVIDER_CONTEXT_TOO_LONG', provider: { kind: 'context-too-long', status: 400 } });
      expect(outcome.stop!.message).toMatch(words);
      expect(outcome.stop!.hint).toMatch(/Summarize and retry/);
    });
  }
});

describe('error words that are not in error.message', { timeout: 120_000 }, () => {
  it("OpenRouter: the upstream provider's cause from metadata.raw, and who said it", async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'openrouter-metadata-raw-400' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_REJECTED' });
    expect(outcome.stop!.message).toContain('Provider returned error (Google: Unable to submit request because Thought signature is not valid.');
  });

  it('Gemini\'s JSON array, which the SDK drops as "(no body)": its message shown', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'gemini-openai-array-400' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(provider.requests).toHaveLength(1);
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_REJECTED', provider: { status: 400 } });
    expect(outcome.stop!.message).toContain('Invalid JSON payload received. Unknown name "prompt_cache_key": Cannot find field.');
    expect(outcome.stop!.message).not.toContain('no body');
  });
});

describe('an error inside a 200 stream with a numeric code', { timeout: 120_000 }, () => {
  it('OpenRouter after finish_reason "length": one request (a 400 is no dropped connection), the text kept, the cut recorded', async () => {
    const { host, provider, home } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'openrouter-error-after-length' });
    const turn = host.chat.send({ agentId: 'helper', text: 'the oldest universities?' });
    const outcome = await turn.done;
    expect(provider.requests).toHaveLength(1);
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_REJECTED', provider: { kind: 'rejected', status: 400 } });
    expect(outcome.stop!.message).toContain('Provider returned error (Chutes: max_tokens reached before the end of the answer)');
    expect(answers(outcome.messages)[0]).toMatchObject({ text: 'The three oldest universities are Bologna, Oxford and', status: 'stopped', finish: 'length' });
    expect(fileIsWhole(home, turn.conversationId)).toBe(2);
    // The cut is known: Continue goes on from it.
    provider.enqueue({ kind: 'reply', text: ' Salamanca.' });
    const continued = await host.chat.continue(turn.conversationId).done;
    expect(answers(continued.messages)[0]!.text).toBe(' Salamanca.');
  });
});

/** A chat-completions error response that is no API error: the status, the content type, the body. */
const bad = (status: number, contentType: string, body: string) => ({ kind: 'raw' as const, status, headers: { 'content-type': contentType }, pieces: [body] });

describe('a provider body that is no API error', { timeout: 120_000 }, () => {
  for (const [what, reply, kind, words] of [
    ['an empty 400', bad(400, 'application/json', ''), 'rejected', /HTTP 400 with an empty body/],
    ['a bare string', bad(400, 'text/plain', 'model not loaded'), 'rejected', /model not loaded/],
    ['an array', bad(400, 'application/json', '[{"error":{"code":400,"message":"Bad field"}}]'), 'rejected', /Bad field/],
    [
      'JSON cut mid-way',
      bad(400, 'application/json', '{"error":{"message":"The model `x` does not exist","type":"invalid_req'),
      'rejected',
      /HTTP 400 with a JSON body cut short .*: The model `x` does not exist/,
    ],
    ['ten megabytes', bad(400, 'application/json', `{"error":{"message":"${'A'.repeat(10 * 1024 * 1024)}"}}`), 'rejected', /HTTP 400 with a JSON body cut short after 65536 characters/],
  ] as const) {
    it(`${what}: one request, one clear stop naming the provider and the status`, async () => {
      const { host, provider, home } = await startChatWorld();
      provider.enqueue(reply, { kind: 'reply', text: 'never sent' });
      const turn = host.chat.send({ agentId: 'helper', text: 'x' });
      const outcome = await turn.done;
      expect(provider.requests).toHaveLength(1);
      expect(outcome.stop).toMatchObject({ kind: 'error', provider: { kind, status: 400 } });
      expect(outcome.stop!.message).toContain(`model "local" (openai at ${provider.openaiUrl})`);
      expect(outcome.stop!.message).toMatch(words);
      expect(outcome.stop!.message.length).toBeLessThan(5000);
      expect(fileIsWhole(home, turn.conversationId)).toBe(1);
    });
  }

  it("a proxy's HTML 502: retried (a gateway may come back), then one stop naming the page", async () => {
    const scheduler = new TestScheduler();
    const { host, provider } = await startChatWorld({ host: { scheduler, chat: { retry: { maxAttempts: 2 } } } });
    const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    provider.enqueue(bad(502, 'text/html', page), bad(502, 'text/html', page));
    advanceOnRetry(host, scheduler);
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(provider.requests).toHaveLength(2);
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', provider: { kind: 'server', status: 502 } });
    expect(outcome.stop!.message).toMatch(/failed 2 times \(server 502\): HTTP 502 with an HTML page \("502 Bad Gateway"\), not an API error/);
  });

  it('an HTML page with 200 where a stream was asked for (a wrong base URL): not retried, said so', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue(bad(200, 'text/html; charset=utf-8', '<!doctype html><html><head><title>Welcome</title></head><body>Hi</body></html>'), { kind: 'reply', text: 'never sent' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(provider.requests).toHaveLength(1);
    expect(outcome.stop).toMatchObject({ code: 'PROVIDER_REJECTED', provider: { status: 200 } });
    expect(outcome.stop!.message).toMatch(/HTTP 200 with an HTML page \("Welcome"\)/);
  });
});

describe('thinking streamed without an opening <think>', { timeout: 120_000 }, () => {
  it('Qwen3 Thinking-2507: what came before the lone </think> is thought, moved out of the answer live; the answer is what follows', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'qwen3-thinking-lone-close-tag' });
    const live = { text: '', reasoning: '' };
    host.chat.onEvent((event) => {
      if (event.type === 'delta') live.text += event.text;
      if (event.type === 'reasoning') {
        if (event.fromAnswer) live.text = '';
        live.reasoning += event.text;
      }
    });
    const outcome = await host.chat.send({ agentId: 'helper', text: '1+1?' }).done;
    const thought = 'Okay, the user asks how much 1+1 is. Simple addition: the answer is 2.\n';
    expect(answers(outcome.messages)[0]).toMatchObject({ text: '1 + 1 = **2**.', reasoning: { text: thought, source: 'think-tags' }, finish: 'stop' });
    expect(live).toEqual({ text: '1 + 1 = **2**.', reasoning: thought });
  });

  it('an answer that never closes a tag stays the answer, whole', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'reply', text: ['Use ', '</', 'b> to close bold in HTML.'] });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    expect(answers(outcome.messages)[0]).toMatchObject({ text: 'Use </b> to close bold in HTML.' });
    expect(answers(outcome.messages)[0]!.reasoning).toBeUndefined();
  });
});
