import { MAX_EMBEDDING_DIMENSIONS } from '../../shared/knowledge.js';
import type { ModelEntry } from '../../shared/models.js';
import { boundedFetch } from '../models/providers/boundedFetch.js';
import { classifyProviderError } from '../models/providers/providerError.js';
import { sdkClient } from '../models/providers/sdkClients.js';
import { KnowledgeError } from './knowledgeError.js';

/**
 * The embedding port: texts in, one vector each out, in order. The only
 * thing a knowledge base ever sends anywhere goes through here, to the
 * model entry the user chose for that base.
 */
export interface Embedder {
  /** The model entry's id (what `embeddedWith.model` records). */
  readonly modelId: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Texts per request: providers cap a request's inputs (OpenAI at 2048), and smaller batches report progress more often. */
export const EMBED_BATCH = 64;

/**
 * The most an answer for `count` texts may take, so an embedding server
 * that answers without end fails the request instead of filling memory
 * (docs/rules/security.md#sizes-and-depths). Each input's entry is at most
 * MAX_EMBEDDING_DIMENSIONS numbers (a base keeps no more) of up to 48 bytes
 * each as JSON text (17 digits, a sign, an exponent, a comma and a
 * pretty-printing server's indent), plus 4 KiB for the entry's own keys:
 * 25 MiB for a batch of EMBED_BATCH. The floor leaves room for the
 * envelope (model name, usage, fields a server adds) around a single
 * query's vector; the ceiling keeps a larger batch, should one be sent,
 * to what the SDK parses in about a second.
 */
const BYTES_PER_NUMBER = 48;
const BYTES_PER_ENTRY = 4 * 1024;
const MIN_ANSWER_BYTES = 1024 * 1024;
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const answerLimit = (count: number) => Math.min(MAX_ANSWER_BYTES, MIN_ANSWER_BYTES + count * (MAX_EMBEDDING_DIMENSIONS * BYTES_PER_NUMBER + BYTES_PER_ENTRY));

/** Whether an entry's API has an OpenAI-compatible `/embeddings` (Anthropic's Messages API has none). */
export function offersEmbeddings(entry: Pick<ModelEntry, 'api'>): boolean {
  return entry.api === 'openai' || entry.api === 'openai-responses';
}

function checkedVectors(data: { index: number; embedding: unknown }[], count: number, modelId: string): number[][] {
  const vectors = new Array<number[] | undefined>(count);
  for (const item of data) if (item.index >= 0 && item.index < count) vectors[item.index] = item.embedding as number[];
  const dimensions = vectors[0]?.length ?? 0;
  if (dimensions > MAX_EMBEDDING_DIMENSIONS) {
    throw new KnowledgeError(
      'KB_EMBEDDING_FAILED',
      `model "${modelId}" answered vectors of ${dimensions} numbers, more than the ${MAX_EMBEDDING_DIMENSIONS} a knowledge base keeps`,
      'check that the entry names an embedding model and its server is the one you meant',
    );
  }
  for (const [i, vector] of vectors.entries()) {
    if (!Array.isArray(vector) || vector.length === 0 || vector.length !== dimensions || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new KnowledgeError(
        'KB_EMBEDDING_FAILED',
        `model "${modelId}" answered without a usable vector for input ${i} (${count} sent)`,
        'check that the entry names an embedding model (e.g. text-embedding-3-small, nomic-embed-text)',
      );
    }
  }
  return vectors as number[][];
}

/**
 * An embedder on the entry's OpenAI-compatible API (OpenAI, Ollama's
 * `/v1`, vLLM, LM Studio…), with the chat clients' rules where they fit:
 * the entry alone decides the URL and key, no SDK logging.
 * Floats are asked for explicitly: the SDK's default is base64, which some
 * compatible servers do not speak.
 */
export function createEmbedder(entry: ModelEntry, apiKey: string | undefined, options: { retries?: number } = {}): Embedder {
  if (!offersEmbeddings(entry)) {
    throw new KnowledgeError(
      'KB_MODEL_NO_EMBEDDINGS',
      `model "${entry.id}" speaks the ${entry.api} API, which offers no embeddings`,
      'choose a model entry with an OpenAI-compatible API (/embeddings), or none for search by words only',
    );
  }
  const auth = apiKey ? { apiKey } : { apiKey: 'unused', defaultHeaders: { authorization: null } };
  // The SDK's own retries (2, with backoff) cover a reset socket, a 429 or a 5xx: an add of hundreds of batches should not fail on one.
  const client = sdkClient('openai', { baseURL: entry.baseUrl, maxRetries: options.retries ?? 2, logLevel: 'off', organization: null, project: null, ...auth });
  return {
    modelId: entry.id,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      try {
        const bounded = (await client()).withOptions({ fetch: boundedFetch({ maxBodyBytes: answerLimit(texts.length) }) });
        const response = await bounded.embeddings.create({ model: entry.model, input: texts, encoding_format: 'float' }, signal ? { signal } : {});
        return checkedVectors(response.data, texts.length, entry.id);
      } catch (error) {
        if (error instanceof KnowledgeError) throw error;
        if (signal?.aborted) throw new KnowledgeError('KB_CANCELLED', 'cancelled while embedding');
        const failure = classifyProviderError(error, { toolNames: [], ...(apiKey ? { secret: apiKey } : {}) });
        throw new KnowledgeError(
          'KB_EMBEDDING_FAILED',
          `embedding with model "${entry.id}" failed (${failure.kind}${failure.status ? ` ${failure.status}` : ''}): ${failure.message}`,
          'test the model entry (chatos models test), or choose another embedding model',
          failure.toJSON(),
        );
      }
    },
  };
}
