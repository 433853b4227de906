import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/core/models/providers/modelClient.js';
import { userText } from '../../src/core/models/providers/modelRequest.js';
import { listModelNames } from '../../src/core/models/modelCatalog.js';
import { createEmbedder } from '../../src/core/knowledge/embedder.js';
import { API_KINDS, type ApiKind, type ModelEntry } from '../../src/shared/models.js';

/**
 * A stored key never reaches another origin through a redirect (a boundary
 * issue 25 lists as held). A provider's base URL that answers with a 307 to
 * another origin (here localhost, not 127.0.0.1: another origin for fetch)
 * must not get the key sent there, whatever header the API carries it in
 * (`Authorization: Bearer` for OpenAI, `x-api-key` for Anthropic).
 */

const KEY = 'sk-redirect-0123456789abcdef';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** `elsewhere` records every request's headers; `provider` redirects every request there (307 keeps the method and body). */
async function redirectingProvider() {
  const seen: http.IncomingHttpHeaders[] = [];
  const elsewhere = await listen((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'who are you', type: 'authentication_error' } }));
  });
  const provider = await listen((req, res) => {
    req.resume();
    res.writeHead(307, { location: `http://localhost:${elsewhere}${req.url}` }).end();
  });
  return { seen, url: `http://127.0.0.1:${provider}` };
}

const entry = (api: ApiKind, url: string): ModelEntry => ({ id: 'm', name: 'M', api, baseUrl: api === 'anthropic' ? url : `${url}/v1`, model: 'test-model', vision: false, key: { kind: 'stored' } });
const leaked = (seen: http.IncomingHttpHeaders[]) =>
  seen.flatMap((headers) =>
    Object.entries(headers)
      .filter(([, value]) => String(value).includes(KEY))
      .map(([name]) => name),
  );

describe('a stored key and a redirect to another origin', { timeout: 60_000 }, () => {
  for (const api of API_KINDS) {
    it(`a chat request (${api}) does not carry the key to the other origin`, async () => {
      const { seen, url } = await redirectingProvider();
      await (async () => {
        for await (const _ of createModelClient(entry(api, url), KEY).stream({ messages: [userText('?')] })) void _;
      })().catch(() => {});
      expect(seen.length, 'the request followed the redirect').toBeGreaterThan(0);
      expect(leaked(seen), `the key reached the other origin in ${api}'s request`).toEqual([]);
    });

    it(`listing the models (${api}) does not carry the key to the other origin`, async () => {
      const { seen, url } = await redirectingProvider();
      await listModelNames({ api, baseUrl: entry(api, url).baseUrl, apiKey: KEY }).catch(() => {});
      expect(leaked(seen), `the key reached the other origin listing ${api}'s models`).toEqual([]);
    });
  }

  it('embedding does not carry the key to the other origin', async () => {
    const { seen, url } = await redirectingProvider();
    await createEmbedder(entry('openai', url), KEY, { retries: 0 })
      .embed(['a text'], undefined)
      .catch(() => {});
    expect(seen.length, 'the request followed the redirect').toBeGreaterThan(0);
    expect(leaked(seen)).toEqual([]);
  });
});
