/**
 * The published chunks of the files a workspace took from the published index (reader.ts), for
 * `--index`: search_code's chunks of those files come from PostgreSQL instead of being cut again
 * locally (published/source.ts asks on the first chunk sync). Only files whose local stamp — the
 * content hash, `:syntax` when cut at the syntax tier's ranges — is the published file's are
 * taken: a file that differs locally is cut here, over its local bytes (the overlay). Read in
 * batches of paths, so a large repository's chunks are never all in the heap at once.
 */
import type { Chunk } from '../../chunks/types.js';
import type { IndexConnection } from './connect.js';

const PATHS_PER_QUERY = 400;

type Row = { path: string; hash: string; tier: string | null; text: string; detail: Omit<Chunk, 'text'> };

/** Calls `take(path, chunks)` for each wanted file (path → local stamp) whose published stamp is the same. */
export async function readPublishedChunks(
  conn: IndexConnection,
  opts: { repository: string; commit: string; want: ReadonlyMap<string, string> },
  take: (path: string, chunks: Chunk[]) => Promise<void>,
): Promise<number> {
  const paths = [...opts.want.keys()].sort();
  let files = 0;
  for (let i = 0; i < paths.length; i += PATHS_PER_QUERY) {
    const r = await conn.query<Row>(
      `SELECT f.path, f.hash, f.tier, c.text, c.detail
         FROM lspgate.repositories r
         JOIN lspgate.commit_files cf ON cf.repo_id = r.id
         JOIN lspgate.files f ON f.repo_id = cf.repo_id AND f.id = cf.file_id
         JOIN lspgate.chunks c ON c.repo_id = f.repo_id AND c.file_id = f.id
        WHERE r.name = $1 AND cf.sha = $2 AND f.path = ANY($3::text[])
        ORDER BY f.path, c.ord`,
      [opts.repository, opts.commit, paths.slice(i, i + PATHS_PER_QUERY)],
    );
    const byPath = new Map<string, Chunk[]>();
    for (const row of r.rows) {
      const stamp = row.tier === 'syntax' ? `${row.hash}:syntax` : row.hash;
      if (opts.want.get(row.path) !== stamp) continue;
      let list = byPath.get(row.path);
      if (!list) byPath.set(row.path, (list = []));
      list.push({ ...row.detail, text: row.text } as Chunk);
    }
    for (const [p, chunks] of byPath) await take(p, chunks);
    files += byPath.size;
  }
  return files;
}
