import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeStore, STORE_FILE } from '../../../src/core/knowledge/knowledgeStore.js';
import { bestByWords, bestHoldingRare, splitWords, type SplitTuning, type WordRow } from '../../../src/core/knowledge/wordSearch.js';
import { mulberry32 } from '../../../scripts/seededRandom.js';
import { seededRandom } from '../../helpers/seededRandom.js';

/**
 * A word search that skips the rows holding only common words (wordSearch.ts) gives the plain query's result, on a
 * store written by the store itself: words in 40 %, 10 %, 3 % and under 1 % of 4,000 rows, each row's count of a
 * word varied so that term frequency and row length matter. The default split starts at 20,000 rows of common words,
 * so the tests set their own; the bench measures it at a million (npm run bench -- "knowledge scale").
 */

const ROWS = 4000;
/** Words by the share of rows that hold them. */
const SHARES: Record<string, number> = { garden: 0.4, water: 0.4, soil: 0.1, compost: 0.1, aphid: 0.03, ladybug: 0.03, basalt: 0.008, volcano: 0.008, heron: 0.004 };
const NEVER_SPLIT: SplitTuning = { commonShare: 2, worthSplitting: Infinity };
const SPLIT_SMALL: SplitTuning = { commonShare: 0.05, worthSplitting: 100 };

let folder: string;
let db: DatabaseSync;
const statements = new Map<string, StatementSync>();
const prepare = (text: string) => statements.get(text) ?? statements.set(text, db.prepare(text)).get(text)!;

beforeAll(() => {
  // One store for the file's tests (tempDir's folders go after each test); the rows are fixed, not a replayable draw.
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-kb-words-'));
  const random = mulberry32(44);
  const store = KnowledgeStore.open(folder, 'words');
  const chunks = Array.from({ length: ROWS }, (_, i) => {
    const words = Object.entries(SHARES).flatMap(([word, share]) => (random() < share ? Array<string>(1 + Math.floor(random() * 4)).fill(word) : []));
    const filler = Array.from({ length: 5 + Math.floor(random() * 40) }, () => `filler${Math.floor(random() * 50)}`);
    const text = [...words, ...filler].sort(() => random() - 0.5).join(' ');
    return { id: `c${i}`, file: 'notes.md', position: i, start: 0, end: text.length, heading: '', text };
  });
  store.write({ chunks });
  store.close();
  db = new DatabaseSync(path.join(folder, STORE_FILE), { readOnly: true });
});

afterAll(() => {
  db?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Two results alike: the same scores in order, and the same rows wherever a score is not shared with the row after the last. */
function expectSame(split: WordRow[], plain: WordRow[]): void {
  expect(split.map((r) => r.score)).toEqual(plain.map((r) => expect.closeTo(r.score, 9)));
  const last = plain.at(-1)?.score ?? Infinity;
  const sure = (rows: WordRow[]) => new Set(rows.filter((r) => r.score > last + 1e-9).map((r) => r.seq));
  expect(sure(split)).toEqual(sure(plain));
}

describe('a word search that skips rows of only common words', () => {
  it('gives the plain query’s best rows, for every query of two to four words, whether its bound holds or not', () => {
    const words = Object.keys(SHARES);
    const random = seededRandom(45);
    const outcomes = { split: 0, boundMissed: 0, notSplit: 0 };
    for (let q = 0; q < 120; q++) {
      const query = [...new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]!))];
      const limit = [5, 20, 50][q % 3]!;
      const split = splitWords(prepare, query, SPLIT_SMALL);
      if (!split) outcomes.notSplit++;
      else if (bestHoldingRare(prepare, split, limit)) outcomes.split++;
      else outcomes.boundMissed++;
      expectSame(bestByWords(prepare, query, limit, SPLIT_SMALL), bestByWords(prepare, query, limit, NEVER_SPLIT));
    }
    // Each way through was taken, so each was compared.
    expect(outcomes.split).toBeGreaterThan(10);
    expect(outcomes.boundMissed).toBeGreaterThan(5);
    expect(outcomes.notSplit).toBeGreaterThan(5);
  });

  it('splits rare from common by the share of rows, and bounds a common-only row by idf × (k1 + 1) of each common word', () => {
    const split = splitWords(prepare, ['heron', 'garden', 'soil'], SPLIT_SMALL)!;
    expect(split.rare).toEqual(['heron']);
    expect(split.common.sort()).toEqual(['garden', 'soil']);
    // No row of only common words scores above the bound: the best of them, by the plain query, is below it.
    const commonOnly = bestByWords(prepare, ['garden', 'soil'], 1, NEVER_SPLIT)[0]!;
    expect(commonOnly.score).toBeLessThan(split.most);
    expect(commonOnly.score).toBeGreaterThan(split.most / 4);
  });

  it('does not split one word, more than 12, words all common, or common words in too few rows', () => {
    expect(splitWords(prepare, ['heron'], SPLIT_SMALL)).toBeUndefined();
    expect(splitWords(prepare, ['garden', 'water'], SPLIT_SMALL)).toBeUndefined();
    expect(splitWords(prepare, ['heron', 'garden'], { commonShare: 0.05, worthSplitting: ROWS })).toBeUndefined();
    // A query of many words (an agent's paragraph) runs plain rather than counting each word's rows first.
    const many = [...Array.from({ length: 11 }, (_, i) => `filler${i}`), 'heron', 'garden'];
    expect(splitWords(prepare, many.slice(1), SPLIT_SMALL)).toBeDefined();
    expect(splitWords(prepare, many, SPLIT_SMALL)).toBeUndefined();
  });
});
