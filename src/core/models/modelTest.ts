import type { ModelTestResult } from '../../shared/models.js';
import type { ModelClient } from './providers/modelClient.js';
import { userText } from './providers/modelRequest.js';
import { ProviderError } from './providers/providerError.js';
import { MODEL_TEST_TIMEOUT_MS } from './modelTestTimeout.js';

/**
 * One tiny streamed request (`chatos models test`, the Models page's Test):
 * enough to prove the URL, the key and the model name, and to say exactly
 * which of them is wrong when it fails. Any finish counts (a reasoning model
 * may spend the few tokens thinking); the text is shown as it came.
 */
export async function testModel(client: ModelClient, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ModelTestResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let text = '';
  let reasoning = '';
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  try {
    const events = client.stream(
      { messages: [userText('Reply with the single word: OK')], params: { maxTokens: 32 } },
      { idleTimeoutMs: options.timeoutMs ?? MODEL_TEST_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) },
    );
    for await (const event of events) {
      if (event.type === 'text-delta') text += event.text;
      if (event.type === 'reasoning-delta' && reasoning.length < 500) reasoning += event.text;
      if (event.type === 'usage') usage = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    }
  } catch (error) {
    if (error instanceof ProviderError) return { ok: false, ms: ms(), error: error.toJSON() };
    throw error;
  }
  return { ok: true, ms: ms(), text, ...(usage ? { usage } : {}), ...(reasoning ? { reasoning: reasoning.slice(0, 500) } : {}) };
}
