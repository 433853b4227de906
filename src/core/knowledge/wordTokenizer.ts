import type { Tokenizer } from '@orama/orama';

/** Runs of letters and digits (any script), and what needs a dictionary to be split into words. */
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const NEEDS_SEGMENTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
const DIACRITICS = /\p{M}+/gu;

/**
 * Words for BM25 in any language: Orama's default tokenizer splits on
 * Latin punctuation and drops CJK text entirely, so a Chinese document
 * could never be found by its words. Runs of letters and digits are words
 * as they are; a run in a script written without spaces (Chinese,
 * Japanese, Thai…) is split by Intl.Segmenter (ICU's dictionaries), which
 * is slow, so only those runs go through it. Documents and queries share
 * this tokenizer, so their words match.
 */
export function createWordTokenizer(): Tokenizer {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  const normalized = (word: string) => (NON_ASCII.test(word) ? word.normalize('NFKD').replace(DIACRITICS, '') : word);
  return {
    language: 'multilingual',
    normalizationCache: new Map(),
    tokenize(raw: string) {
      if (typeof raw !== 'string') return [raw];
      const words = new Set<string>();
      for (const [run] of raw.toLowerCase().matchAll(WORD_RUN)) {
        if (!NEEDS_SEGMENTER.test(run)) {
          const word = normalized(run);
          if (word) words.add(word);
          continue;
        }
        for (const segment of segmenter.segment(run)) if (segment.isWordLike) words.add(normalized(segment.segment));
      }
      return [...words];
    },
  };
}
