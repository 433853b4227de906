import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApiService } from '../../../src/api/hostApiService.js';
import type { Host } from '../../../src/core/host.js';
import { startProviderServer, type ProviderServer } from '../../helpers/providerServer.js';
import { startTestHost, textOf } from '../../helpers/gatewayHost.js';

/**
 * Memories found by meaning (docs/using/memory.md): with a memory
 * embedding model set in the settings, the faces' search and an agent's
 * memory_recall rank memories by their vectors from a real embeddings
 * endpoint, so "user preferences" finds "I prefer short answers", which
 * the words alone never find. A memory's vector is asked once; a model
 * that cannot be reached falls back to words and says so.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };
const MEMORIES = ['I prefer short answers.', 'Stand-up is at 9:30.', 'The cat is named Miso.'];

let provider: ProviderServer;

beforeAll(async () => {
  provider = await startProviderServer({ shared: true, models: ['embed'] });
});

/** A host (closed after the test) with the embedding model entry and an agent holding MEMORIES. */
async function hostWithMemories(): Promise<Host> {
  const { host } = await startTestHost();
  await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed' });
  host.agents.create({ id: 'helper', name: 'Helper', memory: { enabled: true, shared: false } });
  for (const text of MEMORIES) await host.agents.memory.remember('helper', text);
  return host;
}

afterAll(async () => {
  await provider?.close();
});

const embeddingRequests = () => provider.requests.filter((r) => r.path.endsWith('/embeddings'));

describe('memory search', () => {
  it('finds by words alone until an embedding model is set, then by meaning, in the faces and in recall', async () => {
    const host = await hostWithMemories();
    const byWords = await host.agents.memory.list('helper', { query: 'user preferences' });
    expect(byWords).toMatchObject({ searchedBy: 'words', memories: [] });
    expect(embeddingRequests()).toHaveLength(0);

    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const set = await api.handle({ method: 'settings.update', params: { patch: { memoryEmbeddingModel: 'embed' } } });
    expect(set).toMatchObject({ ok: true, result: { settings: { memoryEmbeddingModel: 'embed' } } });

    const byMeaning = await host.agents.memory.list('helper', { query: 'user preferences' });
    expect(byMeaning.searchedBy).toBe('meaning');
    expect(byMeaning.memories[0]!.text).toBe('I prefer short answers.');
    // The query and the three memories, asked of the real endpoint with the entry's model.
    expect(embeddingRequests().map((r) => r.body.input)).toEqual([['user preferences'], MEMORIES.toReversed()]);

    // Recall runs the same search; only the new query is embedded (the memories' vectors are kept).
    const caller = host.agents.resolve(host.agents.get('helper')!).callerFor('main', 'c1');
    const recalled = await host.tools.call(caller, 'memory_recall', { query: 'what the user likes', limit: 1 });
    expect(textOf(recalled.result)).toContain('I prefer short answers.');
    expect(
      embeddingRequests()
        .map((r) => r.body.input)
        .slice(2),
    ).toEqual([['what the user likes']]);
  });

  it('falls back to words, saying why, when the embedding model cannot be reached', async () => {
    const host = await hostWithMemories();
    host.settings.update({ memoryEmbeddingModel: 'embed' });
    await host.models.update('embed', { id: 'embed', name: 'Embed', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'embed' });
    const listing = await host.agents.memory.list('helper', { query: 'stand-up' });
    expect(listing.searchedBy).toBe('words');
    expect(listing.note).toMatch(/^searched by words: embedding with model "embed" failed/);
    expect(listing.memories.map((m) => m.text)).toEqual(['Stand-up is at 9:30.']);
  });
});
