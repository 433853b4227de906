import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../src/core/host.js';
import { runKnowledgeSearch } from '../../../src/core/knowledge/knowledgeChatTool.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import type { SearchHit } from '../../../src/shared/knowledge.js';
import { startPgServer, type PgServer } from '../../helpers/pgliteServer.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { tempDir } from '../../helpers/tempDir.js';
import { disposeHosts, knowledgeError, startedHost, writeFixtures } from './knowledgeFixtures.js';

/**
 * A knowledge base on a shared engine (issue 44): PostgreSQL with pgvector,
 * a real server in its own process (PGlite over the wire protocol, see
 * test/helpers/pgliteServer.ts) that the engine reaches with node-postgres
 * as it would a team's server.
 */

const QUERIES = ['ladybugs aphids', 'volcano basalt cliffs', 'water the garden in the morning', 'compost', 'tide pools crabs'];

let server: PgServer;
/** The embedding server: the helper closes it after each test, so each test starts its own. */
let provider: Awaited<ReturnType<typeof startProviderServer>>;
const others: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startPgServer();
});
beforeEach(async () => {
  provider = await startProviderServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await disposeHosts();
  for (const other of others.splice(0)) await other.stop();
});

let collections = 0;
/** A collection of its own per base, so the tests share one server without sharing tables. */
const collection = () => `t${++collections}`;

async function hostWithModel(dims = 16): Promise<Host> {
  const host = await startedHost();
  await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: `embed-${dims}d` });
  return host;
}

/** What a hit cites (its source and place), and its score to a few digits: the same on either engine. */
const cited = (hits: SearchHit[]) => hits.map((h) => ({ file: h.file, position: h.position, start: h.start, end: h.end, heading: h.heading, text: h.text, score: Number(h.score.toFixed(4)) }));

async function sqlOn(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe('a base on PostgreSQL with pgvector', () => {
  it('ranks and cites as the embedded store does, by words and by meaning', async () => {
    const host = await hostWithModel();
    const files = writeFixtures(tempDir('chatos-kbpg-files-'));
    for (const model of ['embed', null]) {
      const settings = { embeddingModel: model, chunkSize: 120, chunkOverlap: 0 };
      const embedded = await host.knowledge.create({ name: `Embedded ${model ?? 'words'}`, ...settings });
      const shared = await host.knowledge.create({ name: `Shared ${model ?? 'words'}`, ...settings, engine: { kind: 'postgres', url: server.url, collection: collection() } });
      expect(shared.engine).toMatchObject({ kind: 'postgres', url: server.url });
      const [a, b] = [await host.knowledge.addFiles(embedded.id, [files.md, files.pdf]), await host.knowledge.addFiles(shared.id, [files.md, files.pdf])];
      expect(b).toEqual(a);
      expect((await host.knowledge.get(shared.id)).counts).toEqual((await host.knowledge.get(embedded.id)).counts);
      for (const query of QUERIES) {
        const [mine, theirs] = [await host.knowledge.search(embedded.id, query, { limit: 5 }), await host.knowledge.search(shared.id, query, { limit: 5 })];
        expect(theirs.mode, query).toBe(model ? 'hybrid' : 'lexical');
        expect(theirs.hits.length, query).toBeGreaterThan(0);
        expect(cited(theirs.hits), query).toEqual(cited(mine.hits));
      }
    }
  });

  it('lists, removes, re-embeds and replaces as the embedded store does', async () => {
    const host = await hostWithModel();
    const files = writeFixtures(tempDir('chatos-kbpg-files-'));
    const base = await host.knowledge.create({ name: 'Shared', embeddingModel: 'embed', chunkSize: 120, chunkOverlap: 0, engine: { kind: 'postgres', url: server.url, collection: collection() } });
    await host.knowledge.addFiles(base.id, [files.md, files.pdf]);
    const page = await host.knowledge.listDocuments(base.id);
    expect(page.files.map((f) => f.file)).toEqual(['field-notes.pdf', 'guide.md']);
    const again = await host.knowledge.addFile(base.id, files.md);
    expect(again.replaced).toBe(page.files.find((f) => f.file === 'guide.md')!.chunks);
    await host.knowledge.deleteChunk(base.id, page.chunks[0]!.id);
    expect((await host.knowledge.get(base.id)).counts.chunks).toBe(page.total - 1);
    expect(await host.knowledge.deleteFile(base.id, 'guide.md')).toBe(again.chunks);
    await knowledgeError(host.knowledge.deleteFile(base.id, 'guide.md'), 'KB_FILE_NOT_FOUND');
    // Another model of another length: every vector replaced in one transaction, the column retyped.
    await host.models.create({ id: 'embed-24', name: 'Embed 24', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-24d' });
    const updated = await host.knowledge.update(base.id, { embeddingModel: 'embed-24' });
    expect(updated.embeddedWith).toEqual({ model: 'embed-24', dimensions: 24 });
    const found = await host.knowledge.search(base.id, 'volcano basalt', { limit: 3 });
    expect(found.mode).toBe('hybrid');
    expect(found.hits[0]!.text).toMatch(/volcan/i);
  });

  it('is shared: a second machine attached to the collection finds what the first added, and refuses vectors of another length', async () => {
    const first = await hostWithModel(16);
    const files = writeFixtures(tempDir('chatos-kbpg-files-'));
    const name = collection();
    const base = await first.knowledge.create({ name: 'Team docs', embeddingModel: 'embed', chunkSize: 120, chunkOverlap: 0, engine: { kind: 'postgres', url: server.url, collection: name } });
    await first.knowledge.addFiles(base.id, [files.md, files.pdf]);
    const second = await hostWithModel(16);
    const attached = await second.knowledge.create({ name: 'Team docs', embeddingModel: 'embed', chunkSize: 120, chunkOverlap: 0, engine: { kind: 'postgres', url: server.url, collection: name } });
    expect(attached.counts).toEqual((await first.knowledge.get(base.id)).counts);
    expect(attached.embeddedWith).toEqual({ model: 'embed', dimensions: 16 });
    expect(cited((await second.knowledge.search(attached.id, 'ladybugs')).hits)).toEqual(cited((await first.knowledge.search(base.id, 'ladybugs')).hits));

    // The second machine re-embeds the collection with a model of 24 numbers; the first still embeds with 16.
    await second.models.create({ id: 'embed-24', name: 'Embed 24', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-24d' });
    await second.knowledge.update(attached.id, { embeddingModel: 'embed-24' });
    const before = (await first.knowledge.listDocuments(base.id)).total;
    const error = await knowledgeError(first.knowledge.addText(base.id, 'Moles dig tunnels under the lawn.', 'moles'), 'KB_INVALID');
    expect(error.message).toContain(`knowledge base "${base.id}" holds vectors of 24 dimensions`);
    expect(error.message).toContain('answered 16, so nothing was added');
    expect(error.hint).toContain(`chatos kb reembed ${base.id}`);
    expect((await first.knowledge.listDocuments(base.id)).total).toBe(before);
    // Its search still answers, by words, saying why.
    const found = await first.knowledge.search(base.id, 'ladybugs');
    expect(found).toMatchObject({ mode: 'lexical', note: expect.stringContaining('re-embed') });
    expect(found.hits.length).toBeGreaterThan(0);
  });

  it("is searched by an agent's tool as an embedded base is: cited by source, and only when attached", async () => {
    const host = await hostWithModel();
    const files = writeFixtures(tempDir('chatos-kbpg-files-'));
    const attached = await host.knowledge.create({
      name: 'Attached',
      embeddingModel: 'embed',
      chunkSize: 120,
      chunkOverlap: 0,
      engine: { kind: 'postgres', url: server.url, collection: collection() },
    });
    const other = await host.knowledge.create({ name: 'Other', engine: { kind: 'postgres', url: server.url, collection: collection() } });
    await host.knowledge.addFiles(attached.id, [files.md]);
    await host.knowledge.addFiles(other.id, [files.md]);
    const search = (id: string, query: string, options: { limit?: number }) => host.knowledge.search(id, query, options);
    const found = await runKnowledgeSearch(search, [attached.id], { query: 'ladybugs eat aphids' });
    expect(found.ok).toBe(true);
    expect(found.text).toMatch(/hybrid search/);
    expect(found.text).toMatch(/1\. source \[guide\.md #\d+\] under "Pests"/);
    // The host's grant decides: a base on the same server that is not attached is refused before the engine is asked.
    expect(await runKnowledgeSearch(search, [attached.id], { knowledgeBaseId: other.id, query: 'ladybugs' })).toEqual({
      ok: false,
      text: `knowledge base "${other.id}" is not one this agent may search; one of: ${attached.id}`,
    });
  });

  it('keeps the password in the key store, never in base.json', async () => {
    const home = tempDir('chatos-kbpg-home-');
    const host = await startedHost(home);
    const base = await host.knowledge.create({ name: 'Secret', engine: { kind: 'postgres', url: server.url, collection: collection(), password: 'hunter2-team' } });
    const folder = path.join(home, 'chatos', 'knowledge', base.id);
    expect(fs.readFileSync(path.join(folder, 'base.json'), 'utf8')).not.toContain('hunter2');
    expect(JSON.stringify(base)).not.toContain('hunter2');
    expect(await internalsOf(host).secrets.get(`kb:${base.id}`)).toBe('hunter2-team');
    await knowledgeError(host.knowledge.create({ name: 'In URL', engine: { kind: 'postgres', url: `postgres://chatos:hunter2@127.0.0.1:${server.port}/postgres` } }), 'KB_INVALID');
    await host.knowledge.delete(base.id);
    expect(await internalsOf(host).secrets.get(`kb:${base.id}`)).toBeUndefined();
  });
});

describe('a shared engine that fails', () => {
  it('down: says which base and what to do, loses nothing, and leaves other bases searchable', async () => {
    const dataDir = tempDir('chatos-kbpg-data-');
    let own = await startPgServer({ dataDir });
    others.push(own);
    const host = await startedHost();
    const files = writeFixtures(tempDir('chatos-kbpg-files-'));
    const local = await host.knowledge.create({ name: 'Local notes' });
    await host.knowledge.addFile(local.id, files.md);
    const shared = await host.knowledge.create({ name: 'Shared notes', engine: { kind: 'postgres', url: own.url, collection: 'notes' } });
    await host.knowledge.addFile(shared.id, files.md);
    const held = await host.knowledge.search(shared.id, 'compost');

    await own.stop();
    const add = await knowledgeError(host.knowledge.addFile(shared.id, files.pdf), 'KB_ENGINE_DOWN');
    expect(add.message).toContain(`knowledge base "${shared.id}"`);
    expect(add.message).toContain(`127.0.0.1:${own.port}`);
    expect(add.message).toContain('nothing was changed');
    expect(add.hint).toMatch(/start that server/);
    await knowledgeError(host.knowledge.search(shared.id, 'compost'), 'KB_ENGINE_DOWN');
    expect((await host.knowledge.search(local.id, 'compost')).hits.length).toBeGreaterThan(0);
    expect((await host.knowledge.list()).map((b) => b.id)).toEqual([local.id, shared.id].sort());
    // A base on a server that is not there is not created at all.
    await knowledgeError(host.knowledge.create({ name: 'Nowhere', engine: { kind: 'postgres', url: own.url, collection: 'nowhere' } }), 'KB_ENGINE_DOWN');
    expect((await host.knowledge.list()).map((b) => b.name)).not.toContain('Nowhere');

    // Back up on the same port with its data: the base holds what it held, and takes the add it refused.
    own = await startPgServer({ dataDir, port: own.port });
    others.push(own);
    expect(cited((await host.knowledge.search(shared.id, 'compost')).hits)).toEqual(cited(held.hits));
    await host.knowledge.addFile(shared.id, files.pdf);
    expect((await host.knowledge.get(shared.id)).counts.files).toBe(2);
  });

  it('answers garbage: a server that is not PostgreSQL, or tables that are not ours, are refused by name', async () => {
    // A real TCP server that answers a PostgreSQL client with a frame of no known kind.
    const sockets = new Set<net.Socket>();
    const garbage = net.createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => socket.write(Buffer.from([0x01, 0, 0, 0, 8, 0xde, 0xad, 0xbe, 0xef])));
    });
    garbage.listen(0, '127.0.0.1');
    await new Promise((resolve) => garbage.once('listening', resolve));
    others.push({
      stop: () =>
        new Promise<void>((resolve) => {
          garbage.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    });
    const host = await startedHost();
    const port = (garbage.address() as net.AddressInfo).port;
    const notPg = await knowledgeError(host.knowledge.create({ id: 'odd', name: 'Odd', engine: { kind: 'postgres', url: `postgres://chatos@127.0.0.1:${port}/postgres` } }), 'KB_ENGINE_INVALID');
    expect(notPg.message).toContain('knowledge base "odd"');
    expect(notPg.message).toMatch(/does not answer as PostgreSQL/);

    // Someone else's table under the name the collection would use: refused, and left as it was.
    await sqlOn(server.url, "CREATE TABLE chatos_kb_theirs(id serial PRIMARY KEY, body text); INSERT INTO chatos_kb_theirs(body) VALUES ('keep me')");
    const theirs = await knowledgeError(host.knowledge.create({ id: 'mine', name: 'Mine', engine: { kind: 'postgres', url: server.url, collection: 'theirs' } }), 'KB_ENGINE_INVALID');
    expect(theirs.message).toContain('knowledge base "mine"');
    expect(theirs.message).toMatch(/not a ChatOS knowledge base/);
    expect(theirs.hint).toMatch(/another --collection/);
    expect((await sqlOn(server.url, 'SELECT body FROM chatos_kb_theirs')).rows).toEqual([{ body: 'keep me' }]);
    expect(await host.knowledge.list()).toEqual([]);
  });
});
