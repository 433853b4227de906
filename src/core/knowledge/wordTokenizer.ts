import type { Tokenizer } from '@orama/orama';

/**
 * Words for BM25 in any language: Orama's default tokenizer splits on
 * Latin punctuation and drops CJK text entirely, so a Chinese document
 * could never be found by its words. Intl.Segmenter (ICU, in Node) finds
 * word boundaries in Chinese and Japanese too. Documents and queries go
 * through the same tokenizer, so their words match.
 */
export function createWordTokenizer(): Tokenizer {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  return {
    language: 'multilingual',
    normalizationCache: new Map(),
    tokenize(raw: string) {
      if (typeof raw !== 'string') return [raw];
      const words = new Set<string>();
      for (const segment of segmenter.segment(raw.toLowerCase())) {
        if (segment.isWordLike) words.add(segment.segment.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
      }
      return [...words];
    },
  };
}
