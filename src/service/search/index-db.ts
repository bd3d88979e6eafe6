/**
 * The workspace's SQLite database (src/store/db.ts: `<cacheDir>/workspaces/<id>/index.db`, private,
 * WAL, migrated), a connection of the search side opened once per workspace with extensions allowed
 * and kept in its catalog's DerivedState (closed with it). The chunks with their FTS5 index
 * (chunk-fts.ts) and the vectors (vector-store.ts) live in it beside the catalog's tables.
 */
import { existsSync } from 'node:fs';

import { loadVec, type SqlDb } from '../../chunks/sqlite-handle.js';
import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { indexDbPath, openIndexDb } from '../../store/db.js';

/** SQLite's page cache at its default cache_size (2,000 KiB): what the connection holds at most. */
const PAGE_CACHE_BYTES = 2000 * 1024;

class IndexDb implements Derived {
  db: SqlDb | undefined;

  bytes(): number {
    return this.db?.isOpen ? PAGE_CACHE_BYTES : 0;
  }

  dispose(): void {
    if (this.db?.isOpen) this.db.close();
    this.db = undefined;
  }
}

const INDEX_DB: DerivedKey<IndexDb> = { name: 'index_db' };

/** The open database of the workspace (opened through src/store/db.ts on first use, sqlite-vec loaded). */
export function indexDbOf(ws: Workspace, cacheDir: string): SqlDb {
  const slot = ws.catalog.derived.get(INDEX_DB, () => new IndexDb());
  if (!slot.db?.isOpen) {
    const db: SqlDb = openIndexDb(cacheDir, ws.id, { allowExtension: true }).db;
    loadVec(db);
    slot.db = db;
  }
  return slot.db;
}

/**
 * The database, or undefined when it cannot be had — a Node without node:sqlite, a cache on a full
 * or read-only disk — and the chunks then stay in the heap: search answers either way, as it does
 * when the catalog cannot be saved.
 */
export function indexDbIfAvailable(ws: Workspace, cacheDir: string): SqlDb | undefined {
  try {
    return indexDbOf(ws, cacheDir);
  } catch {
    return undefined;
  }
}

/** The database if one is open or on disk (index_stats reads it without creating one). */
export function existingIndexDb(ws: Workspace, cacheDir: string): SqlDb | undefined {
  if (!ws.catalog.derived.peek(INDEX_DB)?.db?.isOpen && !existsSync(indexDbPath(cacheDir, ws.id))) return undefined;
  return indexDbOf(ws, cacheDir);
}
