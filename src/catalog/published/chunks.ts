/**
 * The published chunks of the files a workspace took from the published index (reader.ts), for
 * `--index`: search_code's chunks of those files come from PostgreSQL instead of being cut again
 * locally (published/source.ts asks on the first chunk sync). Only files whose local stamp — the
 * content hash, `:syntax` when cut at the syntax tier's ranges — is the published file's are
 * taken: a file that differs locally is cut here, over its local bytes (the overlay). Read in
 * batches of paths, so a large repository's chunks are never all in the heap at once. With each
 * file's chunks come their vectors of the embedder the commit was published with (as float4[]:
 * pgvector's column is cast), so a gateway with the same embedder does not embed them again.
 */
import type { Chunk } from '../../chunks/types.js';
import type { PublishedTake, PublishedVectors } from '../../core/catalog.js';
import type { IndexConnection } from './connect.js';

const PATHS_PER_QUERY = 400;

type Idioms = { counts: Record<string, number> | null };
type Row = { path: string; hash: string; tier: string | null; text: string; detail: Omit<Chunk, 'text'>; embedding: number[] | null; idioms: Idioms | null };

/** Calls `take(path, chunks, vectors)` for each wanted file (path → local stamp) whose published stamp is the same. */
export async function readPublishedChunks(
  conn: IndexConnection,
  opts: { repository: string; commit: string; want: ReadonlyMap<string, string> },
  take: PublishedTake,
): Promise<number> {
  const paths = [...opts.want.keys()].sort();
  const embedder = await commitEmbedder(conn, opts);
  // an index of schema 1 has no idiom counts: its files come without them (taken, they are cut here)
  const version = await conn.query<{ value: string }>(`SELECT value FROM lspgate.meta WHERE key = 'schema_version'`);
  const idioms = Number(version.rows[0]?.value) >= 2 ? 'f.idioms' : 'NULL::jsonb';
  let files = 0;
  for (let i = 0; i < paths.length; i += PATHS_PER_QUERY) {
    const r = await conn.query<Row>(
      `SELECT f.path, f.hash, f.tier, ${idioms} AS idioms, c.text, c.detail, v.embedding::real[] AS embedding
         FROM lspgate.repositories r
         JOIN lspgate.commit_files cf ON cf.repo_id = r.id
         JOIN lspgate.files f ON f.repo_id = cf.repo_id AND f.id = cf.file_id
         JOIN lspgate.chunks c ON c.repo_id = f.repo_id AND c.file_id = f.id
         LEFT JOIN lspgate.chunk_vectors v ON v.repo_id = c.repo_id AND v.file_id = c.file_id AND v.ord = c.ord AND v.embedder = $4
        WHERE r.name = $1 AND cf.sha = $2 AND f.path = ANY($3::text[])
        ORDER BY f.path, c.ord`,
      [opts.repository, opts.commit, paths.slice(i, i + PATHS_PER_QUERY), embedder?.checksum ?? ''],
    );
    const byPath = new Map<string, { chunks: Chunk[]; vectors: PublishedVectors['vectors']; idioms: Idioms | undefined }>();
    for (const row of r.rows) {
      const stamp = row.tier === 'syntax' ? `${row.hash}:syntax` : row.hash;
      if (opts.want.get(row.path) !== stamp) continue;
      let file = byPath.get(row.path);
      if (!file) byPath.set(row.path, (file = { chunks: [], vectors: [], idioms: row.idioms ?? undefined }));
      file.chunks.push({ ...row.detail, text: row.text } as Chunk);
      file.vectors.push(row.embedding ? Float32Array.from(row.embedding) : undefined);
    }
    for (const [p, file] of byPath)
      await take(p, file.chunks, embedder && { embedder: embedder.checksum, identity: embedder.identity, vectors: file.vectors }, file.idioms);
    files += byPath.size;
  }
  return files;
}

/** The embedder the commit's vectors were made with, undefined when it was published without vectors. */
async function commitEmbedder(conn: IndexConnection, opts: { repository: string; commit: string }) {
  const r = await conn.query<{ embedder: { checksum?: string; identity?: unknown } | null }>(
    `SELECT c.embedder FROM lspgate.commits c JOIN lspgate.repositories r ON r.id = c.repo_id WHERE r.name = $1 AND c.sha = $2`,
    [opts.repository, opts.commit],
  );
  const e = r.rows[0]?.embedder;
  return typeof e?.checksum === 'string' ? { checksum: e.checksum, identity: e.identity } : undefined;
}
