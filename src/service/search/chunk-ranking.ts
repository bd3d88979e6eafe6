/**
 * The three rankings of search_code over one synced ChunkIndex: BM25 alone, vectors alone
 * (cosine, normalized = 1 − distance/2 so that it reads as 0..1 like the others), and hybrid = reciprocal-rank fusion of both
 * lists, each over-fetched so fusion has head-room. Vectors come from the workspace's embedder —
 * the model-free local one unless another is configured — and are kept per chunk id. Identical
 * chunks (the same declaration with the same text in two files: a vendored or copied file) fold
 * into the best-ranked one, which lists the others, so copies do not fill the result's slots; the
 * pieces of a split function fold into one hit, and implementation ranks before tests unless the
 * query asks for tests. Names, signatures and doc comments weigh more than bodies (chunk-index.ts).
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
  /** Identical chunks of other places, folded into this one (ranked below it). */
  duplicates?: Chunk[];
  /** The other pieces of the same split function that matched, folded into this one, in rank order. */
  pieces?: Chunk[];
}

const OVERFETCH = 5;

/** What makes two chunks copies of each other: the same kind, name and text. */
function copyKey(c: Chunk): string {
  return `${c.chunk_kind}\0${c.symbol_name ?? ''}\0${c.content_sha256}`;
}

/**
 * The ranked list with each chunk's copies folded into its first (best-ranked) occurrence, and the
 * pieces of a split function into its best-ranked piece (one hit per symbol: three pieces of one
 * test callback filled the top three), which lists the others' lines: the hit ranks by its best
 * piece and cites every piece that matched (the test a question named was in the 2nd), cut to `limit`.
 */
export function foldCopies(ranked: RankedChunk[], limit: number): RankedChunk[] {
  const first = new Map<string, RankedChunk>();
  const pieces = new Map<string, RankedChunk>();
  const out: RankedChunk[] = [];
  for (const r of ranked) {
    const key = copyKey(r.chunk);
    const kept = first.get(key);
    if (kept) {
      (kept.duplicates ??= []).push(r.chunk);
      continue;
    }
    const symbol = r.chunk.chunk_kind === 'function_split' ? `${r.chunk.file}\0${r.chunk.symbol_id ?? r.chunk.symbol_name ?? ''}` : undefined;
    const whole = symbol === undefined ? undefined : pieces.get(symbol);
    if (whole) {
      (whole.pieces ??= []).push(r.chunk);
      continue;
    }
    if (out.length < limit) {
      first.set(key, r);
      if (symbol !== undefined) pieces.set(symbol, r);
      out.push(r);
    }
  }
  return out;
}

/** A query about tests (`test`, `tests`, `spec`, `testing`, `fixture`, `mock`...) ranks them where they fall. */
const ASKS_FOR_TESTS = /\b(tests?|testing|tested|specs?|fixtures?|mocks?|unittest|pytest|jest|vitest)\b/i;

/**
 * Implementation before tests unless the query asks for tests: a question about a validation
 * answered with the same test callback three times and the implementation 9th. Stable: each group
 * keeps its own order.
 */
export function implementationFirst<T extends { chunk: Chunk }>(ranked: T[], query: string): T[] {
  if (ASKS_FOR_TESTS.test(query)) return ranked;
  return [...ranked.filter((r) => !r.chunk.is_test), ...ranked.filter((r) => r.chunk.is_test)];
}

export const defaultEmbedder: Embedder = new LocalHashEmbedder();

function emptyScore(): HitScore {
  return { normalized: 0, vector_distance: 0, vector_rank: 0, bm25_score: 0, hybrid_rank: 0 };
}

/** `vectors` (the workspace's, brought up to date by the caller) is needed by the vector and hybrid modes. */
export async function rankChunks(
  index: ChunkIndex,
  query: string,
  filter: ChunkFilter | undefined,
  limit: number,
  mode: SearchMode,
  vectors?: ChunkVectors,
  signal?: AbortSignal,
): Promise<RankedChunk[]> {
  // over-fetched in every mode: copies fold away before the cut
  const fetch = Math.max(50, limit * OVERFETCH);
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
  if (mode !== 'hybrid')
    return foldCopies(
      implementationFirst(
        (mode === 'bm25' ? bm25Ids : vecIds).map((id) => scores.get(id)!),
        query,
      ),
      limit,
    );
  const fused = reciprocalRankFusion([bm25Ids, vecIds]);
  const best = fused[0]?.score ?? 0;
  const ranked = fused.map((f) => {
    const e = scores.get(f.id)!;
    e.score.normalized = best > 0 ? f.score / best : 0;
    return e;
  });
  return foldCopies(implementationFirst(ranked, query), limit).map((e, i) => ((e.score.hybrid_rank = i + 1), e));
}
