import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions as AnthropicOptions } from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ClientOptions as OpenAIOptions } from 'openai';

interface Sdks {
  openai: { options: OpenAIOptions; client: OpenAI };
  anthropic: { options: AnthropicOptions; client: Anthropic };
}

/**
 * A provider SDK's client, made on first use. The SDKs are imported then,
 * not when the host loads: together they take ~350 ms to import, which
 * every `chatos` command paid though most never talk to a model.
 */
export function sdkClient<K extends keyof Sdks>(sdk: K, options: Sdks[K]['options']): () => Promise<Sdks[K]['client']> {
  let made: Promise<Sdks[K]['client']> | undefined;
  return () => (made ??= load(sdk, options));
}

async function load<K extends keyof Sdks>(sdk: K, options: Sdks[K]['options']): Promise<Sdks[K]['client']> {
  if (sdk === 'openai') return new (await import('openai')).default(options as OpenAIOptions) as Sdks[K]['client'];
  return new (await import('@anthropic-ai/sdk')).default(options as AnthropicOptions) as Sdks[K]['client'];
}
