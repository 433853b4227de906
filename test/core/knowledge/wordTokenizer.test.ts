import { describe, expect, it } from 'vitest';
import { createWordTokenizer } from '../../../src/core/knowledge/wordTokenizer.js';

describe('the knowledge word tokenizer', () => {
  const tokenize = createWordTokenizer();

  it('splits Latin text on anything not a letter or digit, lower-cased, accents folded, every occurrence in order (BM25 counts them)', () => {
    expect(tokenize('Café au lait, CAFÉ! x2 e-mail_ok')).toEqual(['cafe', 'au', 'lait', 'cafe', 'x2', 'e', 'mail', 'ok']);
  });

  it('splits Chinese and Japanese text into words with ICU, beside Latin words', () => {
    const words = tokenize('深度学习使用多层神经网络 with GPUs');
    expect(words).toEqual(expect.arrayContaining(['深度', '学习', '神经', '网络', 'with', 'gpus']));
    expect(tokenize('東京に行きます')).toEqual(expect.arrayContaining(['東京']));
  });
});
