/**
 * verify_citation: do the cited lines still hold what was cited, at which commit, and if the
 * content moved, where is it now. The content to look for is the hit's content_sha256 (passed
 * back, or remembered by the index for citations it handed out, or the cited lines at the cited
 * commit); a move is found by hashing every window of the same number of lines, so a block shifted
 * by an edit above it is found exactly.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { identityChecksum } from '../../chunks/embedder.js';
import { fileAtCommit } from '../../chunks/git-head.js';
import { contentSha256, linesText } from '../../chunks/ids.js';
import type { Citation } from '../../chunks/types.js';
import { LspgateError } from '../../errors/errors.js';
import { indexDbPath } from '../../store/db.js';
import type { ServiceCall } from '../call.js';
import { defaultEmbedder } from './chunk-ranking.js';
import { FileLines } from './chunk-search.js';
import { syncChunks, type SyncReport } from './chunk-sync.js';
import { corpusReports } from './corpus-sync.js';
import { configuredEmbedder } from './embedder-config.js';
import { storedVectorStats } from './vector-index.js';

export interface CitationCheck {
  citation: Citation;
  content_sha256: string;
  current_head: string;
  /** The file still exists. */
  file_exists: boolean;
  /** The cited lines hash to content_sha256 now. */
  content_matches: boolean;
  /** citation.commit_hash is not the current HEAD. */
  commit_moved: boolean;
  /** True when the citation can no longer be quoted as is (a hit's `stale_citation`). */
  stale: boolean;
  /**
   * What the cited content was taken from: the caller's `content_sha256`, the content this index
   * handed the citation out for (`handed_out`), or the cited lines of the file at the cited commit.
   */
  judged_against: 'content_sha256' | 'handed_out' | 'commit';
  /** Where the same lines are now, when they moved within the file. */
  moved_to?: Citation;
}

function findWindow(lines: readonly string[], count: number, sha: string): number | undefined {
  for (let s = 1; s + count - 1 <= lines.length; s++) if (contentSha256(linesText(lines, s, s + count - 1)) === sha) return s;
  return undefined;
}

/**
 * The content a citation cited, never whatever chunk covers its lines now (an edit in place keeps
 * the range and the commit, and another chunk can come to sit on the same lines): the content this
 * index handed that citation out for; else the cited lines of the file at the cited commit. A
 * citation handed out for several contents (the lines changed between two answers, nothing
 * committed) cannot say which it meant: INVALID_INPUT asks for the hit's content_sha256.
 */
async function citedContent(
  root: string,
  index: SyncReport['index'],
  rel: string,
  c: Citation,
): Promise<{ sha: string; judged_against: 'handed_out' | 'commit' }> {
  const handed = index.citedContents(rel, c.start_line, c.end_line, c.commit_hash);
  if (handed.length === 1) return { sha: handed[0]!, judged_against: 'handed_out' };
  if (handed.length > 1) {
    throw new LspgateError(
      'INVALID_INPUT',
      `${rel}:${c.start_line}-${c.end_line} at ${c.commit_hash} was cited for ${handed.length} different contents; pass the hit's chunk.content_sha256`,
      { file: rel, candidates: handed },
    );
  }
  const text = c.commit_hash ? await fileAtCommit(root, c.commit_hash, rel) : undefined;
  const lines = text?.split('\n');
  if (!lines || c.end_line > lines.length) {
    throw new LspgateError(
      'INVALID_INPUT',
      `${rel}:${c.start_line}-${c.end_line} was not cited by this index and git has no such lines at ${c.commit_hash || 'an empty commit'}; pass the hit's chunk.content_sha256`,
      { file: rel },
    );
  }
  return { sha: contentSha256(linesText(lines, c.start_line, c.end_line)), judged_against: 'commit' };
}

export async function verifyCitation(call: ServiceCall, citation: Citation, contentSha?: string): Promise<CitationCheck> {
  if (citation.end_line < citation.start_line)
    throw new LspgateError('INVALID_INPUT', `end_line ${citation.end_line} is before start_line ${citation.start_line}`);
  const abs = call.resolvePath(citation.file, { mustExist: false });
  const rel = path.relative(call.root, abs).split(path.sep).join('/');
  await call.workspace.catalog.ready();
  const sync = await syncChunks(call.workspace, call.env.limits, { cacheDir: call.env.cacheDir });
  const { sha, judged_against } = contentSha
    ? { sha: contentSha, judged_against: 'content_sha256' as const }
    : await citedContent(call.root, sync.index, rel, citation);
  const lines = await new FileLines(call.root).get(rel);
  const matches = !!lines && citation.end_line <= lines.length && contentSha256(linesText(lines, citation.start_line, citation.end_line)) === sha;
  const out: CitationCheck = {
    citation: { ...citation, file: rel },
    content_sha256: sha,
    current_head: sync.head,
    file_exists: !!lines,
    content_matches: matches,
    commit_moved: citation.commit_hash !== sync.head,
    stale: !matches || citation.commit_hash !== sync.head,
    judged_against,
  };
  if (lines && !matches) {
    const start = findWindow(lines, citation.end_line - citation.start_line + 1, sha);
    if (start !== undefined) out.moved_to = { file: rel, start_line: start, end_line: start + citation.end_line - citation.start_line, commit_hash: sync.head };
  }
  return out;
}

/**
 * index_stats: the Stats of the workspace's chunk index (chunks/types.ts), brought up to date first, with the
 * stored vector index's embedder (read from its manifest, so a mismatched index is reported, not
 * refused) and the bytes the workspace's index takes on disk: one database (catalog, chunks, FTS5,
 * vectors) and its write-ahead log; vector_index_bytes is the vectors' share of it.
 */
export async function indexStats(call: ServiceCall) {
  await call.workspace.catalog.ready();
  const sync = await syncChunks(call.workspace, call.env.limits, { cacheDir: call.env.cacheDir });
  const vec = storedVectorStats(call.workspace, call.env.cacheDir);
  const checksum = identityChecksum((configuredEmbedder() ?? defaultEmbedder).identity());
  const size = (f: string) =>
    stat(f).then(
      (s) => s.size,
      () => 0,
    );
  const db = indexDbPath(call.env.cacheDir, call.workspace.id);
  const catalogBytes = (await size(db)) + (await size(`${db}-wal`));
  return {
    ...sync.index.stats(),
    embedding_model: vec?.embedding_model ?? 'none',
    embedding_dim: vec?.embedding_dim ?? 0,
    embedder_checksum: vec?.embedder_checksum ?? '',
    embedder_matches: vec ? vec.embedder_checksum === checksum : true,
    vector_count: vec?.chunk_count ?? 0,
    vector_index_bytes: vec?.size_bytes ?? 0,
    catalog_bytes: catalogBytes,
    index_size_bytes: catalogBytes,
    ...corpusReports(sync.index),
  };
}
