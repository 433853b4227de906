import { describe, expect, it } from 'vitest';
import { createModelClient, type StreamOptions } from '../../src/core/models/providers/modelClient.js';
import { userText } from '../../src/core/models/providers/modelRequest.js';
import { boundedFetch } from '../../src/core/models/providers/boundedFetch.js';
import { ProviderError } from '../../src/core/models/providers/providerError.js';
import type { StreamEvent } from '../../src/core/models/providers/streamEvent.js';
import type { ApiKind, ModelEntry } from '../../src/shared/models.js';
import { startEndlessServer } from '../helpers/endlessServer.js';
import { chatChunk } from '../helpers/providerWire/openaiChatWire.js';
import type { SseFrame } from '../helpers/providerWire/types.js';
import { startProviderServer } from '../helpers/providerServer.js';

/**
 * A hostile provider: its stream is attacker data. Everything it sends is
 * bounded before the host holds it, whatever field it hides in: one
 * server-sent event that never ends, reasoning details, a tool call's
 * `extra_content`, tool-call pieces that carry nothing, an error body.
 */

const MiB = 1024 * 1024;
const KEY = 'sk-attack-0123456789';

const entry = (baseUrl: string, api: ApiKind): ModelEntry => ({ id: 'm', name: 'M', api, baseUrl, model: 'test-model', vision: false, key: { kind: 'stored' } });

async function outcome(baseUrl: string, options: StreamOptions = {}, api: ApiKind = 'openai'): Promise<{ events: StreamEvent[]; error?: ProviderError }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of createModelClient(entry(baseUrl, api), KEY).stream({ messages: [userText('?')] }, options)) events.push(event);
    return { events };
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return { events, error: error as ProviderError };
  }
}

/** A provider whose answer is one `data:` line that never ends (or ends after `total` bytes). */
const endlessEventServer = (total: number) =>
  startEndlessServer({ headers: { 'content-type': 'text/event-stream' }, head: 'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"', total });

describe('a hostile provider stream is bounded', { timeout: 120_000 }, () => {
  it('one server-sent event that never ends is refused at the event limit; the host stops reading there', async () => {
    const provider = await endlessEventServer(12 * MiB);
    const { error } = await outcome(provider.url, { maxEventBytes: MiB });
    await provider.closed;
    // The SDK buffers an event until its blank line, scanning the whole buffer at each chunk: without a bound it holds all of it, at quadratic cost.
    expect(provider.written, 'the client read on past the event limit').toBeLessThan(4 * MiB);
    expect(error?.kind).toBe('too-long');
  });

  /** One answer of `bytes` characters in a single event, sent in 64 KiB pieces as a network would deliver it. */
  const longEventPieces = (bytes: number) => {
    const event = `data: ${JSON.stringify(chatChunk({ content: 'w'.repeat(bytes) }).data)}\n\n`;
    const end = [chatChunk({}, 'stop'), { data: '[DONE]' }].map((frame) => `data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`);
    return [...event.match(/[^]{1,65536}/g)!, ...end];
  };

  it('one long event under the limit arrives whole, every character of it', async () => {
    const server = await startProviderServer();
    server.enqueue({ kind: 'raw', pieces: longEventPieces(6 * MiB) });
    const { events, error } = await outcome(server.openaiUrl, { maxAnswerChars: 64 * MiB });
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text-delta').reduce((sum, e) => sum + (e as { text: string }).text.length, 0)).toBe(6 * MiB);
  });

  it('one long event reaches the SDK in pieces of a MiB and more, not one per network read: its rescans stay few', async () => {
    // The SDK rescans all it holds of an event at each piece it gets; at one piece per 64 KiB read, a 6 MiB event
    // would be scanned ~96 times over (quadratic). Counted, not timed: the bench (npm run bench -- linear) times it.
    const server = await startProviderServer();
    const pieces = longEventPieces(6 * MiB);
    server.enqueue({ kind: 'raw', pieces });
    const response = await boundedFetch({ maxEventBytes: 64 * MiB })(`${server.openaiUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'test-model', stream: true, messages: [{ role: 'user', content: '?' }] }),
    });
    const given: number[] = [];
    for await (const chunk of response.body!) given.push(chunk.byteLength);
    expect(given.reduce((sum, n) => sum + n, 0)).toBe(Buffer.byteLength(pieces.join('')));
    // Six of a MiB within the event, then its end and the two short events after it.
    expect(given.length, `pieces given: ${given.slice(0, 12).join(', ')}, …`).toBeLessThanOrEqual(6 + 3);
  });

  it('reasoning details without end are not held whole: the replay kept of them stays within the replay bound', async () => {
    const server = await startProviderServer();
    const piece = 'Z'.repeat(256 * 1024);
    function* frames(): Generator<SseFrame> {
      yield chatChunk({ role: 'assistant', content: '' });
      // Encrypted reasoning (`data`) is never shown, so no reasoning limit counts it.
      for (let i = 0; i < 48; i++) yield chatChunk({ reasoning_details: [{ type: 'reasoning.encrypted', index: 0, data: piece }] });
      yield chatChunk({ content: 'ok' });
      yield chatChunk({}, 'stop');
      yield { data: '[DONE]' };
    }
    server.enqueue({ kind: 'frames', frames: frames() });
    const { events, error } = await outcome(server.openaiUrl);
    const held = events.filter((e) => e.type === 'reasoning-replay').reduce((sum, e) => sum + JSON.stringify((e as { item: unknown }).item).length, 0);
    expect(error).toBeUndefined();
    expect(held, 'the translator held 12 MiB of one reasoning detail').toBeLessThanOrEqual(2_000_000);
  });

  it("a tool call's extra_content counts against the answer limit: 4 MiB of it is not a tool call", async () => {
    const server = await startProviderServer();
    server.enqueue({
      kind: 'frames',
      frames: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({
          tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'mcp_chat_echo', arguments: '{}' }, extra_content: { google: { thought_signature: 'S'.repeat(4 * MiB) } } }],
        }),
        chatChunk({}, 'tool_calls'),
        { data: '[DONE]' },
      ],
    });
    const { events, error } = await outcome(server.openaiUrl);
    expect(events.filter((e) => e.type === 'tool-call').length, 'the call was made with its 4 MiB extra_content').toBe(0);
    expect(error?.kind).toBe('too-long');
  });

  it('tool-call pieces that carry nothing but a new index are counted: a flood of them is stopped, not made into calls', async () => {
    const server = await startProviderServer();
    function* frames(): Generator<SseFrame> {
      yield chatChunk({ role: 'assistant', content: '' });
      for (let batch = 0; batch < 100; batch++) yield chatChunk({ tool_calls: Array.from({ length: 1000 }, (_, i) => ({ index: batch * 1000 + i })) });
      yield chatChunk({}, 'tool_calls');
      yield { data: '[DONE]' };
    }
    server.enqueue({ kind: 'frames', frames: frames() });
    const { events, error } = await outcome(server.openaiUrl, { maxAnswerChars: 10_000 });
    expect(events.filter((e) => e.type === 'tool-call' || e.type === 'tool-call-malformed').length).toBeLessThanOrEqual(10_000);
    expect(error?.kind).toBe('too-long');
  });

  it("a provider's error text is cut to a readable length: 8 MiB of it is not one problem", async () => {
    const server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 400, message: `bad request ${'x'.repeat(8 * MiB)} ${KEY}` });
    const { error } = await outcome(server.openaiUrl);
    expect(error?.kind).toBe('rejected');
    expect(error!.message).toContain('bad request xxx');
    expect(error!.message.length).toBeLessThanOrEqual(8 * 1024);
    expect(error!.message).not.toContain(KEY);
  });

  it('an error body that never ends is cut: the host stops reading it and closes the connection', async () => {
    const provider = await startEndlessServer({ status: 400, head: '{"error":{"message":"bad request ', piece: 'x'.repeat(64 * 1024) });
    const { error } = await outcome(provider.url);
    await provider.closed;
    expect(error?.kind).toBe('rejected');
    expect(error!.message.length).toBeLessThanOrEqual(80 * 1024);
    expect(provider.written).toBeLessThan(16 * MiB);
  });

  /** Anthropic Messages events, each named by its type. */
  const anthropicEvent = (type: string, data: object): SseFrame => ({ event: type, data: { type, ...data } });
  const messageStart = anthropicEvent('message_start', {
    message: { id: 'msg', type: 'message', role: 'assistant', model: 'test-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
  });
  const messageEnd = (reason: string) => [anthropicEvent('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } }), anthropicEvent('message_stop', {})];

  it("Anthropic: a thinking block's signature without end is not held whole", async () => {
    const server = await startProviderServer();
    const piece = 'G'.repeat(256 * 1024);
    function* frames(): Generator<SseFrame> {
      yield messageStart;
      yield anthropicEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
      // A signature is never shown, so no reasoning limit counts it.
      for (let i = 0; i < 48; i++) yield anthropicEvent('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: piece } });
      yield anthropicEvent('content_block_stop', { index: 0 });
      yield* messageEnd('end_turn');
    }
    server.enqueue({ kind: 'frames', frames: frames() });
    const { events, error } = await outcome(server.url, {}, 'anthropic');
    const held = events.filter((e) => e.type === 'reasoning-replay').reduce((sum, e) => sum + JSON.stringify((e as { item: unknown }).item).length, 0);
    expect(error).toBeUndefined();
    expect(held, 'the translator held 12 MiB of one signature').toBeLessThanOrEqual(2_000_000);
  });

  it("Anthropic: a tool_use block's input given whole at its start counts against the answer limit", async () => {
    const server = await startProviderServer();
    server.enqueue({
      kind: 'frames',
      frames: [
        messageStart,
        anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'mcp_chat_echo', input: { text: 'y'.repeat(4 * MiB) } } }),
        anthropicEvent('content_block_stop', { index: 0 }),
        ...messageEnd('tool_use'),
      ],
    });
    const { events, error } = await outcome(server.url, {}, 'anthropic');
    expect(events.filter((e) => e.type === 'tool-call').length, 'the call was made with 4 MiB of input').toBe(0);
    expect(error?.kind).toBe('too-long');
  });

  it('Responses: a function call given whole in output_item.done (no argument deltas) counts against the answer limit', async () => {
    const server = await startProviderServer();
    const event = (type: string, data: object): SseFrame => ({ event: type, data: { type, sequence_number: 0, ...data } });
    const response = { id: 'resp', object: 'response', created_at: 1, model: 'test-model', output: [], status: 'in_progress' };
    function* frames(): Generator<SseFrame> {
      yield event('response.created', { response });
      // Eight calls of 1 MiB each: none is announced by a delta.
      for (let i = 0; i < 8; i++)
        yield event('response.output_item.done', {
          output_index: i,
          item: { id: `fc_${i}`, type: 'function_call', call_id: `call_${i}`, name: 'mcp_chat_echo', arguments: JSON.stringify({ text: 'z'.repeat(MiB) }), status: 'completed' },
        });
      yield event('response.completed', { response: { ...response, status: 'completed', usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } });
    }
    server.enqueue({ kind: 'frames', frames: frames() });
    const { events, error } = await outcome(server.openaiUrl, {}, 'openai-responses');
    expect(events.filter((e) => e.type === 'tool-call').length, 'calls were made past the answer limit').toBe(0);
    expect(error?.kind).toBe('too-long');
  });
});
