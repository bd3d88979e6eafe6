/**
 * The catalog's entries from the published index, for a workspace served with `--index`: the
 * repository's published commit (the workspace's git HEAD when it was published, else the newest
 * publish), and of its files those whose bytes on disk hash as published. A file that differs
 * locally (edited, or at another commit), that is new locally, or that the commit does not list is
 * not taken: the local catalog parses it as it would without an index (the overlay). A taken entry
 * carries the local file's size and mtime, so the build's walk keeps it as it keeps a snapshot's
 * entry. The connection is a reader's (read-only session) and is closed again at once.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import type { CatalogSymbol, FileEntry } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../util/hash.js';
import { connectIndex } from './connect.js';

export interface PublishedEntries {
  entries: Map<string, FileEntry>;
  repository: string;
  commit: string;
  /** Files the commit lists whose local bytes differ (or that are gone): cataloged locally. */
  differing: number;
  /** Why this commit: `head` (the local HEAD was published) or `latest`. */
  chosen: 'head' | 'latest';
}

/** Files hashed at once while comparing the disk with the commit. */
const HASH_CONCURRENCY = 16;

export async function readPublished(url: string, opts: { root: string; repository: string; head: string; indexVersion: number }): Promise<PublishedEntries> {
  const conn = await connectIndex(url, { readOnly: true });
  try {
    const repo = await conn.query<{ id: string }>('SELECT id FROM lspgate.repositories WHERE name = $1', [opts.repository]);
    const repoId = repo.rows[0]?.id;
    if (!repoId)
      throw new LspgateError('INDEX_UNAVAILABLE', `the index at ${conn.shown} has no repository ${JSON.stringify(opts.repository)}: publish it first`);
    const commit = await conn.query<{ sha: string; head: boolean }>(
      `SELECT sha, sha = $2 AS head FROM lspgate.commits WHERE repo_id = $1 AND index_version = $3
        ORDER BY (sha = $2) DESC, published_at DESC LIMIT 1`,
      [repoId, opts.head, opts.indexVersion],
    );
    const chosen = commit.rows[0];
    if (!chosen) {
      throw new LspgateError(
        'INDEX_MISMATCH',
        `the index at ${conn.shown} holds no commit of ${opts.repository} published by this index version (${opts.indexVersion}): publish again with this lspgate`,
      );
    }
    const files = await conn.query<{ id: string; path: string; hash: string; language: string; server: string; tier: string | null }>(
      `SELECT f.id, f.path, f.hash, f.language, f.server, f.tier FROM lspgate.commit_files c
         JOIN lspgate.files f ON f.repo_id = c.repo_id AND f.id = c.file_id WHERE c.repo_id = $1 AND c.sha = $2`,
      [repoId, chosen.sha],
    );
    const same = await unchangedOnDisk(opts.root, files.rows);
    const symbols = await conn.query<{ file_id: string; detail: CatalogSymbol }>(
      'SELECT file_id, detail FROM lspgate.symbols WHERE repo_id = $1 AND file_id = ANY($2::bigint[]) ORDER BY file_id, ord',
      [repoId, [...same.keys()]],
    );
    const byFile = new Map<string, CatalogSymbol[]>();
    for (const r of symbols.rows) {
      let list = byFile.get(r.file_id);
      if (!list) byFile.set(r.file_id, (list = []));
      list.push(r.detail);
    }
    const entries = new Map<string, FileEntry>();
    for (const [id, { row, size, mtimeMs }] of same) {
      entries.set(row.path, {
        hash: row.hash,
        size,
        mtimeMs,
        language: row.language,
        server: row.server,
        symbols: byFile.get(id) ?? [],
        ...(row.tier === 'syntax' ? { tier: 'syntax' as const } : {}),
      });
    }
    return { entries, repository: opts.repository, commit: chosen.sha, differing: files.rows.length - entries.size, chosen: chosen.head ? 'head' : 'latest' };
  } finally {
    await conn.close();
  }
}

type FileRow = { id: string; path: string; hash: string; language: string; server: string; tier: string | null };

/** The listed files whose bytes on disk hash as published, by file id, with the local stamps. */
async function unchangedOnDisk(root: string, rows: FileRow[]): Promise<Map<string, { row: FileRow; size: number; mtimeMs: number }>> {
  const out = new Map<string, { row: FileRow; size: number; mtimeMs: number }>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < rows.length) {
      const row = rows[next++]!;
      // a published path is data: one that climbs out of the root is never read
      const abs = path.resolve(root, row.path);
      if (!abs.startsWith(root + path.sep)) continue;
      try {
        const st = await stat(abs);
        if (!st.isFile()) continue;
        const bytes = await readFile(abs);
        if (sha256(bytes) === row.hash) out.set(row.id, { row, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // gone locally: the walk drops it
      }
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  return out;
}
