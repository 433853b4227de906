import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens, tokenCounterFor } from '../../../src/core/chat/tokenCount.js';

/**
 * Token counts for deciding when to summarize, held against real
 * tokenizers (gpt-tokenizer's o200k_base and cl100k_base): the per-script
 * estimate stays within a sensible factor of them for Chinese and Japanese,
 * which characters ÷ 4 under-counted about threefold, and errs high.
 */

const chinese =
  '人工智能正在改变我们的生活方式，从医疗诊断到自动驾驶汽车，这项技术的应用范围越来越广泛。研究人员指出，大型语言模型在理解上下文方面取得了显著进展，但在推理和事实准确性方面仍然存在挑战。为了在长对话中保持连贯，系统需要在接近上下文窗口时总结较早的内容。';
const japanese =
  '今日はとても良い天気ですね。明日も晴れるといいのですが、天気予報によると雨が降るそうです。週末には友達と一緒に京都へ旅行に行く予定なので、傘を忘れずに持っていこうと思います。お寺や神社をたくさん見て回りたいです。';
const english = 'The quick brown fox jumps over the lazy dog near the riverbank, while the sun sets slowly behind the distant hills and the birds fly home.';

describe('token estimates', () => {
  for (const [name, text] of [
    ['Chinese', chinese],
    ['Japanese', japanese],
  ] as const) {
    it(`${name}: the estimate is within a sensible factor of both tokenizers (above today's o200k); characters ÷ 4 was not`, () => {
      expect(estimateTokens(text)).toBeGreaterThan(o200k(text));
      for (const real of [o200k(text), cl100k(text)]) {
        const ratio = estimateTokens(text) / real;
        expect(ratio, `estimate ${estimateTokens(text)} against ${real}`).toBeGreaterThanOrEqual(0.85);
        expect(ratio).toBeLessThanOrEqual(2);
        // What the host counted before: far too few.
        expect(Math.ceil(text.length / 4) / real).toBeLessThan(0.6);
      }
    });
  }

  it('English stays about what it was (a quarter of its characters), near the tokenizers', () => {
    const ratio = estimateTokens(english) / o200k(english);
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.5);
  });

  it('an OpenAI family is counted with its own tokenizer, loaded when first needed; any other model by the estimate', async () => {
    expect((await tokenCounterFor({ api: 'openai', model: 'gpt-4o-mini' }))(chinese)).toBe(o200k(chinese));
    expect((await tokenCounterFor({ api: 'openai', model: 'openai/gpt-5-nano' }))(japanese)).toBe(o200k(japanese));
    expect((await tokenCounterFor({ api: 'openai', model: 'gpt-4-turbo' }))(chinese)).toBe(cl100k(chinese));
    expect((await tokenCounterFor({ api: 'openai', model: 'qwen-plus' }))(chinese)).toBe(estimateTokens(chinese));
    expect((await tokenCounterFor({ api: 'anthropic', model: 'claude-sonnet-4-6' }))(chinese)).toBe(estimateTokens(chinese));
  });
});
