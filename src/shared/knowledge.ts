import { z } from 'zod';
import { ModelIdSchema } from './models.js';

/**
 * Knowledge bases (docs/rules/knowledge.md, issue 20): documents split into chunks,
 * searched by words (BM25) and, where an embedding model is chosen, by
 * meaning. Shared by the core, the settings tools, the CLI and the UI.
 */

/** A search's query, at most: a question, not a document (a longer one would be sent whole to the embedding model and echoed back). */
export const MAX_QUERY_CHARS = 2000;

/** A base's id is also its folder's name under the data home, so it is kept to a safe alphabet. */
export const KnowledgeBaseIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: 'must start with a lower-case letter or digit and use only a-z, 0-9, "_" or "-" (at most 64)' });

export const DEFAULT_CHUNK_SIZE = 800;
export const DEFAULT_CHUNK_OVERLAP = 100;

const settingsFields = {
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(200),
  description: z.string().max(4000),
  /** A model entry whose API offers embeddings (OpenAI-compatible `/embeddings`), or null: search by words only. */
  embeddingModel: ModelIdSchema.nullable(),
  /** Characters per chunk (a chunk ends early at a heading, a paragraph or a sentence). */
  chunkSize: z.number().int().min(100).max(20_000),
  /** Characters a chunk repeats of the one before it, so a sentence cut at the edge is whole in one of them. */
  chunkOverlap: z.number().int().min(0).max(5_000),
};

/**
 * Where a base's chunks live (issue 44, docs/using/knowledge-engine.md): absent, in the
 * embedded store beside base.json; `postgres`, on a team's PostgreSQL with
 * pgvector at `url`, in the tables named by `collection` (several machines
 * may share one). The URL carries no password: that is kept in the key
 * store, under the base's id.
 */
export const PostgresUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol), { error: 'must be a postgres:// or postgresql:// URL' })
  .refine((value) => !URL.canParse(value) || new URL(value).password === '', { error: 'must not carry a password: give it separately (--password-stdin), so it is kept in the key store' });

/** Names the tables on the server (`chatos_kb_<collection>`…): short enough for PostgreSQL's 63-byte names. */
export const CollectionSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, { error: 'must start with a lower-case letter or digit and use only a-z, 0-9, "_" or "-" (at most 48)' });

export const KnowledgeEngineSettingsSchema = z.discriminatedUnion('kind', [z.object({ kind: z.literal('postgres'), url: PostgresUrlSchema, collection: CollectionSchema }).strict()]);
export type KnowledgeEngineSettings = z.infer<typeof KnowledgeEngineSettingsSchema>;

/** The engine as a create form sends it: the collection defaults to the base's id, the password goes to the key store. */
const EngineInputSchema = z.object({ kind: z.literal('postgres'), url: PostgresUrlSchema, collection: KnowledgeBaseIdSchema.optional(), password: z.string().min(1).max(1000).optional() }).strict();

const overlapBelowSize = (value: { chunkSize?: number; chunkOverlap?: number }) => value.chunkSize === undefined || value.chunkOverlap === undefined || value.chunkOverlap < value.chunkSize;
const overlapIssue = { error: 'chunkOverlap must be smaller than chunkSize', path: ['chunkOverlap'] };

export const KnowledgeBaseInputSchema = z
  .object({
    id: KnowledgeBaseIdSchema.optional(),
    name: settingsFields.name,
    description: settingsFields.description.default(''),
    embeddingModel: settingsFields.embeddingModel.default(null),
    chunkSize: settingsFields.chunkSize.default(DEFAULT_CHUNK_SIZE),
    chunkOverlap: settingsFields.chunkOverlap.default(DEFAULT_CHUNK_OVERLAP),
    engine: EngineInputSchema.optional(),
  })
  .strict()
  .refine(overlapBelowSize, overlapIssue);

/** What an update may change; the id never changes. */
export const KnowledgeBasePatchSchema = z.object(settingsFields).partial().strict();

/**
 * The most numbers a vector may hold. The largest embedding models answer
 * 4096; a server answering millions (hostile or misconfigured) would make
 * every row of a base that many floats, in memory and on disk.
 */
export const MAX_EMBEDDING_DIMENSIONS = 8192;

/** Which model the stored vectors came from; differs from `embeddingModel` until the base is re-embedded. */
export const EmbeddedWithSchema = z.object({ model: ModelIdSchema, dimensions: z.number().int().min(1).max(MAX_EMBEDDING_DIMENSIONS) }).strict();

/** A base as its folder's `base.json` keeps it and every face shows it. */
export const KnowledgeBaseSchema = z
  .object({
    id: KnowledgeBaseIdSchema,
    ...settingsFields,
    /** Absent: the embedded store. */
    engine: KnowledgeEngineSettingsSchema.optional(),
    embeddedWith: EmbeddedWithSchema.nullable(),
    counts: z.object({ files: z.number().int().min(0), chunks: z.number().int().min(0) }).strict(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();
export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>;

/** One chunk as stored: which file it came from, where in it, and its text. */
export const ChunkSchema = z.object({
  id: z.string(),
  /** The source: a file's name, or the title given with a text. */
  file: z.string(),
  /** The chunk's index within its file, from 0. */
  position: z.number().int().min(0),
  /** Character offsets in the file's extracted text. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  /** The Markdown heading the chunk sits under, if any. */
  heading: z.string(),
  text: z.string(),
});
export type Chunk = z.infer<typeof ChunkSchema>;

export const SearchHitSchema = ChunkSchema.extend({ score: z.number() });
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  /** `hybrid`: words and meaning; `lexical`: words only (no model, or vectors from another model until re-embedded). */
  mode: z.enum(['hybrid', 'lexical']),
  hits: z.array(SearchHitSchema),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const FileCountSchema = z.object({ file: z.string(), chunks: z.number().int() });

/** One page of a base's chunks (ordered by file, then position), with every file's chunk count. */
export const DocumentPageSchema = z.object({
  files: z.array(FileCountSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  chunks: z.array(ChunkSchema),
});
export type DocumentPage = z.infer<typeof DocumentPageSchema>;

/** What an add or a re-embed reports while it runs. */
export const IngestProgressSchema = z.object({
  phase: z.enum(['reading', 'chunking', 'embedding', 'saving']),
  file: z.string().optional(),
  done: z.number().int(),
  total: z.number().int(),
  /** Milliseconds the phase is expected to take still, from its pace so far (embedding, once a batch is back). */
  etaMs: z.number().optional(),
});
export type IngestProgress = z.infer<typeof IngestProgressSchema>;

export const AddResultSchema = z.object({
  file: z.string(),
  chunks: z.number().int(),
  replaced: z.number().int(),
  embedded: z.boolean(),
  /** What reading the file changed, for the user (an HTML page's elements nested too deep, flattened). */
  notes: z.array(z.string()).optional(),
});
export type AddResult = z.infer<typeof AddResultSchema>;

/** File types a base reads (by extension). */
export const KNOWLEDGE_FILE_TYPES = ['.txt', '.md', '.markdown', '.html', '.htm', '.pdf'] as const;
export type KnowledgeFileType = (typeof KNOWLEDGE_FILE_TYPES)[number];
