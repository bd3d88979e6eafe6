/**
 * The k chunks of a published commit nearest to a query vector, by cosine distance: pgvector's `<=>`
 * where the index was made with the extension (an exact scan, or its HNSW index when an
 * administrator adds one), else exact cosine computed in SQL over the float4[] column. Only vectors
 * of the embedder whose checksum is given are compared (another space's distances mean nothing).
 */
import type { IndexConnection } from './connect.js';

export interface NearestChunk {
  chunk_id: string;
  file: string;
  start_line: number;
  end_line: number;
  /** Cosine distance in [0, 2]. */
  distance: number;
}

export async function nearestChunks(
  conn: IndexConnection,
  opts: { repository: string; commit: string; embedder: string; query: Float32Array; k: number },
): Promise<NearestChunk[]> {
  const kind = (await conn.query<{ value: string }>(`SELECT value FROM lspgate.meta WHERE key = 'vectors'`)).rows[0]?.value ?? 'array';
  const q = Array.from(opts.query);
  const pgvector = kind.startsWith('pgvector:');
  const distance = pgvector
    ? '(v.embedding <=> $3::vector)'
    : `(SELECT 1 - sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0) FROM unnest(v.embedding, $3::real[]) AS t(a, b))`;
  const r = await conn.query<{ chunk_id: string; path: string; start_line: number; end_line: number; distance: number }>(
    `SELECT c.chunk_id, f.path, c.start_line, c.end_line, ${distance}::float8 AS distance
       FROM lspgate.repositories r
       JOIN lspgate.commit_files cf ON cf.repo_id = r.id
       JOIN lspgate.files f ON f.repo_id = cf.repo_id AND f.id = cf.file_id
       JOIN lspgate.chunk_vectors v ON v.repo_id = cf.repo_id AND v.file_id = cf.file_id AND v.embedder = $4
       JOIN lspgate.chunks c ON c.repo_id = v.repo_id AND c.file_id = v.file_id AND c.ord = v.ord
      WHERE r.name = $1 AND cf.sha = $2
      ORDER BY distance LIMIT $5`,
    [opts.repository, opts.commit, pgvector ? `[${q.join(',')}]` : q, opts.embedder, opts.k],
  );
  return r.rows.map((x) => ({ chunk_id: x.chunk_id, file: x.path, start_line: x.start_line, end_line: x.end_line, distance: x.distance }));
}
