/**
 * status(): what the catalog holds now, from the index's stamps and counter (no symbol is read).
 * A file that failed since the build (a changed file over a parse bound) makes the workspace
 * partial; a ready catalog with no file and no error is empty, with the reason.
 */
import type { CatalogFileError, CatalogStatus } from '../core/catalog.js';
import { emptyReason } from './empty-reason.js';
import type { SkipReason } from './file-filter.js';
import { INDEX_VERSION } from './store.js';
import type { SymbolIndex } from './symbol-index.js';

export interface StatusInput {
  index: SymbolIndex;
  state: CatalogStatus['state'];
  errors: ReadonlyMap<string, CatalogFileError>;
  skipped: Partial<Record<SkipReason, number>>;
  passError: string | undefined;
  indexedAt: string | undefined;
  gitHead: string;
  /** The tiers' counts, when the workspace has a syntax tier. */
  tiers: (() => CatalogStatus['tiers']) | undefined;
}

export function catalogStatus(s: StatusInput): CatalogStatus {
  const empty = s.state === 'ready' && s.index.files.size === 0 && s.errors.size === 0;
  return {
    state: empty ? 'empty' : s.state === 'ready' && s.errors.size ? 'partial' : s.state,
    ...(empty ? { empty_reason: emptyReason(s.skipped, s.passError) } : {}),
    files: s.index.files.size,
    symbols: s.index.symbolCount(),
    ...(s.indexedAt ? { indexed_at: s.indexedAt } : {}),
    git_head: s.gitHead,
    index_version: INDEX_VERSION,
    errors: [...s.errors.values()].sort((a, b) => a.file.localeCompare(b.file)),
    ...(s.tiers ? { tiers: s.tiers() } : {}),
  };
}
