import type { TFunction } from 'i18next';

/** The most of a query that is matched: a longer one (a paste of 10,000 characters) finds what its start finds, at no cost per keystroke. */
const MAX_QUERY = 200;

/** Both languages' texts, so a search finds a line by its name in either (`模型` finds Models in the English window). */
export interface BothLanguages {
  zh: TFunction;
  en: TFunction;
}

/**
 * Whether every word of `query` (any case; Chinese as typed, no spaces
 * needed) is in the texts of `keys` in either language or in `words`.
 * An empty query matches everything. Shared by the command palette and the
 * Settings page.
 */
export function matchesEitherLanguage(query: string, keys: readonly string[], words: string | undefined, texts: BothLanguages): boolean {
  const wanted = query.slice(0, MAX_QUERY).toLowerCase().split(/\s+/).filter(Boolean);
  if (!wanted.length) return true;
  const haystack = [...keys.flatMap((key) => [texts.en(key), texts.zh(key)]), words ?? ''].join(' ').toLowerCase();
  return wanted.every((word) => haystack.includes(word));
}
