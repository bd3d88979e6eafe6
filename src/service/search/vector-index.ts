/**
 * The vector index of a workspace: a SqliteVectorStore (sqlite-vec) in the workspace's database
 * (index-db.ts), opened once per workspace for the embedder in use and kept
 * in its catalog's DerivedState (closed when the workspace is). The store's manifest records the
 * embedder's identity checksum; opening it with another embedder is INDEX_MISMATCH with a reindex
 * hint (never scores from two vector spaces), and `reindex` drops the vectors and starts again
 * with the embedder in use. A second process on the same cache dir opens the stored vectors and
 * embeds only what changed.
 */
import { type Embedder, identityChecksum } from '../../chunks/embedder.js';
import { readStats, SqliteVectorStore, type VectorStoreStats } from '../../chunks/vector-store.js';
import { ChunkVectors } from '../../chunks/vectors.js';
import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { asBackground } from '../../util/work-class.js';
import type { ServiceCall } from '../call.js';
import { existingChunks, type SyncReport } from './chunk-sync.js';
import { existingIndexDb, indexDbOf } from './index-db.js';

/** The slot: the vectors open now (undefined until a vector search asks), closed with the workspace. */
class OpenVectors implements Derived {
  vectors: ChunkVectors | undefined;

  bytes(): number {
    // the vectors live in the database (index-db.ts): the heap holds none of them
    return 0;
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
  const store = SqliteVectorStore.open(indexDbOf(ws, cacheDir), embedder.identity(), opts);
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

/**
 * The workspace's vectors, brought up to date with the synced chunks (embedding only what is new).
 * The chunks taken from the published index (`--index`) bring their vectors: under the embedder
 * they were published with (same identity checksum) they go into the store as they are, under
 * another they are embedded here and the answer says so once.
 */
export async function updatedVectors(call: ServiceCall, sync: SyncReport, embedder: Embedder, reindex: boolean): Promise<ChunkVectors> {
  const v = vectorsFor(call.workspace, call.env.cacheDir, embedder, { reindex });
  reportRebuilt(call, v);
  const chunks = existingChunks(call.workspace);
  const pub = chunks?.publishedVectors;
  if (pub && pub.embedder !== v.checksum) {
    const why =
      `the published index's vectors are of another embedder (${describe(pub.identity)}) than this gateway's ` +
      `(${describe(embedder.identity())}): the ${pub.count()} published chunks' vectors are not used, they are embedded here`;
    call.meta.warn(why);
    call.env.logger.warn(why);
    pub.clear();
    chunks!.publishedVectors = undefined;
  }
  const seed = pub && pub.embedder === v.checksum ? (key: string) => pub.get(key) : undefined;
  const r = await asBackground(() => v.update(sync.index, sync.head, call.signal, seed));
  // every taken chunk's vector is in the store now (or was embedded): the waiting copy is not needed again
  if (seed) {
    pub?.clear();
    chunks!.publishedVectors = undefined;
  }
  if (r.imported) call.env.logger.info(`vectors: ${r.imported} chunk(s) taken from the published index, ${r.embedded} embedded here`);
  if (r.files) call.env.logger.debug(`vectors: ${r.files} file(s) updated, ${r.embedded} chunk(s) embedded, ${r.reused} reused`);
  return v;
}

/** An embedder's identity as said in a warning: provider, model and dimension (never its URL or key). */
function describe(identity: unknown): string {
  const id = (identity ?? {}) as Partial<Record<'provider' | 'model' | 'dim', unknown>>;
  return `${String(id.provider ?? '?')} ${String(id.model ?? '?')}, dim ${String(id.dim ?? '?')}`.slice(0, 160);
}

/** The stored index's stats without opening it for an embedder (index_stats must not refuse). */
export function storedVectorStats(ws: Workspace, cacheDir: string): VectorStoreStats | undefined {
  const open = ws.catalog.derived.peek(VECTORS)?.vectors;
  if (open) return open.store.stats();
  const db = existingIndexDb(ws, cacheDir);
  return db && readStats(db);
}
