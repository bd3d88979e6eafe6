/**
 * The chunk filter (search_code's `filter`): every set field must match (AND); an empty field matches anything.
 * `path` is a glob over the whole workspace-relative path, as a shell glob over a path is (`*` stays
 * within one directory: `*.go` is the root's Go files), with `**` crossing directories
 * (`**\/*.go`: all of them) — the catalog's glob engine in its whole-path mode. `is_test` keeps test
 * chunks only (true) or leaves them out (false). `chunk_kinds` keeps chunks of those kinds; `tier`
 * keeps invariant chunks of those tiers (and so no chunk of another kind); `symbol` the
 * chunks of one symbol (its qualified name or symbol_id: its code, invariants). History chunks
 * (commit messages, pull requests) match only a filter whose `chunk_kinds` names them; `as_of`
 * leaves out those committed after it.
 */
import { globMatcher } from '../catalog/glob.js';
import { type Chunk, type ChunkFilter, HISTORY_KINDS } from './types.js';

const HISTORY = new Set<string>(HISTORY_KINDS);

export function isZeroFilter(f: ChunkFilter | undefined): boolean {
  return (
    !f ||
    (!f.language &&
      !f.path &&
      !f.symbol_kinds?.length &&
      !f.commit_hash &&
      f.is_test === undefined &&
      !f.chunk_kinds?.length &&
      !f.tier?.length &&
      !f.symbol &&
      !f.as_of)
  );
}

/** Works on anything with a chunk's filterable fields (a Chunk, or a vector store's record). */
export function chunkMatcher<
  T extends Pick<Chunk, 'language' | 'file' | 'symbol_kind' | 'commit_hash' | 'is_test'> &
    Partial<Pick<Chunk, 'chunk_kind' | 'tier' | 'symbol_name' | 'symbol_id' | 'committed_at_utc'>> = Chunk,
>(f: ChunkFilter | undefined): (c: T) => boolean {
  if (!f || isZeroFilter(f)) return (c) => !c.chunk_kind || !HISTORY.has(c.chunk_kind);
  const glob = f.path ? globMatcher(f.path, { wholePath: true }) : undefined;
  const kinds = f.symbol_kinds?.length ? new Set(f.symbol_kinds.map((k) => k.toLowerCase())) : undefined;
  const language = f.language?.toLowerCase();
  const chunkKinds = f.chunk_kinds?.length ? new Set<string>(f.chunk_kinds) : undefined;
  const asOf = f.as_of ? Date.parse(f.as_of) : undefined;
  const tiers = f.tier?.length ? new Set<number>(f.tier) : undefined;
  return (c) =>
    (!language || c.language.toLowerCase() === language) &&
    (!glob || glob(c.file)) &&
    (!kinds || (c.symbol_kind !== undefined && kinds.has(c.symbol_kind))) &&
    (!f.commit_hash || c.commit_hash.startsWith(f.commit_hash)) &&
    (f.is_test === undefined || c.is_test === f.is_test) &&
    (chunkKinds ? c.chunk_kind !== undefined && chunkKinds.has(c.chunk_kind) : !c.chunk_kind || !HISTORY.has(c.chunk_kind)) &&
    (asOf === undefined || !c.committed_at_utc || Date.parse(c.committed_at_utc) <= asOf) &&
    (!tiers || (c.tier !== undefined && tiers.has(c.tier))) &&
    (!f.symbol || c.symbol_name === f.symbol || c.symbol_id === f.symbol);
}
