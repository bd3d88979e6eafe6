import { type Stats, statSync } from 'node:fs';

import type { DependencyRecorder } from '../cache/operation-cache.js';
import type { CallMeta, ServerStateView } from '../core/call-meta.js';
import type { IndexState, LimitHit, SymbolAlternative } from '../schema/meta.js';

/**
 * Handlers report what went into an answer here; the runner turns it into `_meta`.
 * `addSourceFile` records a file the answer saves the agent from reading (for tokens_saved).
 */
export class MetaCollector implements CallMeta {
  readonly servers = new Map<string, { id: string; root: string; state: string }>();
  readonly sourceFiles = new Map<string, number>();
  truncated = false;
  nextCursor: string | undefined;
  readonly limitsHit: LimitHit[] = [];
  readonly warnings: string[] = [];
  readonly alternatives: SymbolAlternative[] = [];
  indexState: IndexState = 'ready';
  contentVerified: boolean | undefined;
  /**
   * Sessions and files the answer was built from, with their stamps at first use, when the runner
   * records them for its operation cache (filled while the handler runs, see util/dependency-scope).
   */
  constructor(readonly dependencies?: DependencyRecorder) {}

  addServer(session: ServerStateView): void {
    this.servers.set(`${session.serverId}@${session.root}`, { id: session.serverId, root: session.root, state: session.state });
    if (session.state === 'indexing' || session.state === 'starting') this.setIndexState('indexing');
  }

  addSourceFile(absPath: string, bytes?: number): void {
    if (this.sourceFiles.has(absPath)) return;
    let size = bytes;
    let st: Stats | undefined;
    if (size === undefined) {
      try {
        st = statSync(absPath);
        size = st.size;
      } catch {
        size = 0;
      }
    }
    this.sourceFiles.set(absPath, size);
    this.dependencies?.noteFile(absPath, st);
  }

  /** 'syntax' beats 'indexing' beats 'partial' beats 'ready': the answer is only as complete as its weakest source. */
  setIndexState(state: IndexState): void {
    const rank = { ready: 0, partial: 1, indexing: 2, syntax: 3 } as const;
    if (rank[state] > rank[this.indexState]) this.indexState = state;
  }

  truncate(nextCursor?: string): void {
    this.truncated = true;
    if (nextCursor !== undefined) this.nextCursor = nextCursor;
  }

  limit(hit: LimitHit): void {
    this.limitsHit.push(hit);
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  addAlternatives(list: SymbolAlternative[]): void {
    for (const a of list) if (!this.alternatives.some((b) => b.symbol_id === a.symbol_id)) this.alternatives.push(a);
  }

  rawBytes(): number {
    let n = 0;
    for (const v of this.sourceFiles.values()) n += v;
    return n;
  }
}
