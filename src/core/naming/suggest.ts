import { editDistance } from '../problems/unknownKeys.js';

/** Up to `max` candidates close to `word` (substring matches first, then by edit distance). */
export function suggestClosest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = word.toLowerCase();
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const distance = editDistance(lower, c);
    const contains = c.includes(lower) || lower.includes(c);
    if (contains || distance <= Math.max(2, Math.floor(word.length / 3))) scored.push({ candidate, score: contains ? -1 / (1 + c.length) : distance });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((s) => s.candidate);
}
