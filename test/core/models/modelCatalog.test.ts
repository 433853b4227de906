import { describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/core/models/modelError.js';
import { ProviderError } from '../../../src/core/models/providers/providerError.js';
import { startTestHost } from '../../helpers/gatewayHost.js';
import { startEndlessServer } from '../../helpers/endlessServer.js';
import { startProviderServer } from '../../helpers/providerServer.js';

/** The names the model picker offers, from the provider itself: OpenAI's /v1/models, Anthropic's models list, Ollama's tags. */
describe('the model names a provider offers', { timeout: 60_000 }, () => {
  it('of a saved entry, with its key; of an address being edited, with the key typed', async () => {
    const provider = await startProviderServer({ models: ['gpt-4.1-mini', 'text-embedding-3-small', 'gpt-4.1-mini'] });
    const { host } = await startTestHost();
    await host.models.create({ id: 'openai', name: 'OpenAI', api: 'openai', baseUrl: provider.openaiUrl, model: 'gpt-4.1-mini' }, { apiKey: 'sk-catalog-1234' });
    expect(await host.models.available({ id: 'openai' })).toEqual({ names: ['gpt-4.1-mini', 'text-embedding-3-small'], source: 'models' });
    expect(provider.requests.at(-1)!.headers.authorization).toBe('Bearer sk-catalog-1234');

    expect(await host.models.available({ api: 'anthropic', baseUrl: provider.url, apiKey: 'sk-ant-typed' })).toEqual({ names: ['gpt-4.1-mini', 'text-embedding-3-small'], source: 'anthropic-models' });
    const anthropic = provider.requests.at(-1)!;
    expect(anthropic.path).toBe('/v1/models');
    expect(anthropic.headers).toMatchObject({ 'x-api-key': 'sk-ant-typed', 'anthropic-version': '2023-06-01' });
    expect(anthropic.headers).not.toHaveProperty('authorization');
  });

  it('an Ollama without /v1/models is asked for its tags; a wrong address says what failed', async () => {
    const ollama = await startProviderServer({ models: ['llama3.2:latest', 'nomic-embed-text:latest'], oldOllama: true });
    const { host } = await startTestHost();
    expect(await host.models.available({ api: 'openai', baseUrl: ollama.openaiUrl })).toEqual({ names: ['llama3.2:latest', 'nomic-embed-text:latest'], source: 'ollama-tags' });
    expect(ollama.requests.map((r) => r.path)).toEqual(['/v1/models', '/api/tags']);

    await expect(host.models.available({ api: 'openai', baseUrl: 'file:///etc' })).rejects.toBeInstanceOf(ModelError);
    const closed = await startProviderServer();
    await closed.close();
    const error = await host.models.available({ api: 'openai', baseUrl: closed.openaiUrl }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'network', network: 'refused' });
  });

  it('a model list that never ends is refused at its limit: the host stops reading and closes the connection', async () => {
    const hostile = await startEndlessServer({ head: '{"object":"list","data":[', piece: '{"id":"model","object":"model"},'.repeat(2048) });
    const { host } = await startTestHost();
    const error = await host.models.available({ api: 'openai', baseUrl: hostile.url }).catch((e: unknown) => e);
    await hostile.closed;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('the model list is larger than 4 MB; type the model name instead');
    expect(hostile.written).toBeLessThan(16 * 1024 * 1024);
  });
});
