/**
 * The vector index of a workspace: a SqliteVectorStore (sqlite-vec) in the workspace's database
 * `<cacheDir>/workspaces/<id>/index.db`, opened once per workspace for the embedder in use and kept
 * in its catalog's DerivedState (closed when the workspace is). The store's manifest records the
 * embedder's identity checksum; opening it with another embedder is INDEX_MISMATCH with a reindex
 * hint (never scores from two vector spaces), and `reindex` drops the vectors and starts again
 * with the embedder in use. A second process on the same cache dir opens the stored vectors and
 * embeds only what changed.
 */
import { closeSync, existsSync } from 'node:fs';
import path from 'node:path';

import { type Embedder, identityChecksum } from '../../chunks/embedder.js';
import { openSqlite, type SqlDb } from '../../chunks/sqlite-handle.js';
import { readStats, SqliteVectorStore, type VectorStoreStats } from '../../chunks/vector-store.js';
import { ChunkVectors } from '../../chunks/vectors.js';
import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { createPrivateFile, mkdirPrivate } from '../../util/private-files.js';
import { asBackground } from '../../util/work-class.js';
import type { ServiceCall } from '../call.js';
import type { SyncReport } from './chunk-sync.js';

const PAGE_CACHE_BYTES = 2000 * 1024;

/** The slot: the database and the vectors open now (undefined until asked for), closed with the workspace. */
class OpenVectors implements Derived {
  db: SqlDb | undefined;
  vectors: ChunkVectors | undefined;

  bytes(): number {
    // the vectors live in the database file: the connection holds at most SQLite's page cache
    // (cache_size's default, 2,000 KiB) and its prepared statements
    return this.db?.isOpen ? PAGE_CACHE_BYTES : 0;
  }

  dispose(): void {
    this.vectors?.store.close();
    this.vectors = undefined;
    if (this.db?.isOpen) this.db.close();
    this.db = undefined;
  }
}

const VECTORS: DerivedKey<OpenVectors> = { name: 'vectors' };

function slotOf(ws: Workspace): OpenVectors {
  return ws.catalog.derived.get(VECTORS, () => new OpenVectors());
}

export function indexDbPath(cacheDir: string, ws: Workspace): string {
  return path.join(cacheDir, 'workspaces', ws.id, 'index.db');
}

/** The workspace database, private (0600 in a 0700 folder) from its creation. */
function openDb(file: string): SqlDb {
  mkdirPrivate(path.dirname(file));
  if (!existsSync(file)) closeSync(createPrivateFile(file));
  return openSqlite(file);
}

function dbOf(slot: OpenVectors, cacheDir: string, ws: Workspace): SqlDb {
  if (!slot.db?.isOpen) slot.db = openDb(indexDbPath(cacheDir, ws));
  return slot.db;
}

/** The workspace's vectors for `embedder`, opened (or with `reindex`, rebuilt) as needed. */
export function vectorsFor(ws: Workspace, cacheDir: string, embedder: Embedder, opts: { reindex?: boolean } = {}): ChunkVectors {
  const slot = slotOf(ws);
  const have = slot.vectors;
  const checksum = identityChecksum(embedder.identity());
  if (have && have.checksum === checksum && !opts.reindex) {
    have.embedder = embedder;
    return have;
  }
  slot.vectors?.store.close();
  slot.vectors = undefined;
  const store = SqliteVectorStore.open(dbOf(slot, cacheDir, ws), embedder.identity(), opts);
  const v = new ChunkVectors(embedder, store);
  slot.vectors = v;
  return v;
}

/** Says once, in the answer and the log, that the stored vectors were dropped (found on open or by a search). */
export function reportRebuilt(call: ServiceCall, v: ChunkVectors): void {
  const why = v.store.rebuiltBecause;
  if (!why) return;
  call.meta.warn(why);
  call.env.logger.warn(why);
  v.store.rebuiltBecause = undefined;
}

/** The workspace's vectors, brought up to date with the synced chunks (embedding only what is new). */
export async function updatedVectors(call: ServiceCall, sync: SyncReport, embedder: Embedder, reindex: boolean): Promise<ChunkVectors> {
  const v = vectorsFor(call.workspace, call.env.cacheDir, embedder, { reindex });
  reportRebuilt(call, v);
  const r = await asBackground(() => v.update(sync.index, sync.head, call.signal));
  if (r.files) call.env.logger.debug(`vectors: ${r.files} file(s) updated, ${r.embedded} chunk(s) embedded, ${r.reused} reused`);
  return v;
}

/** The stored index's stats without opening it for an embedder (index_stats must not refuse). */
export function storedVectorStats(ws: Workspace, cacheDir: string): VectorStoreStats | undefined {
  const slot = ws.catalog.derived.peek(VECTORS);
  if (slot?.vectors) return slot.vectors.store.stats();
  const file = indexDbPath(cacheDir, ws);
  if (!slot?.db?.isOpen && !existsSync(file)) return undefined;
  return readStats(dbOf(slotOf(ws), cacheDir, ws));
}
