/**
 * The vector index of a workspace: one FileVectorStore under `<cacheDir>/workspaces/<id>/vectors/`,
 * opened once per workspace for the embedder in use and kept in its catalog's DerivedState (closed
 * when the workspace is). The store records the embedder's identity
 * checksum; opening it with another embedder is INDEX_MISMATCH with a reindex hint (never scores
 * from two vector spaces), and `reindex` drops it and starts again with the embedder in use.
 * A second process on the same cache dir opens the stored vectors and embeds only what changed.
 */
import path from 'node:path';

import { type Embedder, identityChecksum } from '../../chunks/embedder.js';
import { FileVectorStore, type VectorStoreStats } from '../../chunks/vector-store.js';
import { ChunkVectors } from '../../chunks/vectors.js';
import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { asBackground } from '../../util/work-class.js';
import type { ServiceCall } from '../call.js';
import type { SyncReport } from './chunk-sync.js';

/** The slot: the vectors open now (undefined until a vector search asks), closed with the workspace. */
class OpenVectors implements Derived {
  vectors: ChunkVectors | undefined;

  bytes(): number {
    // the store keeps every vector in memory: 4 bytes a dimension, and its row's fields
    const v = this.vectors;
    return v ? v.store.size * (4 * v.embedder.identity().dim + 300) : 0;
  }

  dispose(): void {
    this.vectors?.store.close();
    this.vectors = undefined;
  }
}

const VECTORS: DerivedKey<OpenVectors> = { name: 'vectors' };

function slotOf(ws: Workspace): OpenVectors {
  return ws.catalog.derived.get(VECTORS, () => new OpenVectors());
}

export function vectorDir(cacheDir: string, ws: Workspace): string {
  return path.join(cacheDir, 'workspaces', ws.id, 'vectors');
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
  slot.dispose();
  const store = FileVectorStore.open(vectorDir(cacheDir, ws), embedder.identity(), opts);
  const v = new ChunkVectors(embedder, store);
  slot.vectors = v;
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
  const v = ws.catalog.derived.peek(VECTORS)?.vectors;
  if (v) return v.store.stats();
  const dir = vectorDir(cacheDir, ws);
  const m = FileVectorStore.readManifest(dir);
  if (!m) return undefined;
  return {
    chunk_count: m.chunk_count ?? 0,
    embedding_model: m.identity.model,
    embedding_dim: m.identity.dim,
    embedder_checksum: m.checksum,
    indexed_head: m.indexed_head,
    built_at: m.built_at,
    schema_version: m.schema_version,
    size_bytes: FileVectorStore.sizeOnDisk(dir),
  };
}
