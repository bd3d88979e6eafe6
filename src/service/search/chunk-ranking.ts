/**
 * The three rankings of search_code over one synced ChunkIndex: BM25 alone, vectors alone
 * (cosine, seed 004's normalized = 1 − distance/2), and hybrid = reciprocal-rank fusion of both
 * lists, each over-fetched so fusion has head-room. Vectors come from the workspace's embedder —
 * the model-free local one unless another is configured — and are kept per chunk id.
 */
import type { ChunkIndex } from '../../chunks/chunk-index.js';
import type { Embedder } from '../../chunks/embedder.js';
import { LocalHashEmbedder } from '../../chunks/local-embedder.js';
import { reciprocalRankFusion } from '../../chunks/rrf.js';
import type { Chunk, ChunkFilter, HitScore } from '../../chunks/types.js';
import type { ChunkVectors } from '../../chunks/vectors.js';
import { LspgateError } from '../../errors/errors.js';

export type SearchMode = 'bm25' | 'vector' | 'hybrid';

export interface RankedChunk {
  chunk: Chunk;
  score: HitScore;
}

const OVERFETCH = 5;

export const defaultEmbedder: Embedder = new LocalHashEmbedder();

function emptyScore(): HitScore {
  return { normalized: 0, vector_distance: 0, vector_rank: 0, bm25_score: 0, hybrid_rank: 0 };
}

/** `vectors` (the workspace's, brought up to date by the caller) is needed by the vector and hybrid modes. */
export async function rankChunks(index: ChunkIndex, query: string, filter: ChunkFilter | undefined, limit: number, mode: SearchMode, vectors?: ChunkVectors, signal?: AbortSignal): Promise<RankedChunk[]> {
  const fetch = mode === 'hybrid' ? Math.max(50, limit * OVERFETCH) : limit;
  const scores = new Map<string, { chunk: Chunk; score: HitScore }>();
  const entry = (c: Chunk) => scores.get(c.id) ?? scores.set(c.id, { chunk: c, score: emptyScore() }).get(c.id)!;
  const bm25Ids: string[] = [];
  const vecIds: string[] = [];
  if (mode !== 'vector') {
    const hits = index.search(query, filter, fetch);
    const top = hits[0]?.bm25 ?? 0;
    for (const h of hits) {
      const e = entry(h.chunk);
      e.score.bm25_score = h.bm25;
      if (mode === 'bm25') e.score.normalized = top > 0 ? h.bm25 / top : 0;
      bm25Ids.push(h.chunk.id);
    }
  }
  if (mode !== 'bm25') {
    if (!vectors) throw new LspgateError('INTERNAL', `mode ${mode} needs the workspace's vectors`);
    const [q] = await vectors.embed([query], signal);
    vectors.search(index, q!, fetch, filter).forEach((h, i) => {
      const e = entry(h.chunk);
      e.score.vector_distance = h.distance;
      e.score.vector_rank = i + 1;
      if (mode === 'vector') e.score.normalized = 1 - h.distance / 2;
      vecIds.push(h.chunk.id);
    });
  }
  if (mode !== 'hybrid') return [...(mode === 'bm25' ? bm25Ids : vecIds)].slice(0, limit).map((id) => scores.get(id)!);
  const fused = reciprocalRankFusion([bm25Ids, vecIds]).slice(0, limit);
  const best = fused[0]?.score ?? 0;
  return fused.map((f, i) => {
    const e = scores.get(f.id)!;
    e.score.hybrid_rank = i + 1;
    e.score.normalized = best > 0 ? f.score / best : 0;
    return e;
  });
}
