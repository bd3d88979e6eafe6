/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ 1 / (k + rank_i(d))
 * over the ranked lists d appears in, k = 60 as in the paper. It needs ranks only, so BM25 scores
 * and cosine distances need no common scale.
 */
export const RRF_K = 60;

export function reciprocalRankFusion(lists: readonly (readonly string[])[], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
