/**
 * What the code answering one call reports for the result's `_meta` (types only). The operation
 * runner's MetaCollector implements it; the service and the paging helpers (core/paging.ts) write to it.
 */
import type { IndexState, LimitHit, SymbolAlternative } from '../schema/meta.js';

export type { SymbolAlternative };

/** The part of a language-server session `_meta.servers` shows. */
export interface ServerStateView {
  readonly serverId: string;
  readonly root: string;
  readonly state: string;
}

export interface CallMeta {
  addServer(session: ServerStateView): void;
  /** A file the answer saves the agent from reading (tokens_saved). */
  addSourceFile(absPath: string, bytes?: number): void;
  /** 'indexing' beats 'partial' beats 'ready'. */
  setIndexState(state: IndexState): void;
  truncate(nextCursor?: string): void;
  limit(hit: LimitHit): void;
  warn(message: string): void;
  /** The declarations a name resolution passed over for the one answered (`_meta.alternatives`). */
  addAlternatives(list: SymbolAlternative[]): void;
  contentVerified: boolean | undefined;
}
