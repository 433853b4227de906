/** Hybrid results: how much words and meaning count. */
const HYBRID_WEIGHTS = { text: 0.5, vector: 0.5 };
/** Candidates each side brings to a hybrid result, at least. */
const HYBRID_CANDIDATES = 50;

/** How many candidates each side brings to a hybrid search of `limit` results. */
export const hybridCandidates = (limit: number) => Math.max(limit * 4, HYBRID_CANDIDATES);

/** One side's candidate: a row's key and its score on that side, best first. */
export interface Scored<K> {
  key: K;
  score: number;
}

/**
 * The ranking every engine shares (embedded or on a server), so a base
 * ranks the same wherever it lives: each side's best candidates, the text
 * scores divided by the best one, the two weighed evenly (a side that did
 * not bring a candidate scores it 0; a vector no closer than orthogonal
 * brings nothing).
 */
export function fuseHybrid<K>(text: readonly Scored<K>[], vector: readonly Scored<K>[], limit: number): Scored<K>[] {
  const top = text[0]?.score ?? 0;
  const scores = new Map<K, number>();
  for (const hit of text) scores.set(hit.key, top > 0 ? (hit.score / top) * HYBRID_WEIGHTS.text : 0);
  for (const near of vector) {
    if (near.score <= 0) continue;
    scores.set(near.key, (scores.get(near.key) ?? 0) + near.score * HYBRID_WEIGHTS.vector);
  }
  return [...scores]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, score]) => ({ key, score }));
}
