import { describe, expect, it } from 'vitest';
import { createModelClient, type ModelClient } from '../../../../src/core/chat/providers/modelClient.js';
import { userText, type ModelRequest } from '../../../../src/core/chat/providers/modelRequest.js';
import { ProviderError } from '../../../../src/core/chat/providers/providerError.js';
import type { StreamEvent } from '../../../../src/core/chat/providers/streamEvent.js';
import type { ApiKind, ModelEntry } from '../../../../src/shared/models.js';
import { freePort } from '../../../helpers/gatewayHost.js';
import { startProviderServer, type ProviderServer } from '../../../helpers/providerServer.js';

/**
 * The provider port against a real local server speaking each API's wire
 * format, through the real `openai` and `@anthropic-ai/sdk` clients.
 */

const KEY = 'sk-test-port-0123456789';

function entry(api: ApiKind, server: { url: string; openaiUrl: string } | string, extra: Partial<ModelEntry> = {}): ModelEntry {
  const baseUrl = typeof server === 'string' ? server : api === 'anthropic' ? server.url : server.openaiUrl;
  return { id: 'm', name: 'M', api, baseUrl, model: 'test-model', vision: false, key: { kind: 'stored' }, ...extra };
}

async function collect(client: ModelClient, request: ModelRequest, options: Parameters<ModelClient['stream']>[1] = {}): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of client.stream(request, options)) events.push(event);
  return events;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the stream should have failed').toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const TOOLS = [
  { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', description: 'Time in a zone', inputSchema: { type: 'object', properties: { zone: { type: 'string' } } } },
];

const text = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');

/** The system text and last user text as each API carries them, from the recorded request body. */
function promptOf(api: ApiKind, body: any): { system: string; user: string } {
  if (api === 'openai') return { system: body.messages[0].content, user: body.messages.at(-1).content };
  if (api === 'openai-responses') return { system: body.instructions, user: body.input.at(-1).content[0].text };
  return { system: body.system, user: body.messages.at(-1).content[0].text };
}

describe.each(['openai', 'openai-responses', 'anthropic'] as const)('ModelClient over %s', (api) => {
  let server: ProviderServer;
  const client = (extra: Partial<ModelEntry> = {}, key: string | null = KEY) => createModelClient(entry(api, server, extra), key ?? undefined);

  it('streams text in pieces, then usage and done; sends the system text, messages, params and the key', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: ['Hel', 'lo, ', 'world'], usage: { input: 21, output: 3 } });
    const events = await collect(client({ temperature: 0.5, maxTokens: 99 }), { system: 'Be brief.', messages: [userText('Say hello')] });
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['Hel', 'lo, ', 'world']);
    expect(events.slice(-2)).toEqual([
      { type: 'usage', inputTokens: 21, outputTokens: 3 },
      { type: 'done', finishReason: 'stop', providerReason: api === 'openai' ? 'stop' : api === 'anthropic' ? 'end_turn' : 'completed' },
    ]);
    const [request] = server.requests;
    expect(request!.path).toBe({ openai: '/v1/chat/completions', 'openai-responses': '/v1/responses', anthropic: '/v1/messages' }[api]);
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.stream).toBe(true);
    expect(request!.body.temperature).toBe(0.5);
    expect(request!.body[{ openai: 'max_tokens', 'openai-responses': 'max_output_tokens', anthropic: 'max_tokens' }[api]]).toBe(99);
    expect(promptOf(api, request!.body)).toEqual({ system: 'Be brief.', user: 'Say hello' });
    const auth = `${request!.headers.authorization ?? ''} ${request!.headers['x-api-key'] ?? ''}`;
    expect(auth).toContain(KEY);
  });

  it('a keyless entry (a local server) sends no key header at all', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: 'ok' });
    await collect(client({ key: { kind: 'none' } }, null), { messages: [userText('hi')] });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('two tool calls in one message, their arguments split over deltas, come out whole and parsed, in order', async () => {
    server = await startProviderServer();
    server.enqueue({
      kind: 'reply',
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' }, pieces: 5 },
        { id: 'call_b', name: 'get_time', arguments: { zone: 'Europe/Paris' }, pieces: 4 },
      ],
    });
    const events = await collect(client(), { messages: [userText('Weather and time in Paris?')], tools: TOOLS });
    expect(text(events)).toBe('Let me check.');
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', id: 'call_a', name: 'get_weather', argumentsText: '{"city":"Paris","units":"metric"}', args: { city: 'Paris', units: 'metric' } },
      { type: 'tool-call', id: 'call_b', name: 'get_time', argumentsText: '{"zone":"Europe/Paris"}', args: { zone: 'Europe/Paris' } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'tool-calls' });
    // The tools reached the provider with their schemas untouched.
    const body = server.requests[0]!.body;
    const sent =
      api === 'openai'
        ? body.tools.map((t: any) => [t.function.name, t.function.parameters])
        : api === 'openai-responses'
          ? body.tools.map((t: any) => [t.name, t.parameters])
          : body.tools.map((t: any) => [t.name, t.input_schema]);
    expect(sent).toEqual(TOOLS.map((t) => [t.name, t.inputSchema]));
  });

  it('a tool call whose arguments are not a JSON object is a tool-call-malformed event, not a failure', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: '{"city": "Par' }] });
    const events = await collect(client(), { messages: [userText('?')], tools: TOOLS });
    expect(events.find((e) => e.type === 'tool-call-malformed')).toEqual({
      type: 'tool-call-malformed',
      id: 'call_x',
      name: 'get_weather',
      argumentsText: '{"city": "Par',
      message: 'the arguments of get_weather are not valid JSON',
    });
  });

  it("sends a history with tool calls and their results (text and an image) in the API's form", async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: 'It is sunny.' });
    const png = Buffer.from('not really a png').toString('base64');
    await collect(client(), {
      messages: [
        userText('Weather?'),
        { role: 'assistant', text: '', toolCalls: [{ id: 'call_a', name: 'get_weather', argumentsText: '{"city":"Paris"}' }] },
        {
          role: 'tool',
          callId: 'call_a',
          name: 'get_weather',
          content: [
            { type: 'text', text: 'sunny, 24°C' },
            { type: 'image', mimeType: 'image/png', data: png },
          ],
        },
      ],
      tools: TOOLS,
    });
    const body = JSON.stringify(server.requests[0]!.body);
    expect(body).toContain('call_a');
    expect(body).toContain('sunny, 24°C');
    expect(body).toContain(png);
  });

  it("400 is rejected, with the provider's error text and the tool it names; exactly one request (no SDK retry)", async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 400, message: "Invalid schema for function 'get_time': 'zone' is not valid under any of the given schemas" });
    const error = await failure(collect(client(), { messages: [userText('?')], tools: TOOLS }));
    expect(error.toJSON()).toEqual({ kind: 'rejected', status: 400, message: "Invalid schema for function 'get_time': 'zone' is not valid under any of the given schemas", toolName: 'get_time' });
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('422 is rejected too', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 422, message: 'unprocessable' });
    expect((await failure(collect(client(), { messages: [userText('?')] }))).kind).toBe('rejected');
  });

  it('401 is auth, 404 not-found, 500 server; none of them retried by the SDK', async () => {
    server = await startProviderServer();
    server.enqueue(
      { kind: 'error', status: 401, message: 'Incorrect API key provided' },
      { kind: 'error', status: 404, message: 'The model `test-model` does not exist' },
      { kind: 'error', status: 500, message: 'upstream exploded' },
    );
    const auth = await failure(collect(client(), { messages: [userText('?')] }));
    expect(auth.toJSON()).toEqual({ kind: 'auth', status: 401, message: 'Incorrect API key provided' });
    const notFound = await failure(collect(client(), { messages: [userText('?')] }));
    expect(notFound.toJSON()).toEqual({ kind: 'not-found', status: 404, message: 'The model `test-model` does not exist' });
    const server500 = await failure(collect(client(), { messages: [userText('?')] }));
    expect(server500.toJSON()).toEqual({ kind: 'server', status: 500, message: 'upstream exploded' });
    expect(server500.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('429 is rate-limited with retryAfterMs from Retry-After', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '7' } });
    const error = await failure(collect(client(), { messages: [userText('?')] }));
    expect(error.toJSON()).toEqual({ kind: 'rate-limited', status: 429, retryAfterMs: 7000, message: 'Rate limit reached' });
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a 503 that says when to come back carries retryAfterMs too', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 503, message: 'overloaded', headers: { 'retry-after': '2' } });
    const error = await failure(collect(client(), { messages: [userText('?')] }));
    expect(error.toJSON()).toEqual({ kind: 'server', status: 503, retryAfterMs: 2000, message: 'overloaded' });
  });

  it('a key the provider echoes in its error never reaches the message', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'error', status: 401, message: `bad key ${KEY} for this project` });
    const error = await failure(collect(client(), { messages: [userText('?')] }));
    expect(error.message).toBe('bad key *** for this project');
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
  });

  it('connection refused is network/refused', async () => {
    const port = await freePort();
    const error = await failure(collect(createModelClient(entry(api, api === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`), KEY), { messages: [userText('?')] }));
    expect([error.kind, error.network]).toEqual(['network', 'refused']);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a host that does not resolve (.invalid) is network/dns', async () => {
    const error = await failure(collect(createModelClient(entry(api, 'http://chatos-test.invalid/v1'), KEY), { messages: [userText('?')] }));
    expect([error.kind, error.network]).toEqual(['network', 'dns']);
  });

  it('https to a server speaking plain HTTP is network/tls', async () => {
    server = await startProviderServer();
    const error = await failure(collect(createModelClient(entry(api, server.url.replace('http:', 'https:') + (api === 'anthropic' ? '' : '/v1')), KEY), { messages: [userText('?')] }));
    expect([error.kind, error.network]).toEqual(['network', 'tls']);
  });

  it('a stream cut mid-way fails as network (reset or incomplete), after the text it did send', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: ['one ', 'two ', 'three ', 'four'], cutAfter: 3 });
    const events: StreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of client().stream({ messages: [userText('?')] })) events.push(event);
      })(),
    );
    expect(error.kind).toBe('network');
    expect(['reset', 'incomplete']).toContain(error.network);
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a provider that says nothing for the idle time is network/timeout', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: ['first ', 'second'], hangAfter: 3 });
    const error = await failure(collect(client(), { messages: [userText('?')] }, { idleTimeoutMs: 300 }));
    expect([error.kind, error.network]).toEqual(['network', 'timeout']);
  });

  it('abort mid-stream through the signal: aborted, the connection closed, the text so far kept by the caller', async () => {
    server = await startProviderServer();
    server.enqueue({ kind: 'reply', text: ['first ', 'second ', 'third'], hangAfter: 4 });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const event of client().stream({ messages: [userText('?')] }, { signal: controller.signal })) {
          events.push(event);
          if (event.type === 'text-delta') controller.abort();
        }
      })(),
    );
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(text(events).length).toBeGreaterThan(0);
    // The server was left hanging after its third frame: only the abort closes that connection.
    await server.requests[0]!.closed;
  });

  it('a signal aborted before the start sends nothing', async () => {
    server = await startProviderServer();
    const error = await failure(collect(client(), { messages: [userText('?')] }, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});
