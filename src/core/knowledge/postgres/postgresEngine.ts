import pg from 'pg';
import type { Chunk, KnowledgeBase, SearchHit } from '../../../shared/knowledge.js';
import { fuseHybrid, hybridCandidates, type Scored } from '../hybridFusion.js';
import type { KnowledgeEngine, StoreChange } from '../knowledgeEngine.js';
import { KnowledgeError } from '../knowledgeError.js';
import { normalize } from '../vectorIndex.js';
import { createWordTokenizer } from '../wordTokenizer.js';
import { postgresFailure } from './postgresFailure.js';
import { collectionTables, POSTGRES_FORMAT, type CollectionTables } from './postgresTables.js';

const tokenize = createWordTokenizer();

/** Rows per INSERT: a change of thousands of chunks is a few statements, each well under the protocol's limits. */
const INSERT_BATCH = 500;
/** A server that takes this long to accept a connection is treated as down, rather than holding the caller. */
const CONNECT_TIMEOUT_MS = 10_000;
/** One statement's limit: a server that stops answering mid-change fails the change (rolled back) instead of hanging it. */
const QUERY_TIMEOUT_MS = 120_000;
/** BM25's constants, FTS5's (fts5_aux.c), so a base ranks the same on either engine. */
const BM25 = { k1: 1.2, b: 0.75 };

const COLUMNS = 'seq, id, file, position, start, "end", heading, text';

/** A chunk as the server sends it: `seq` is a bigint, which node-postgres gives as a string. */
type ChunkRow = Chunk & { seq: string };

export interface PostgresEngineOptions {
  /** The base's id, for messages. */
  base: string;
  url: string;
  collection: string;
  password?: string;
}

/** A row as the server sent it, checked: a table of another shape (or a server that answers oddly) is refused, not read as chunks. */
function chunkOf(row: ChunkRow): Chunk {
  const { id, file, position, start, end, heading, text } = row;
  if (typeof id !== 'string' || typeof file !== 'string' || typeof text !== 'string' || typeof heading !== 'string' || ![position, start, end].every(Number.isInteger))
    throw new Error(`not a chunk row: ${JSON.stringify(row).slice(0, 200)}`);
  return { id, file, position, start, end, heading, text };
}

const vectorText = (vector: ArrayLike<number>) => `[${Array.from(normalize(Float32Array.from(vector))).join(',')}]`;

/** The URL as messages show it: no password (none is allowed in it), no query. */
function describe(url: string, collection: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname} (collection ${collection})`;
}

/**
 * A base on a team's PostgreSQL with pgvector (issue 44): the chunks, their
 * words (for BM25, computed in SQL over the same words and with the same
 * formula as the embedded store's FTS5) and their vectors (cosine, an HNSW
 * index) in one table per collection, a meta table beside it. Every change
 * is one transaction under an advisory lock, so a failure anywhere (the
 * server gone mid-add, a vector of the wrong length) leaves the collection
 * as it was; the search blends the two sides with hybridFusion.ts, as the
 * embedded store does. Each base has its own pool: a server that is down
 * fails that base's calls, no one else's.
 */
export class PostgresEngine implements KnowledgeEngine {
  private readonly pool: pg.Pool;
  private readonly tables: CollectionTables;
  private readonly where: string;

  private constructor(private readonly options: PostgresEngineOptions) {
    this.where = describe(options.url, options.collection);
    this.tables = collectionTables(options.collection);
    this.pool = new pg.Pool({
      connectionString: options.url,
      ...(options.password !== undefined ? { password: options.password } : {}),
      max: 2,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // An idle connection the server drops is reported here; without a listener it would end the process. The next call connects again.
    this.pool.on('error', () => {});
  }

  /** Connects and makes the collection's tables (or checks the ones there are ours): a server that is down or not fit is said so now. */
  static async open(options: PostgresEngineOptions): Promise<PostgresEngine> {
    const engine = new PostgresEngine(options);
    try {
      await engine.prepare();
      return engine;
    } catch (error) {
      await engine.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  refresh(): void {
    // Nothing is cached: every call reads the server, which another machine may have changed.
  }

  private async prepare(): Promise<void> {
    await this.transaction(async (client) => {
      const present = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
      if (present.rowCount === 0) await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      for (const statement of this.tables.create) await client.query(statement);
      const format = await this.metaValue(client, 'format');
      if (format !== POSTGRES_FORMAT) throw this.notOurs(`its meta table's format is ${JSON.stringify(format ?? null)}, not ${POSTGRES_FORMAT}`);
      // A table of the same name made by someone else: refused before anything is written to it.
      await client.query(`SELECT ${COLUMNS}, terms, embedding FROM ${this.tables.chunks} LIMIT 0`);
    });
  }

  private notOurs(why: string): KnowledgeError {
    return new KnowledgeError(
      'KB_ENGINE_INVALID',
      `knowledge base "${this.options.base}": the tables on ${this.where} are not a ChatOS knowledge base's (${why}); nothing was changed`,
      'choose another --collection for this base, or ask whoever made those tables; ChatOS does not change tables it did not make',
    );
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw postgresFailure(this.options.base, this.where, error);
    }
  }

  /** `work` in one transaction (rolled back on any failure), its errors named for the base. */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>, write = false): Promise<T> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      if (write) await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.tables.lockKey]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      // A connection that failed at the socket is not given back to the pool.
      if (!(error instanceof pg.DatabaseError) && !(error instanceof KnowledgeError)) broken ??= error as Error;
      throw postgresFailure(this.options.base, this.where, error);
    } finally {
      client.release(broken);
    }
  }

  private async read<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  private async metaValue(client: pg.PoolClient, key: string): Promise<string | undefined> {
    const rows = (await client.query<{ value: string }>(`SELECT value FROM ${this.tables.meta} WHERE key = $1`, [key])).rows;
    return rows[0]?.value;
  }

  private async embeddedWithOn(client: pg.PoolClient): Promise<KnowledgeBase['embeddedWith']> {
    const model = await this.metaValue(client, 'model');
    const dimensions = Number(await this.metaValue(client, 'dimensions'));
    return model && Number.isInteger(dimensions) && dimensions > 0 ? { model, dimensions } : null;
  }

  embeddedWith(): Promise<KnowledgeBase['embeddedWith']> {
    return this.read((client) => this.embeddedWithOn(client));
  }

  counts(): Promise<{ files: number; chunks: number }> {
    return this.read(async (client) => {
      const row = (await client.query<{ files: string; chunks: string }>(`SELECT count(DISTINCT file) AS files, count(*) AS chunks FROM ${this.tables.chunks}`)).rows[0]!;
      return { files: Number(row.files), chunks: Number(row.chunks) };
    });
  }

  get(id: string): Promise<Chunk | undefined> {
    return this.read(async (client) => {
      const row = (await client.query<ChunkRow>(`SELECT ${COLUMNS} FROM ${this.tables.chunks} WHERE id = $1`, [id])).rows[0];
      return row && chunkOf(row);
    });
  }

  all(): Promise<Chunk[]> {
    return this.read(async (client) => (await client.query<ChunkRow>(`SELECT ${COLUMNS} FROM ${this.tables.chunks} ORDER BY seq`)).rows.map(chunkOf));
  }

  files(): Promise<{ file: string; chunks: number }[]> {
    return this.read(async (client) =>
      (await client.query<{ file: string; chunks: string }>(`SELECT file, count(*) AS chunks FROM ${this.tables.chunks} GROUP BY file ORDER BY file`)).rows.map((r) => ({
        file: r.file,
        chunks: Number(r.chunks),
      })),
    );
  }

  page(file: string | undefined, offset: number, limit: number): Promise<{ total: number; chunks: Chunk[] }> {
    return this.read(async (client) => {
      const where = file !== undefined ? 'WHERE file = $3' : '';
      const args = file !== undefined ? [limit, offset, file] : [limit, offset];
      const rows = (await client.query<ChunkRow>(`SELECT ${COLUMNS} FROM ${this.tables.chunks} ${where} ORDER BY file, position LIMIT $1 OFFSET $2`, args)).rows;
      const total = (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.tables.chunks} ${file !== undefined ? 'WHERE file = $1' : ''}`, file !== undefined ? [file] : [])).rows[0]!.n;
      return { total: Number(total), chunks: rows.map(chunkOf) };
    });
  }

  chunkCounts(names: Iterable<string>): Promise<Map<string, number>> {
    return this.read(async (client) => {
      const rows = (await client.query<{ file: string; n: string }>(`SELECT file, count(*) AS n FROM ${this.tables.chunks} WHERE file = ANY($1::text[]) GROUP BY file`, [[...new Set(names)]])).rows;
      return new Map(rows.map((r) => [r.file, Number(r.n)]));
    });
  }

  /**
   * One change in one transaction, as the embedded store writes it: every
   * vector checked against the collection's dimensions (as the server holds
   * them now: another machine may have written since) before anything is
   * written, so a vector of another length refuses the whole change.
   */
  async write(change: StoreChange): Promise<string[]> {
    await this.transaction(async (client) => {
      const held = await this.embeddedWithOn(client);
      const dimensions = change.embeddedWith?.dimensions ?? held?.dimensions ?? null;
      const chunks = change.chunks ?? [];
      if (change.vectors) {
        if (change.vectors.length !== chunks.length) throw new Error(`${change.vectors.length} vectors for ${chunks.length} chunks`);
        const wrong = change.vectors.find((v) => v.length !== dimensions);
        if (wrong)
          throw new KnowledgeError(
            'KB_INVALID',
            `knowledge base "${this.options.base}" holds vectors of ${dimensions ?? 'no'} dimensions on ${this.where}; a vector of ${wrong.length} was refused and nothing was added`,
            `re-embed the base with one model (chatos kb reembed ${this.options.base}), or choose a model that answers ${dimensions} numbers`,
          );
      }
      let rows = 0;
      let terms = 0;
      for (const [column, values] of [
        ['file', change.files],
        ['id', change.ids],
      ] as const) {
        if (!values?.length) continue;
        const removed = (await client.query<{ n: number }>(`DELETE FROM ${this.tables.chunks} WHERE ${column} = ANY($1::text[]) RETURNING cardinality(terms) AS n`, [[...values]])).rows;
        rows -= removed.length;
        terms -= removed.reduce((sum, r) => sum + Number(r.n), 0);
      }
      if (change.embeddedWith !== undefined && (change.embeddedWith?.dimensions ?? null) !== (held?.dimensions ?? null))
        for (const statement of this.tables.vectorType(change.embeddedWith?.dimensions ?? null)) await client.query(statement);
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        const batch = chunks.slice(i, i + INSERT_BATCH);
        const words = batch.map((chunk) => tokenize(chunk.text));
        const vectors = change.vectors?.slice(i, i + INSERT_BATCH).map(vectorText) ?? batch.map(() => null);
        // Words hold only letters, digits and marks (wordTokenizer.ts), so a space joins them unambiguously.
        await client.query(
          `INSERT INTO ${this.tables.chunks}(id, file, position, start, "end", heading, text, terms, embedding)
           SELECT id, file, position, start, "end", heading, text, string_to_array(terms, ' '), embedding::vector
           FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[])
             AS r(id, file, position, start, "end", heading, text, terms, embedding)`,
          [
            batch.map((c) => c.id),
            batch.map((c) => c.file),
            batch.map((c) => c.position),
            batch.map((c) => c.start),
            batch.map((c) => c.end),
            batch.map((c) => c.heading),
            batch.map((c) => c.text),
            words.map((w) => w.join(' ')),
            vectors,
          ],
        );
        rows += batch.length;
        terms += words.reduce((sum, w) => sum + w.length, 0);
      }
      await this.addStats(client, rows, terms);
      if (change.embeddedWith !== undefined) await this.setModel(client, change.embeddedWith);
    }, true);
    return [];
  }

  private async addStats(client: pg.PoolClient, rows: number, terms: number): Promise<void> {
    if (rows === 0 && terms === 0) return;
    await client.query(`UPDATE ${this.tables.meta} SET value = (value::bigint + CASE key WHEN 'rows' THEN $1::bigint ELSE $2::bigint END)::text WHERE key IN ('rows', 'terms')`, [rows, terms]);
  }

  private async setModel(client: pg.PoolClient, embeddedWith: KnowledgeBase['embeddedWith']): Promise<void> {
    if (!embeddedWith) {
      await client.query(`DELETE FROM ${this.tables.meta} WHERE key IN ('model', 'dimensions')`);
      return;
    }
    await client.query(`INSERT INTO ${this.tables.meta}(key, value) VALUES ('model', $1), ('dimensions', $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      embeddedWith.model,
      String(embeddedWith.dimensions),
    ]);
  }

  replaceVectors(embeddedWith: KnowledgeBase['embeddedWith'], vectors?: ReadonlyMap<string, readonly number[]>): Promise<void> {
    return this.transaction(async (client) => {
      const dimensions = embeddedWith && vectors ? embeddedWith.dimensions : null;
      // Emptied first: the column changes type, and chunks left out of `vectors` keep none rather than the old model's.
      await client.query(`UPDATE ${this.tables.chunks} SET embedding = NULL WHERE embedding IS NOT NULL`);
      for (const statement of this.tables.vectorType(dimensions)) await client.query(statement);
      const entries = dimensions ? [...vectors!] : [];
      for (let i = 0; i < entries.length; i += INSERT_BATCH) {
        const batch = entries.slice(i, i + INSERT_BATCH);
        const wrong = batch.find(([, v]) => v.length !== dimensions);
        if (wrong) throw new Error(`a vector of ${wrong[1].length} numbers where the model answered ${dimensions}`);
        await client.query(`UPDATE ${this.tables.chunks} AS c SET embedding = v.embedding::vector FROM unnest($1::text[], $2::text[]) AS v(id, embedding) WHERE c.id = v.id`, [
          batch.map(([id]) => id),
          batch.map(([, v]) => vectorText(v)),
        ]);
      }
      await this.setModel(client, dimensions ? embeddedWith : null);
    }, true);
  }

  /**
   * BM25 over the words (FTS5's formula over the same words, so the text
   * side ranks as the embedded store's does); with a query vector, blended
   * with cosine similarity through the shared fusion. One read transaction:
   * the two sides see the same rows.
   */
  search(query: string, limit: number, vector?: readonly number[]): Promise<SearchHit[]> {
    return this.read(async (client) => {
      const words = [...new Set(tokenize(query))];
      if (!vector)
        return this.hits(
          client,
          (await this.textHits(client, words, limit)).map((r) => ({ key: r.key, score: r.score })),
        );
      const held = await this.embeddedWithOn(client);
      if (held?.dimensions !== vector.length)
        throw new KnowledgeError(
          'KB_INVALID',
          `knowledge base "${this.options.base}": its vectors on ${this.where} have ${held?.dimensions ?? 'no'} dimensions, the query's ${vector.length}`,
          `re-embed the base with its model (chatos kb reembed ${this.options.base}); another machine may have re-embedded it with another`,
        );
      const candidates = hybridCandidates(limit);
      const text = await this.textHits(client, words, candidates);
      const near = await this.nearest(client, vector, candidates);
      return this.hits(client, fuseHybrid(text, near, limit));
    });
  }

  private async textHits(client: pg.PoolClient, words: string[], limit: number): Promise<Scored<string>[]> {
    if (words.length === 0) return [];
    const { chunks, meta } = this.tables;
    const { k1, b } = BM25;
    const rows = (
      await client.query<{ seq: string; score: number }>(
        `WITH q AS (SELECT DISTINCT unnest($1::text[]) AS term),
         stats AS (SELECT (SELECT value::float8 FROM ${meta} WHERE key = 'rows') AS n, (SELECT value::float8 FROM ${meta} WHERE key = 'terms') AS total),
         idf AS (
           SELECT q.term, greatest(ln((stats.n - d.hits + 0.5) / (d.hits + 0.5)), 1e-6) AS idf
           FROM q CROSS JOIN stats CROSS JOIN LATERAL (SELECT count(*)::float8 AS hits FROM ${chunks} WHERE terms @> ARRAY[q.term]) AS d)
         SELECT c.seq, sum(idf.idf * (tf.n * ${k1 + 1}) / (tf.n + ${k1} * (${1 - b} + ${b} * cardinality(c.terms) / nullif(stats.total / nullif(stats.n, 0), 0))))::float8 AS score
         FROM ${chunks} AS c CROSS JOIN stats CROSS JOIN idf
         CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM unnest(c.terms) AS t(word) WHERE t.word = idf.term) AS tf
         WHERE c.terms && $1::text[]
         GROUP BY c.seq ORDER BY score DESC, c.seq LIMIT $2`,
        [words, limit],
      )
    ).rows;
    return rows.map((r) => ({ key: String(r.seq), score: Number(r.score) }));
  }

  /** The `limit` rows nearest `vector` by cosine similarity (HNSW, asked for enough candidates: its default stops at 40). */
  private async nearest(client: pg.PoolClient, vector: readonly number[], limit: number): Promise<Scored<string>[]> {
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(100, limit * 2))}`);
    const rows = (
      await client.query<{ seq: string; score: number | null }>(
        `SELECT seq, 1 - (embedding <=> $1::vector) AS score FROM ${this.tables.chunks} WHERE embedding IS NOT NULL ORDER BY embedding <=> $1::vector LIMIT $2`,
        [vectorText(vector), limit],
      )
    ).rows;
    return rows.flatMap((r) => (r.score === null ? [] : [{ key: String(r.seq), score: Number(r.score) }]));
  }

  private async hits(client: pg.PoolClient, ranked: Scored<string>[]): Promise<SearchHit[]> {
    if (ranked.length === 0) return [];
    const rows = (await client.query<ChunkRow>(`SELECT ${COLUMNS} FROM ${this.tables.chunks} WHERE seq = ANY($1::bigint[])`, [ranked.map((r) => r.key)])).rows;
    const bySeq = new Map(rows.map((row) => [String(row.seq), row]));
    return ranked.flatMap((r) => {
      const row = bySeq.get(r.key);
      return row ? [{ ...chunkOf(row), score: r.score }] : [];
    });
  }
}
