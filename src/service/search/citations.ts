/**
 * verify_citation: do the cited lines still hold what was indexed, at which commit, and if the
 * content moved, where is it now. The content to look for is the hit's content_sha256 (passed
 * back, or remembered by the index for citations it handed out); a move is found by hashing every
 * window of the same number of lines, so a block shifted by an edit above it is found exactly.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { identityChecksum } from '../../chunks/embedder.js';
import { snapshotPath } from '../../catalog/store.js';
import { contentSha256, linesText } from '../../chunks/ids.js';
import type { Citation } from '../../chunks/types.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { FileLines } from './chunk-search.js';
import { defaultEmbedder } from './chunk-ranking.js';
import { syncChunks } from './chunk-sync.js';
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
  /** True when the citation can no longer be quoted as is (seed 004's stale_citation). */
  stale: boolean;
  /** Where the same lines are now, when they moved within the file. */
  moved_to?: Citation;
}

function findWindow(lines: readonly string[], count: number, sha: string): number | undefined {
  for (let s = 1; s + count - 1 <= lines.length; s++) if (contentSha256(linesText(lines, s, s + count - 1)) === sha) return s;
  return undefined;
}

export async function verifyCitation(call: ServiceCall, citation: Citation, contentSha?: string): Promise<CitationCheck> {
  if (citation.end_line < citation.start_line) throw new LspgateError('INVALID_INPUT', `end_line ${citation.end_line} is before start_line ${citation.start_line}`);
  const abs = call.resolvePath(citation.file, { mustExist: false });
  const rel = path.relative(call.root, abs).split(path.sep).join('/');
  await call.workspace.catalog.all();
  const sync = await syncChunks(call.workspace, call.env.limits);
  const sha = contentSha ?? sync.index.byCitation(rel, citation.start_line, citation.end_line, citation.commit_hash)?.content_sha256;
  if (!sha) {
    throw new LspgateError('INVALID_INPUT', `no indexed chunk was cited as ${rel}:${citation.start_line}-${citation.end_line}; pass the hit's chunk.content_sha256`, { file: rel });
  }
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
  };
  if (lines && !matches) {
    const start = findWindow(lines, citation.end_line - citation.start_line + 1, sha);
    if (start !== undefined) out.moved_to = { file: rel, start_line: start, end_line: start + citation.end_line - citation.start_line, commit_hash: sync.head };
  }
  return out;
}

/**
 * index_stats: seed 004's Stats of the workspace's chunk index, brought up to date first, with the
 * stored vector index's embedder (read from its manifest, so a mismatched index is reported, not
 * refused) and the bytes the workspace's index takes on disk (catalog snapshot + vectors).
 */
export async function indexStats(call: ServiceCall) {
  await call.workspace.catalog.all();
  const sync = await syncChunks(call.workspace, call.env.limits);
  const vec = storedVectorStats(call.workspace, call.env.cacheDir);
  const checksum = identityChecksum((configuredEmbedder() ?? defaultEmbedder).identity());
  const catalogBytes = await stat(snapshotPath(call.env.cacheDir, call.workspace.id)).then((s) => s.size, () => 0);
  return {
    ...sync.index.stats(),
    embedding_model: vec?.embedding_model ?? 'none',
    embedding_dim: vec?.embedding_dim ?? 0,
    embedder_checksum: vec?.embedder_checksum ?? '',
    embedder_matches: vec ? vec.embedder_checksum === checksum : true,
    vector_count: vec?.chunk_count ?? 0,
    vector_index_bytes: vec?.size_bytes ?? 0,
    catalog_bytes: catalogBytes,
    index_size_bytes: catalogBytes + (vec?.size_bytes ?? 0),
  };
}
