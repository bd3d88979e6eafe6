/**
 * The vector index of a workspace: one FileVectorStore under `<cacheDir>/workspaces/<id>/vectors/`,
 * opened once per process for the embedder in use. The store records the embedder's identity
 * checksum; opening it with another embedder is INDEX_MISMATCH with a reindex hint (never scores
 * from two vector spaces), and `reindex` drops it and starts again with the embedder in use.
 * A second process on the same cache dir opens the stored vectors and embeds only what changed.
 */
import path from 'node:path';
import { identityChecksum, type Embedder } from '../../chunks/embedder.js';
import { ChunkVectors } from '../../chunks/vectors.js';
import { FileVectorStore, type VectorStoreStats } from '../../chunks/vector-store.js';
import type { Catalog } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import type { ServiceCall } from '../call.js';
import type { SyncReport } from './chunk-sync.js';
import { asBackground } from '../../util/work-class.js';

const open = new WeakMap<Catalog, ChunkVectors>();

export function vectorDir(cacheDir: string, ws: Workspace): string {
  return path.join(cacheDir, 'workspaces', ws.id, 'vectors');
}

/** The workspace's vectors for `embedder`, opened (or with `reindex`, rebuilt) as needed. */
export function vectorsFor(ws: Workspace, cacheDir: string, embedder: Embedder, opts: { reindex?: boolean } = {}): ChunkVectors {
  const have = open.get(ws.catalog);
  const checksum = identityChecksum(embedder.identity());
  if (have && have.checksum === checksum && !opts.reindex) {
    have.embedder = embedder;
    return have;
  }
  have?.store.close();
  open.delete(ws.catalog);
  const store = FileVectorStore.open(vectorDir(cacheDir, ws), embedder.identity(), opts);
  const v = new ChunkVectors(embedder, store);
  open.set(ws.catalog, v);
  return v;
}

/** The workspace's vectors, brought up to date with the synced chunks (embedding only what is new). */
export async function updatedVectors(call: ServiceCall, sync: SyncReport, embedder: Embedder, reindex: boolean): Promise<ChunkVectors> {
  const v = vectorsFor(call.workspace, call.env.cacheDir, embedder, { reindex });
  if (v.store.rebuiltBecause) {
    call.meta.warn(v.store.rebuiltBecause);
    call.env.logger.warn(v.store.rebuiltBecause);
    v.store.rebuiltBecause = undefined;
  }
  const r = await asBackground(() => v.update(sync.index, sync.head, call.signal));
  if (r.files) call.env.logger.debug(`vectors: ${r.files} file(s) updated, ${r.embedded} chunk(s) embedded, ${r.reused} reused`);
  return v;
}

/** The stored index's stats without opening it for an embedder (index_stats must not refuse). */
export function storedVectorStats(ws: Workspace, cacheDir: string): VectorStoreStats | undefined {
  const v = open.get(ws.catalog);
  if (v) return v.store.stats();
  const dir = vectorDir(cacheDir, ws);
  const m = FileVectorStore.readManifest(dir);
  if (!m) return undefined;
  return { chunk_count: m.chunk_count ?? 0, embedding_model: m.identity.model, embedding_dim: m.identity.dim, embedder_checksum: m.checksum, indexed_head: m.indexed_head, built_at: m.built_at, schema_version: m.schema_version, size_bytes: FileVectorStore.sizeOnDisk(dir) };
}
