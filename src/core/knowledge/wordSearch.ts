import type { StatementSync } from 'node:sqlite';

/**
 * The best rows by BM25 for a few words (FTS5's `bm25()` over the store's
 * `words` table), without scoring every row a common word is in.
 *
 * FTS5 computes bm25() for each row the query matches, and that is most of
 * a search's time on a large base: at a million chunks a query of three
 * words, one of them in 14 % of the rows, matched 146,000 rows and took
 * 93 ms, of which 8 ms read the words' row lists and the rest scored them.
 * Yet a row that holds only common words cannot score much: each word adds
 * at most idf × (k1 + 1) to a row's score (bm25's term-frequency part stays
 * below k1 + 1), and a common word's idf is small. So when the words split
 * into rare and common ones, the rows that hold a rare word are scored with
 * every word (two queries: those that also hold a common word, and those
 * that hold none; each names every word once, so each row's score is the
 * one the whole query gives it), and the rows that hold only common words
 * are skipped if the last of the best `limit` already scores at least as
 * much as such a row ever could. Otherwise (too few rows hold a rare word,
 * or their scores are low), the plain query runs. The result is the plain
 * query's, rows of equal score aside.
 */

/** FTS5's bm25() (fts5_aux.c): k1, and the floor it gives an idf that would be zero or less. */
const K1 = 1.2;
const IDF_FLOOR = 1e-6;
/** Queries of more words run plain. */
const MOST_WORDS = 12;

export interface SplitTuning {
  /** A word in at least this share of the rows is common. */
  commonShare: number;
  /** Split only when the common words' rows add up to this many: below it, the plain query is about as fast. */
  worthSplitting: number;
}

// Measured at a million chunks (the bench's corpus, 200 queries): plain p50 / p95 33 / 83 ms; 5 %: 31 / 59; 2 %: 24 / 46;
// 1 % (and 10,000 rows): 21 / 55, more splits whose bound failed and ran the plain query after.
const TUNING: SplitTuning = { commonShare: 0.02, worthSplitting: 20_000 };

export interface WordRow {
  seq: number;
  score: number;
}

/** The store's statements, prepared once each. */
type Prepare = (text: string) => StatementSync;

/** A word as an FTS5 phrase: quoted, its quotes doubled. */
const phrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

function scored(prepare: Prepare, match: string, limit: number): WordRow[] {
  const rows = prepare('SELECT rowid AS seq, bm25(words) AS rank FROM words WHERE words MATCH ? ORDER BY rank LIMIT ?').all(match, limit) as { seq: number; rank: number }[];
  return rows.map((r) => ({ seq: Number(r.seq), score: -r.rank }));
}

/** The words of a query split, and the most a row holding only common words can score. */
export interface Split {
  rare: string[];
  common: string[];
  most: number;
}

/** The rare and the common words of a query; undefined: no split worth making. */
export function splitWords(prepare: Prepare, words: readonly string[], tuning: SplitTuning = TUNING): Split | undefined {
  // A long query (an agent may pass a paragraph) would count each word's rows first: the plain query reads them once.
  if (words.length < 2 || words.length > MOST_WORDS) return undefined;
  // At least the number of rows (seq numbers them from 1, none twice): an idf from it is at least bm25()'s.
  const rows = Number((prepare('SELECT max(seq) AS n FROM chunks').get() as { n: number | null }).n ?? 0);
  const count = prepare('SELECT count(*) AS n FROM words WHERE words MATCH ?');
  const held = words.map((word) => ({ word, in: Number((count.get(phrase(word)) as { n: number }).n) }));
  const common = held.filter((w) => w.in >= rows * tuning.commonShare);
  if (common.length === 0 || common.length === words.length) return undefined;
  if (common.reduce((sum, w) => sum + w.in, 0) < tuning.worthSplitting) return undefined;
  const idf = (n: number) => Math.max(Math.log((rows - n + 0.5) / (n + 0.5)), IDF_FLOOR);
  return {
    rare: held.filter((w) => !common.includes(w)).map((w) => w.word),
    common: common.map((w) => w.word),
    most: common.reduce((sum, w) => sum + idf(w.in) * (K1 + 1), 0),
  };
}

/** The best `limit` rows by BM25 for any of `words` (distinct, not empty), best first. */
export function bestByWords(prepare: Prepare, words: readonly string[], limit: number, tuning: SplitTuning = TUNING): WordRow[] {
  const split = splitWords(prepare, words, tuning);
  return (split && bestHoldingRare(prepare, split, limit)) ?? scored(prepare, words.map(phrase).join(' OR '), limit);
}

/** The best `limit` rows that hold a rare word, scored with every word; undefined if a row of only common words might beat the last. */
export function bestHoldingRare(prepare: Prepare, split: Split, limit: number): WordRow[] | undefined {
  const rare = `(${split.rare.map(phrase).join(' OR ')})`;
  const common = `(${split.common.map(phrase).join(' OR ')})`;
  const best = [...scored(prepare, `${rare} AND ${common}`, limit), ...scored(prepare, `${rare} NOT ${common}`, limit)].sort((a, b) => b.score - a.score).slice(0, limit);
  // `most` is a touch high (from more rows than there may be), so a row of only common words cannot reach it.
  return best.length === limit && best[limit - 1]!.score >= split.most ? best : undefined;
}
