import MiniSearch, { type Options } from 'minisearch';
import { createWordTokenizer } from './wordTokenizer.js';

const tokenize = createWordTokenizer();
/** A query's words once each: a word typed twice is not worth twice. */
const queryWords = (text: string) => [...new Set(tokenize(text))];

/**
 * MiniSearch's options for a BM25 index of words in any language (the
 * tokenizer of wordTokenizer.ts), keyed by `id`: the knowledge bases' chunks
 * and the agents' memories are found by their words the same way.
 */
export function wordIndexOptions<T>(fields: string[]): Options<T> {
  return {
    fields,
    idField: 'id',
    tokenize,
    // The tokenizer already lower-cases and folds accents.
    processTerm: (term) => term,
    searchOptions: { tokenize: queryWords, processTerm: (term) => term },
  };
}

/** An empty index with those options. */
export const createWordIndex = <T>(fields: string[]) => new MiniSearch<T>(wordIndexOptions<T>(fields));
