import type { ModelEntry } from '../../shared/models.js';

/**
 * How many tokens a text costs a model, for deciding when to summarize
 * (contextWindow.ts). Characters ÷ 4 holds for English and under-counts
 * Chinese and Japanese about threefold (a Han character is most of a
 * token, often more), so a long Chinese conversation would reach the
 * provider's limit before the host summarized it.
 *
 * - OpenAI's families have a published tokenizer: gpt-tokenizer counts
 *   with it (o200k_base for GPT-4o, GPT-4.1, GPT-5 and the o-series,
 *   cl100k_base for GPT-4 and 3.5). Chosen over js-tiktoken and the WASM
 *   tiktoken: pure JavaScript (nothing native for Electron, no .wasm to
 *   find), each encoding a module of its own, so only the one needed is
 *   loaded, synchronous `countTokens` without building the token array,
 *   kept up to date with OpenAI's models. Loading an encoding takes about
 *   half a second and holds 70–80 MB (o200k's 200k ranks, a 2.4 MB module),
 *   so it is imported lazily, once per process, and only when a model with
 *   a context window comes near enough to it for the count to decide
 *   (chatTurn.ts); it stays out of the CLI bundle (scripts/bundleCli.ts) and
 *   the renderer, and the packaged app leaves out the package's other copies
 *   (electron-builder.yml).
 * - Every other model gets a per-script estimate: a CJK character one
 *   token (o200k gives Chinese and Japanese prose 0.65–0.8 a character,
 *   cl100k 1.1–1.2, Qwen's and DeepSeek's tokenizers about o200k's), other
 *   non-Latin letters half a token, the rest a quarter. It errs high for
 *   today's tokenizers: summarizing a little early is cheap, a refused
 *   request is not.
 * - The provider's own count wins where it gave one (contextWindow.ts takes
 *   the last answer's reported input and output tokens).
 */

export type TokenCounter = (text: string) => number;

/** Han, kana, Hangul and their punctuation and full-width forms. */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/gu;
/** Letters of other scripts written without the Latin alphabet (Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai…). */
const OTHER_LETTERS = /[\u0370-\u1fff]/gu;

/** The per-script estimate (see above). */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  const other = text.match(OTHER_LETTERS)?.length ?? 0;
  const rest = text.length - cjk - other;
  return Math.ceil(cjk + other * 0.5 + rest / 4);
}

type Encoding = 'o200k_base' | 'cl100k_base';

/** OpenAI's families by name (a router's vendor prefix allowed); undefined for any other model. */
function encodingOf(entry: Pick<ModelEntry, 'api' | 'model'>): Encoding | undefined {
  if (entry.api === 'anthropic') return undefined;
  const name = entry.model.toLowerCase().split('/').at(-1) ?? '';
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[134](-|$)|chatgpt-4o|gpt-oss)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(name)) return 'cl100k_base';
  return undefined;
}

/** Past this, a text is estimated even where a tokenizer is at hand: counting megabytes of BPE on every request is not worth its precision. */
const MAX_COUNTED_CHARS = 400_000;
const loaded = new Map<Encoding, Promise<TokenCounter | undefined>>();

function load(encoding: Encoding): Promise<TokenCounter | undefined> {
  let counter = loaded.get(encoding);
  if (!counter) {
    const imported = encoding === 'o200k_base' ? import('gpt-tokenizer/encoding/o200k_base') : import('gpt-tokenizer/encoding/cl100k_base');
    // A tokenizer that cannot load leaves the estimate: counting is a help, never a reason to fail a turn.
    counter = imported.then((module) => module.countTokens as TokenCounter).catch(() => undefined);
    loaded.set(encoding, counter);
  }
  return counter;
}

/** The best counter for this model: its own tokenizer where one is published, else the estimate. */
export async function tokenCounterFor(entry: Pick<ModelEntry, 'api' | 'model'>): Promise<TokenCounter> {
  const encoding = encodingOf(entry);
  const count = encoding ? await load(encoding) : undefined;
  if (!count) return estimateTokens;
  return (text) => (text.length > MAX_COUNTED_CHARS ? estimateTokens(text) : count(text));
}
