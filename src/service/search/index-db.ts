/**
 * The workspace's SQLite database, `<cacheDir>/workspaces/<id>/index.db` (private: 0600 in a 0700
 * folder), opened once per workspace and kept in its catalog's DerivedState (closed with it). The
 * chunks with their FTS5 index (chunk-fts.ts) and the vectors (vector-store.ts) live in it.
 */
import { closeSync, existsSync } from 'node:fs';
import path from 'node:path';

import { openSqlite, type SqlDb } from '../../chunks/sqlite-handle.js';
import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { createPrivateFile, mkdirPrivate } from '../../util/private-files.js';

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

export function indexDbPath(cacheDir: string, ws: Workspace): string {
  return path.join(cacheDir, 'workspaces', ws.id, 'index.db');
}

/** The open database of the workspace (opened, and created private, on first use). */
export function indexDbOf(ws: Workspace, cacheDir: string): SqlDb {
  const slot = ws.catalog.derived.get(INDEX_DB, () => new IndexDb());
  if (!slot.db?.isOpen) {
    const file = indexDbPath(cacheDir, ws);
    mkdirPrivate(path.dirname(file));
    if (!existsSync(file)) closeSync(createPrivateFile(file));
    slot.db = openSqlite(file);
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
  if (!ws.catalog.derived.peek(INDEX_DB)?.db?.isOpen && !existsSync(indexDbPath(cacheDir, ws))) return undefined;
  return indexDbOf(ws, cacheDir);
}
