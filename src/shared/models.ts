import { z } from 'zod';

/**
 * Model entries (docs/rules/chat.md#model-clients): which API a model speaks,
 * where, under which name, and where its key comes from. The key itself is
 * never part of an entry: a row says only `{ kind: 'stored' }` or
 * `{ kind: 'env', name }`, and the value lives in the SecretStore or the
 * environment, read in the main process when a request is made.
 */

/** `openai`: chat completions; `openai-responses`: the Responses API; `anthropic`: Messages. */
export const ApiKindSchema = z.enum(['openai', 'openai-responses', 'anthropic']);
export type ApiKind = z.infer<typeof ApiKindSchema>;
export const API_KINDS = ApiKindSchema.options;

export const ModelIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must start with a letter or digit and use only letters, digits, ".", "_" or "-" (at most 64)' });

/** A host environment variable name (`{ env: NAME }`). */
export const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, { error: 'must be an environment variable name (letters, digits and "_", not starting with a digit)' });

/** Where the key comes from: nothing (local servers), a host variable, or the SecretStore. */
export const KeyRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('env'), name: EnvNameSchema }).strict(),
  z.object({ kind: z.literal('stored') }).strict(),
]);

export const BaseUrlSchema = z
  .string()
  .max(2048)
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: 'must be an http:// or https:// URL without a user name or password in it (e.g. https://api.openai.com/v1)' },
  );

/** What an entry is for: answering (chat) or turning text into vectors (embedding, for knowledge bases). */
export const ModelKindSchema = z.enum(['chat', 'embedding']);
export type ModelKind = z.infer<typeof ModelKindSchema>;

/** How hard a reasoning model thinks (OpenAI `reasoning_effort`, Anthropic's thinking budget, DeepSeek's effort). */
export const ReasoningEffortSchema = z.enum(['minimal', 'low', 'medium', 'high']);
export type ReasoningEffort = z.infer<typeof ReasoningEffortSchema>;

/** US dollars per million tokens, as providers price them. */
export const ModelPricesSchema = z.object({ input: z.number().min(0), output: z.number().min(0) }).strict();

export const ModelEntryInputSchema = z.object({
  id: ModelIdSchema.optional(),
  name: z.string().min(1, { error: 'must not be empty' }).max(200),
  api: ApiKindSchema,
  baseUrl: BaseUrlSchema,
  /** The provider's model name, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `qwen-plus`. */
  model: z.string().min(1, { error: 'must not be empty' }).max(256),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  /** Accepts images (tool results with images are fed back to it). */
  vision: z.boolean().default(false),
  /** Context window in tokens; older turns are summarized as a conversation nears it. */
  contextWindow: z.number().int().min(1).optional(),
  /** Some providers cap how many tools a request may carry (e.g. 128). */
  maxTools: z.number().int().min(0).optional(),
  prices: ModelPricesSchema.optional(),
  key: KeyRefSchema.default({ kind: 'none' }),
  /** Chat or embedding; absent in entries written before kinds existed (see modelKind). */
  kind: ModelKindSchema.optional(),
  /**
   * A reasoning model (o-series, GPT-5, DeepSeek thinking, Claude with
   * extended thinking): it is sent `max_completion_tokens` and no
   * temperature or top_p, which such models reject.
   */
  reasoning: z.boolean().optional(),
  reasoningEffort: ReasoningEffortSchema.optional(),
  /** Takes tools (function calling); absent means yes. A model without tools is sent none. */
  tools: z.boolean().optional(),
  /**
   * Parameters the provider rejected by name for this model, learned from
   * its 400 (docs/using/models.md#capabilities): `temperature` is no longer
   * sent, `max_tokens` goes as `max_completion_tokens`.
   */
  rejectedParams: z.array(z.enum(['max_tokens', 'temperature'])).optional(),
});
export type ModelEntryInput = z.input<typeof ModelEntryInputSchema>;

/** A model entry as the admin DB keeps it (logical table `models`). */
export const ModelEntrySchema = ModelEntryInputSchema.extend({ id: ModelIdSchema });
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

/** What a face may know about a key: whether it is there and where from, never its value. */
export const KeyStateSchema = z.object({
  source: z.enum(['none', 'env', 'stored']),
  /** For `env`: the variable's name. */
  env: z.string().optional(),
  /** A stored key exists, or the variable is set (always false for `none`). */
  set: z.boolean(),
  /** Why a stored key cannot be read now (the secrets file is unsafe or broken), with the fix. */
  problem: z.string().optional(),
});
export type KeyState = z.infer<typeof KeyStateSchema>;

/** Where stored keys are kept: a file only the user can read (serve, CLI), or values encrypted with the OS keychain (the desktop app). */
export const KeyStoreSchema = z.object({ kind: z.enum(['private-file', 'os-keychain']), file: z.string() });
export type KeyStore = z.infer<typeof KeyStoreSchema>;

/** Where stored keys are kept, in words (the CLI, error messages). */
export function describeKeyStore(store: KeyStore): string {
  return store.kind === 'os-keychain' ? `encrypted with the OS keychain in ${store.file}` : `a file only you can read: ${store.file}`;
}

export const ModelViewSchema = ModelEntrySchema.extend({ keyState: KeyStateSchema });
export type ModelView = z.infer<typeof ModelViewSchema>;

/**
 * The words of a model name that make it an embedding model: the known
 * families name themselves so (text-embedding-3-small, nomic-embed-text,
 * mxbai-embed-large, jina-embeddings-v3, gemini-embedding-001,
 * embeddinggemma, qwen3-embedding, bge-m3, multilingual-e5-large,
 * gte-large, all-minilm, voyage-3, amazon.titan-embed-text-v2). A word, not
 * a substring: "…-embedded" is no embedding model.
 */
const EMBEDDING_WORDS = new Set(['embed', 'embedding', 'embeddings', 'embeddinggemma', 'textembedding', 'bge', 'e5', 'gte', 'minilm', 'voyage']);

/** The kind a model name suggests (the Models form shows it; an entry made without a kind gets it). */
export function guessModelKind(model: string): ModelKind {
  return model
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => EMBEDDING_WORDS.has(word))
    ? 'embedding'
    : 'chat';
}

/** An entry's kind: as set (never second-guessed), else guessed from its model name, for entries written before kinds existed. */
export function modelKind(entry: Pick<ModelEntry, 'kind' | 'model'>): ModelKind {
  return entry.kind ?? guessModelKind(entry.model);
}

/**
 * Reasoning families that reject `max_tokens` and `temperature` on OpenAI's
 * APIs (o1, o3, o4-mini, GPT-5 and its mini and nano, not gpt-5-chat),
 * also behind a router's vendor prefix (openai/o4-mini): an entry made for
 * one gets the reasoning switch unless it says otherwise.
 */
export function guessReasoning(api: ApiKind, model: string): boolean {
  if (api === 'anthropic') return false;
  const name = model.toLowerCase().split('/').at(-1) ?? '';
  return /^o[134](-|$)/.test(name) || (/^gpt-5(\.\d+)?(-|$)/.test(name) && !/-chat/.test(name));
}

/**
 * What a failed provider request was, as every face words it (see ProviderError in the core):
 * `quota` (billing: no credit, quota used up), `context-too-long`, `content-filter` are rejections
 * with a meaning a person can act on; `too-long`: the answer passed the host's limit
 * (chat.maxAnswerChars) and the stream was stopped there.
 */
export const ProviderErrorKindSchema = z.enum(['rejected', 'auth', 'not-found', 'rate-limited', 'server', 'network', 'aborted', 'quota', 'context-too-long', 'content-filter', 'too-long']);
export type ProviderErrorKind = z.infer<typeof ProviderErrorKindSchema>;

/** For `network`: what exactly failed, so a face can say "DNS" rather than "network". */
export const NetworkFailureSchema = z.enum(['dns', 'tls', 'refused', 'reset', 'timeout', 'incomplete', 'other']);
export type NetworkFailure = z.infer<typeof NetworkFailureSchema>;

/**
 * A rejection the host answers by itself, once (docs/rules/chat.md#stop-and-retry): `tool-call`, the provider
 * could not read the model's tool call (Groq's `tool_use_failed`; `generated`, what the model wrote), so the
 * model is asked again, told why; `parameter`, the model does not take this parameter (o-series and GPT-5:
 * `max_tokens`, `temperature`), so the request goes again without it, and the entry remembers.
 */
export const ProviderRemedySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool-call'), generated: z.string().optional() }),
  z.object({ kind: z.literal('parameter'), param: z.enum(['max_tokens', 'temperature']) }),
]);
export type ProviderRemedy = z.infer<typeof ProviderRemedySchema>;

export const ProviderFailureSchema = z.object({
  kind: ProviderErrorKindSchema,
  network: NetworkFailureSchema.optional(),
  status: z.number().int().optional(),
  retryAfterMs: z.number().optional(),
  /** The provider's own error text (any key in it masked). */
  message: z.string(),
  toolName: z.string().optional(),
  remedy: ProviderRemedySchema.optional(),
});
export type ProviderFailure = z.infer<typeof ProviderFailureSchema>;

/** One tiny streamed request (`chatos models test`, the Models page's Test); for an embedding entry, one embeddings request. */
export const ModelTestResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    ms: z.number(),
    text: z.string(),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
    /** An embedding entry: how many numbers a vector has. */
    dimensions: z.number().int().optional(),
    /** A chat entry that thought before answering: what it thought (the first of it). */
    reasoning: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), ms: z.number(), error: ProviderFailureSchema }),
]);
export type ModelTestResult = z.infer<typeof ModelTestResultSchema>;

/** The model names a provider offers (`/v1/models`, Anthropic's models list, Ollama's tags), for the model picker. */
export const ModelCatalogSchema = z.object({ names: z.array(z.string()), source: z.enum(['models', 'anthropic-models', 'ollama-tags']) });
export type ModelCatalog = z.infer<typeof ModelCatalogSchema>;
