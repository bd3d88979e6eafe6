/**
 * The invariants that constrain a range of a file (a symbol's lines): the invariant chunks inside
 * it and those in the comment right above its first line (a `Deprecated:` doc paragraph, a
 * `// CRITICAL` above a function), read from the file as it is on disk now — cut the way the chunk
 * index cuts it (chunker.ts, invariants.ts), through the catalog's file gate, without waiting for
 * the whole index. get_context lists them; an edit preview can call it with the edited symbol's lines.
 */
import path from 'node:path';

import { chunkSourceFile } from '../../chunks/chunker.js';
import { currentGitHead } from '../../chunks/git-head.js';
import type { Chunk, InvariantTier } from '../../chunks/types.js';
import { sha256 } from '../../util/hash.js';
import type { ServiceCall } from '../call.js';
import { chunksOf } from './chunk-sync.js';

export interface SymbolInvariant {
  tier: InvariantTier;
  marker: string;
  text: string;
  start_line: number;
  end_line: number;
  /** The invariant chunk's id (search_code's `invariants[].chunk_id`, for a file unchanged since indexed). */
  chunk_id: string;
  /** A flow corpus's invariant (must-keep.ts); absent for those the code states. */
  provenance?: 'curated';
}

/** Invariants per answer past this are left out (a file of markers). */
const MAX_LISTED = 50;

/**
 * The invariants of lines [line, endLine] of a workspace-relative file; [] when the file is not
 * cataloged, not admitted by the gate, or changed since it was cataloged (its symbols' ranges are not
 * those of its bytes).
 */
export async function invariantsFor(call: ServiceCall, file: string, line: number, endLine: number): Promise<SymbolInvariant[]> {
  const entry = call.workspace.catalog.files().get(file);
  if (!entry) return [];
  const chunks = chunksOf(call.workspace, call.env.limits, call.env.cacheDir);
  const indexed = chunks.index.fileHash(file)?.startsWith(entry.hash) ? chunks.index.fileChunks(file) : undefined;
  const all = indexed ?? (await freshChunks(call, file, entry));
  const inside = (c: Chunk) => c.start_line >= line && c.end_line <= endLine;
  const above = new Set(all.filter((c) => c.chunk_kind !== 'invariant' && c.start_line === line).flatMap((c) => (c.invariants ?? []).map((r) => r.chunk_id)));
  return all
    .filter((c) => c.chunk_kind === 'invariant' && (inside(c) || above.has(c.id)))
    .slice(0, MAX_LISTED)
    .map((c) => ({ tier: c.tier!, marker: c.marker ?? '', text: c.text, start_line: c.start_line, end_line: c.end_line, chunk_id: c.id }));
}

async function freshChunks(
  call: ServiceCall,
  file: string,
  entry: { hash: string; language: string; symbols: Parameters<typeof chunkSourceFile>[0]['symbols'] },
): Promise<readonly Chunk[]> {
  const a = await chunksOf(call.workspace, call.env.limits, call.env.cacheDir).gate('code').admit(path.join(call.root, file));
  if (!a.admitted || sha256(a.bytes) !== entry.hash) return [];
  return chunkSourceFile({
    file,
    language: entry.language,
    text: a.bytes.toString('utf8'),
    commitHash: currentGitHead(call.root),
    symbols: entry.symbols,
    bounds: call.env.limits,
  });
}
