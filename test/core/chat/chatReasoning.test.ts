import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../../src/shared/chat.js';
import { localModel, startChatWorld } from '../../helpers/chatWorld.js';

/**
 * Reasoning as a part of the answer, against recorded provider streams
 * replayed over real HTTP: kept apart from the text with its duration, and
 * sent back exactly where the provider requires it — to the same entry
 * only, in the form it came in.
 */

const answers = (messages: readonly { role: string }[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant');
const assistantsSent = (body: any) => (body.messages as any[]).filter((m) => m.role === 'assistant');

describe('reasoning kept and sent back', { timeout: 120_000 }, () => {
  it('DeepSeek thinking: the tool turn carries its reasoning_content back, in every later request, and only to the same entry', async () => {
    const { host, provider } = await startChatWorld();
    await host.models.create({ ...localModel(provider), id: 'other', name: 'Other', model: 'other-model' });
    provider.enqueue({ kind: 'fixture', name: 'deepseek-thinking-tool-call' }, { kind: 'fixture', name: 'deepseek-thinking-answer' });
    const turn = host.chat.send({ agentId: 'helper', text: 'weather in SF?' });
    const outcome = await turn.done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const [first, second] = answers(outcome.messages);
    expect(first!.reasoning).toMatchObject({ text: 'The user asks about the weather in San Francisco. I should use the echo tool.', source: 'reasoning_content' });
    expect(first!.reasoning!.durationMs).toBeGreaterThanOrEqual(0);
    expect(first!.text).toBe('');
    expect(first!.stats).toMatchObject({ outputTokens: 61, reasoningTokens: 17 });
    expect(second!.text).toBe('It is sunny in San Francisco.');
    expect(second!.reasoning!.text).toBe('The tool echoed San Francisco. I can answer.');

    // The request after the tool result: the assistant message with the call carries its reasoning back (DeepSeek answers 400 otherwise).
    const [withCall] = assistantsSent(provider.requests[1]!.body);
    expect(withCall).toMatchObject({ reasoning_content: 'The user asks about the weather in San Francisco. I should use the echo tool.', tool_calls: [{ id: 'call_00_IhCAliIHtM9gKpgfqbBV9873' }] });

    // A later turn still carries the tool turn's reasoning ("in all subsequent requests"), its answer's too.
    provider.enqueue({ kind: 'reply', text: 'ok' });
    await host.chat.send({ conversationId: turn.conversationId, text: 'thanks' }).done;
    expect(assistantsSent(provider.requests[2]!.body).map((m) => m.reasoning_content)).toEqual([
      'The user asks about the weather in San Francisco. I should use the echo tool.',
      'The tool echoed San Francisco. I can answer.',
    ]);

    // Another model never gets this model's reasoning.
    host.chat.setModel(turn.conversationId, 'other');
    provider.enqueue({ kind: 'reply', text: 'switched' });
    const switched = await host.chat.send({ conversationId: turn.conversationId, text: 'and now?' }).done;
    expect(provider.requests[3]!.body.model).toBe('other-model');
    expect(assistantsSent(provider.requests[3]!.body).every((m) => !('reasoning_content' in m))).toBe(true);
    expect(answers(switched.messages)[0]!.modelId).toBe('other');
    expect(host.chat.get(turn.conversationId).conversation.modelId).toBe('other');
  });

  it('a DeepSeek turn without tools does not send its reasoning back (the API ignores it there)', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'deepseek-thinking-answer' }, { kind: 'reply', text: 'two' });
    const turn = host.chat.send({ agentId: 'helper', text: 'one' });
    await turn.done;
    await host.chat.send({ conversationId: turn.conversationId, text: 'again' }).done;
    expect(assistantsSent(provider.requests[1]!.body)).toEqual([{ role: 'assistant', content: 'It is sunny in San Francisco.' }]);
  });

  it('Anthropic with thinking: the signed thinking block goes back first and unchanged, and thinking is asked for with a budget', async () => {
    const { host, provider } = await startChatWorld({ api: 'anthropic', model: { reasoning: true, reasoningEffort: 'low', temperature: 0.5 } });
    provider.enqueue({ kind: 'fixture', name: 'anthropic-thinking-tool-use' }, { kind: 'fixture', name: 'anthropic-answer' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'weather?' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const first = provider.requests[0]!.body;
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(first.max_tokens).toBeGreaterThan(4096);
    expect(first).not.toHaveProperty('temperature');
    const [assistant] = (provider.requests[1]!.body.messages as any[]).filter((m) => m.role === 'assistant');
    expect(assistant.content.map((b: any) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: "The user wants the weather in San Francisco.\nI have an echo tool; I'll call it with the city.",
      signature: expect.stringMatching(/^EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9WWZ7wa8/),
    });
    expect(answers(outcome.messages)[0]!.reasoning).toMatchObject({ source: 'anthropic', replay: [{ type: 'thinking' }] });
  });

  it('Responses, a reasoning entry: encrypted reasoning is asked for, and its item goes back before the call', async () => {
    const { host, provider } = await startChatWorld({ api: 'openai-responses', model: { reasoning: true, reasoningEffort: 'high', maxTokens: 4000, temperature: 0.2 } });
    provider.enqueue({ kind: 'fixture', name: 'openai-responses-reasoning-tool-call' }, { kind: 'fixture', name: 'openai-responses-answer' });
    const outcome = await host.chat.send({ agentId: 'helper', text: '(12+7)*3*10?' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const first = provider.requests[0]!.body;
    expect(first).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'high', summary: 'auto' }, max_output_tokens: 4000 });
    expect(first).not.toHaveProperty('temperature');
    const input = provider.requests[1]!.body.input as any[];
    const at = input.findIndex((i) => i.type === 'reasoning');
    expect(input[at]).toMatchObject({ type: 'reasoning', id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9', encrypted_content: expect.stringMatching(/^gAAAAABpPDIVOKrs/) });
    expect(input[at + 1]).toMatchObject({ type: 'function_call', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn' });
    expect(answers(outcome.messages)[1]!.text).toBe('12 + 7 = 19.');
  });

  it('a reasoning model on chat completions gets max_completion_tokens and its effort, never temperature or max_tokens', async () => {
    const { host, provider } = await startChatWorld({ model: { reasoning: true, reasoningEffort: 'high', maxTokens: 500, temperature: 0.3 } });
    provider.enqueue({ kind: 'reply', text: 'ok' });
    await host.chat.send({ agentId: 'helper', text: 'x' }).done;
    const body = provider.requests[0]!.body;
    expect(body).toMatchObject({ max_completion_tokens: 500, reasoning_effort: 'high' });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it("Gemini's thought signature goes back on its call", async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'gemini-openai-tool-call' }, { kind: 'reply', text: 'read it' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'read the skill' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const [assistant] = assistantsSent(provider.requests[1]!.body);
    expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_297140', extra_content: { google: { thought_signature: expect.stringMatching(/^CqYCAcu98PAb/) } } });
  });

  // Its tokens/s (none for calls sent whole) is tested on the test's own clock in answerNumbers.test.ts: over real HTTP on a loaded machine the two chunks may arrive far apart.
  it('Ollama 0.20: two calls at index 0 run as two calls, each result under its own id', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'ollama-parallel-calls-index-0' }, { kind: 'reply', text: 'both written' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'write two files' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    const tool = provider.requests[1]!.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => [m.tool_call_id, m.content]);
    expect(tool).toEqual([
      ['call_u8bz4kd1', 'hello.py'],
      ['call_2lq7x0wm', 'world.py'],
    ]);
    const [first] = answers(outcome.messages);
    expect(first!.stats.outputTokens).toBe(52);
  });

  it('<think> tags of a distilled model are split out and stored apart; the answer is only the answer', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'ollama-deepseek-r1-think-tags' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'hello' }).done;
    const [answer] = answers(outcome.messages);
    expect(answer).toMatchObject({ text: 'Hello! How can I help you today?', reasoning: { text: '\nOkay, the user says hello. I should greet back warmly.\n', source: 'think-tags' } });
  });

  it('Mistral content parts: thinking apart, the text as text', async () => {
    const { host, provider } = await startChatWorld();
    provider.enqueue({ kind: 'fixture', name: 'mistral-magistral-content-parts' });
    const outcome = await host.chat.send({ agentId: 'helper', text: '2+2' }).done;
    expect(answers(outcome.messages)[0]).toMatchObject({ text: '2 + 2 = 4', reasoning: { source: 'thinking-part', text: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.' } });
  });
});

describe('switching the model of a conversation', { timeout: 60_000 }, () => {
  it('is recorded on the conversation; the next request goes to the new entry; an embedding entry or a missing one is refused', async () => {
    const { host, provider } = await startChatWorld();
    await host.models.create({ ...localModel(provider), id: 'big', name: 'Big', model: 'big-model' });
    await host.models.create({ ...localModel(provider), id: 'vectors', name: 'Vectors', model: 'text-embedding-3-small' });
    provider.enqueue({ kind: 'reply', text: 'small' }, { kind: 'reply', text: 'big' });
    const turn = host.chat.send({ agentId: 'helper', text: 'one' });
    await turn.done;
    expect(() => host.chat.setModel(turn.conversationId, 'vectors')).toThrow(/embedding model/);
    expect(() => host.chat.setModel(turn.conversationId, 'nope')).toThrow(/no model "nope"/);
    host.chat.setModel(turn.conversationId, 'big');
    const outcome = await host.chat.send({ conversationId: turn.conversationId, text: 'two' }).done;
    expect(provider.requests.map((r) => r.body.model)).toEqual(['test-model', 'big-model']);
    expect(answers(outcome.messages)[0]).toMatchObject({ modelId: 'big', text: 'big' });
    host.chat.setModel(turn.conversationId, null);
    expect(host.chat.get(turn.conversationId).conversation).not.toHaveProperty('modelId');
  });
});
