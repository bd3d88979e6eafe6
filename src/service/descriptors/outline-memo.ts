/**
 * get_file_outline's full outlines (descriptors and ids), kept per workspace file: derived state of
 * the workspace (its catalog's DerivedState, dropped with it), bounded in bytes. An outline is a
 * function of the file model (its frozen symbol list, shared while the cached documentSymbol answer
 * and the document's content are unchanged: file-context.ts), the adapter, and the catalog's entry
 * for the file (its ids): it is reused only while all three are the same objects. The catalog's
 * change feed drops a file's outline as soon as the file changes; the identity checks are the net.
 */
import { LRUCache } from 'lru-cache';

import type { CatalogChanges, CatalogSymbol, Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import type { OutlineSymbol } from '../../schema/descriptors.js';
import { ENTRY_OVERHEAD, stringBytes } from '../../util/bounded-memo.js';

export interface KeptOutline {
  /** The file model's symbol list it was made from (identity). */
  symbols: object;
  adapter: string;
  /** The catalog's symbol list of the file its ids came from (undefined: ids from the file's own answer). */
  cataloged: CatalogSymbol[] | undefined;
  roots: OutlineSymbol[];
}

/** An outline node with its descriptor fields, counted at 400 bytes. */
const NODE_BYTES = 400;

function nodes(list: readonly OutlineSymbol[]): number {
  let n = 0;
  for (const s of list) n += 1 + nodes(s.children ?? []);
  return n;
}

export class WorkspaceOutlines implements Derived {
  private readonly kept = new LRUCache<string, KeptOutline>({
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (v, k) => stringBytes(k) + ENTRY_OVERHEAD + NODE_BYTES * nodes(v.roots),
  });
  private readonly unsubscribe: () => void;

  constructor(ws: Workspace) {
    this.unsubscribe = ws.catalog.changes.subscribe((batch) => this.onChanges(batch));
  }

  /** The kept outline of `rel` if it was made from these very objects. */
  get(rel: string, symbols: object, adapter: string, cataloged: CatalogSymbol[] | undefined): OutlineSymbol[] | undefined {
    const k = this.kept.get(rel);
    return k && k.symbols === symbols && k.adapter === adapter && k.cataloged === cataloged ? k.roots : undefined;
  }

  set(rel: string, kept: KeptOutline): void {
    this.kept.set(rel, kept);
  }

  bytes(): number {
    return this.kept.calculatedSize ?? 0;
  }

  dispose(): void {
    this.unsubscribe();
    this.kept.clear();
  }

  private onChanges(batch: CatalogChanges): void {
    if (batch.reset) this.kept.clear();
    else for (const c of batch.changes) this.kept.delete(c.rel);
  }
}

const OUTLINES: DerivedKey<WorkspaceOutlines> = { name: 'outlines' };

export function outlinesOf(ws: Workspace): WorkspaceOutlines {
  return ws.catalog.derived.get(OUTLINES, () => new WorkspaceOutlines(ws));
}
