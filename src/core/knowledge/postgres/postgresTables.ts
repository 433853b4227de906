/** What the meta table's `format` row holds in a collection ChatOS made. */
export const POSTGRES_FORMAT = 'chatos-knowledge-postgres/1';

/**
 * pgvector's HNSW index takes vectors of at most this many dimensions;
 * longer ones are searched by an exact scan (correct, slower).
 */
const HNSW_MAX_DIMENSIONS = 2000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The SQL of one collection's tables: `chatos_kb_<collection>` (chunks) and `…_meta`, with their indexes. */
export function collectionTables(collection: string) {
  const prefix = `chatos_kb_${collection}`;
  const chunks = quoted(prefix);
  const meta = quoted(`${prefix}_meta`);
  const byFile = quoted(`${prefix}_f`);
  const byTerms = quoted(`${prefix}_t`);
  const byVector = quoted(`${prefix}_v`);
  return {
    chunks,
    meta,
    /** The advisory lock every change takes: one writer per collection, across machines. */
    lockKey: prefix,
    /**
     * `terms` is the chunk's words as wordTokenizer.ts cuts them (every
     * occurrence, in order): the same words the embedded store's FTS5 index
     * holds, so BM25 is computed over the same counts. The vector column is
     * typed with its dimensions once the first vectors arrive (HNSW needs it).
     */
    create: [
      `CREATE TABLE IF NOT EXISTS ${meta}(key text PRIMARY KEY, value text NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${chunks}(seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, file text NOT NULL, position integer NOT NULL,
        start integer NOT NULL, "end" integer NOT NULL, heading text NOT NULL, text text NOT NULL, terms text[] NOT NULL, embedding vector)`,
      `CREATE INDEX IF NOT EXISTS ${byFile} ON ${chunks}(file, position)`,
      `CREATE INDEX IF NOT EXISTS ${byTerms} ON ${chunks} USING gin(terms)`,
      `INSERT INTO ${meta}(key, value) VALUES ('format', '${POSTGRES_FORMAT}'), ('rows', '0'), ('terms', '0') ON CONFLICT (key) DO NOTHING`,
    ],
    /** The vector column retyped to `dimensions` (none: untyped, emptied), and its index made again to match. */
    vectorType(dimensions: number | null): string[] {
      return [
        `DROP INDEX IF EXISTS ${byVector}`,
        ...(dimensions ? [] : [`UPDATE ${chunks} SET embedding = NULL WHERE embedding IS NOT NULL`]),
        `ALTER TABLE ${chunks} ALTER COLUMN embedding TYPE vector${dimensions ? `(${dimensions})` : ''}`,
        ...(dimensions && dimensions <= HNSW_MAX_DIMENSIONS ? [`CREATE INDEX ${byVector} ON ${chunks} USING hnsw (embedding vector_cosine_ops)`] : []),
      ];
    },
  };
}
export type CollectionTables = ReturnType<typeof collectionTables>;
