/** Runs of letters and digits (any script), and what needs a dictionary to be split into words. */
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const NEEDS_SEGMENTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
const DIACRITICS = /\p{M}+/gu;

/**
 * Words for BM25 in any language: splitting on Latin punctuation (as most
 * search libraries do by default) drops or glues CJK text, so a Chinese
 * document could never be found by its words. Runs of letters and digits
 * are words as they are, lower-cased with accents folded; a run in a script
 * written without spaces (Chinese, Japanese, Thai…) is split by
 * Intl.Segmenter (ICU's dictionaries), which is slow, so only those runs go
 * through it. Documents and queries share it, so their words match. Every
 * occurrence is returned, in order: BM25 counts them.
 */
export function createWordTokenizer(): (text: string) => string[] {
  // Made when a run first needs it: ICU's word break data takes ~9 ms to load, paid by every process that imports a
  // knowledge module (every CLI command) though most never see a Chinese word.
  let segmenter: Intl.Segmenter | undefined;
  const normalized = (word: string) => (NON_ASCII.test(word) ? word.normalize('NFKD').replace(DIACRITICS, '') : word);
  return (raw: string) => {
    const words: string[] = [];
    for (const [run] of raw.toLowerCase().matchAll(WORD_RUN)) {
      if (!NEEDS_SEGMENTER.test(run)) {
        const word = normalized(run);
        if (word) words.push(word);
        continue;
      }
      segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
      for (const segment of segmenter.segment(run)) if (segment.isWordLike) words.push(normalized(segment.segment));
    }
    return words;
  };
}
