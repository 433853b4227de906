import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { embeddingOf, startProviderServer } from './providerServer.js';

/** The parts of the local provider server that the port tests do not cover, driven by the real openai client. */
describe('the local provider test server', () => {
  it('lists its models and answers embeddings with deterministic vectors (as floats, and as the SDK\'s default base64)', async () => {
    const server = await startProviderServer({ models: ['alpha', 'beta'] });
    const client = new OpenAI({ baseURL: server.openaiUrl, apiKey: 'k', maxRetries: 0 });
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(['alpha', 'beta']);

    const asBase64 = await client.embeddings.create({ model: 'e', input: ['hello', 'world', 'hello'] });
    const vectors = asBase64.data.map((d) => d.embedding);
    expect(vectors[0]!.length).toBe(16);
    expect(vectors[0]).toEqual(vectors[2]);
    expect(vectors[0]).not.toEqual(vectors[1]);
    vectors[0]!.forEach((v, i) => expect(v).toBeCloseTo(embeddingOf('hello')[i]!, 5));
    const asFloats = await client.embeddings.create({ model: 'e', input: 'hello', encoding_format: 'float' });
    expect(asFloats.data[0]!.embedding).toEqual(embeddingOf('hello'));
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/embeddings', 'POST /v1/embeddings']);
  });

  it('an empty queue answers 500 saying so, so a test missing a script fails clearly', async () => {
    const server = await startProviderServer();
    const client = new OpenAI({ baseURL: server.openaiUrl, apiKey: 'k', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow('no scripted response left');
  });
});
