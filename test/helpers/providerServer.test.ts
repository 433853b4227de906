import * as fs from 'node:fs';
import * as http from 'node:http';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { embeddingOf, startProviderServer } from './providerServer.js';
import { FIXTURES_DIR, readFixture } from './providerWire/fixtures.js';

/** A raw GET-less POST: the status, headers and body bytes exactly as they arrived. */
function post(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; pieces: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks), pieces: chunks.length }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end('{}');
  });
}

/** The parts of the local provider server that the port tests do not cover, driven by the real openai client. */
describe('the local provider test server', () => {
  it("lists its models and answers embeddings with deterministic vectors (as floats, and as the SDK's default base64)", async () => {
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

  it('replays every recorded provider response byte for byte: its status, its headers, its body', async () => {
    const server = await startProviderServer();
    const names = fs
      .readdirSync(FIXTURES_DIR)
      .filter((f) => f.endsWith('.http'))
      .map((f) => f.slice(0, -'.http'.length));
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const name of names) {
      const recorded = readFixture(name);
      // Every recording says where it comes from.
      expect(recorded.source.join(' '), name).toMatch(/[a-z0-9-]+\/[a-z0-9_.-]+[#/]|https:\/\//i);
      server.enqueue({ kind: 'fixture', name });
      const got = await post(`${server.openaiUrl}/chat/completions`);
      expect(got.status, name).toBe(recorded.status);
      for (const [header, value] of Object.entries(recorded.headers)) expect(got.headers[header], `${name}: ${header}`).toBe(value);
      expect(got.body.equals(recorded.body), name).toBe(true);
    }
  });
});
