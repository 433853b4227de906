import type { ModelEntry, ModelTestResult } from '../../shared/models.js';
import { MODEL_TEST_TIMEOUT_MS } from '../models/modelTestTimeout.js';
import { createEmbedder } from './embedder.js';
import { KnowledgeError } from './knowledgeError.js';

/**
 * An embedding entry's test: one embeddings request, the way a knowledge
 * base makes them; ok with the length of its vector. A request that fails
 * says why in the same coded words as a chat test.
 */
export async function testEmbeddingModel(entry: ModelEntry, apiKey: string | undefined, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ModelTestResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? MODEL_TEST_TIMEOUT_MS);
  try {
    const [vector] = await createEmbedder(entry, apiKey, { retries: 0 }).embed(['ChatOS embedding test'], options.signal ? AbortSignal.any([options.signal, timeout]) : timeout);
    return { ok: true, ms: ms(), text: '', dimensions: vector!.length };
  } catch (error) {
    if (!(error instanceof KnowledgeError)) throw error;
    return { ok: false, ms: ms(), error: error.failure ?? { kind: error.code === 'KB_CANCELLED' ? 'aborted' : 'rejected', message: error.message } };
  }
}
