/**
 * The vectors that came with the chunks a workspace took from the published index (`--index`),
 * kept until its first vector search takes them into the vector store (under the embedder they were
 * published with) or drops them (under another). Keyed by the hash of the embedded text
 * (vectors.ts's embed key).
 *
 * With the workspace database they wait in its `published_vectors` table, the embedder in `meta`:
 * the heap holds none of them (a published repository's vectors are tens of MB), and a restart
 * between the take and the first vector search still has them — the chunks were taken once, so a
 * new process would not take them again. Without a database (a Node without node:sqlite), in a Map.
 */
import { inTransaction, type SqlDb } from './sqlite-handle.js';

export interface WaitingVectors {
  /** The identity checksum of the embedder the vectors were published with. */
  readonly embedder: string;
  /** That embedder's identity (provider, model, dimension), as said in a warning. */
  readonly identity: unknown;
  /** How many vectors wait. */
  count(): number;
  get(key: string): Float32Array | undefined;
  /** Adds one file's taken vectors (in one transaction). */
  add(vectors: ReadonlyMap<string, Float32Array>): void;
  /** Every vector was taken into the store or re-embedded: none waits any more. */
  clear(): void;
  /** Bytes held in the heap. */
  bytes(): number;
}

const META_KEY = 'published_vectors_embedder';

class HeapPublishedVectors implements WaitingVectors {
  private readonly byKey = new Map<string, Float32Array>();

  constructor(
    readonly embedder: string,
    readonly identity: unknown,
  ) {}

  count(): number {
    return this.byKey.size;
  }
  get(key: string): Float32Array | undefined {
    return this.byKey.get(key);
  }
  add(vectors: ReadonlyMap<string, Float32Array>): void {
    for (const [k, v] of vectors) this.byKey.set(k, v);
  }
  clear(): void {
    this.byKey.clear();
  }
  bytes(): number {
    let held = 0;
    for (const v of this.byKey.values()) held += v.byteLength + 64;
    return held;
  }
}

class DbPublishedVectors implements WaitingVectors {
  constructor(
    private readonly db: SqlDb,
    readonly embedder: string,
    readonly identity: unknown,
  ) {}

  count(): number {
    return Number(this.db.prepare('SELECT count(*) AS n FROM published_vectors').get()?.n ?? 0);
  }
  get(key: string): Float32Array | undefined {
    const blob = this.db.prepare('SELECT vector FROM published_vectors WHERE embed_key = ?').get(key)?.vector;
    if (!(blob instanceof Uint8Array) || blob.byteLength % 4 !== 0) return undefined;
    // a copy: the row's bytes need not be aligned for a Float32Array view
    const bytes = new Uint8Array(blob);
    return new Float32Array(bytes.buffer, 0, bytes.byteLength / 4);
  }
  add(vectors: ReadonlyMap<string, Float32Array>): void {
    inTransaction(this.db, () => {
      const ins = this.db.prepare('INSERT OR REPLACE INTO published_vectors(embed_key, vector) VALUES (?, ?)');
      for (const [k, v] of vectors) ins.run(k, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    });
  }
  clear(): void {
    inTransaction(this.db, () => {
      this.db.exec('DELETE FROM published_vectors');
      this.db.prepare('DELETE FROM meta WHERE key = ?').run(META_KEY);
    });
  }
  bytes(): number {
    return 0;
  }
}

/**
 * A new holder for vectors of `embedder` (its identity checksum): in `db` when there is one
 * (replacing what waited there), else in the heap.
 */
export function newWaitingVectors(db: SqlDb | undefined, embedder: string, identity: unknown): WaitingVectors {
  if (!db) return new HeapPublishedVectors(embedder, identity);
  inTransaction(db, () => {
    db.exec('DELETE FROM published_vectors');
    db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
      META_KEY,
      JSON.stringify({ embedder, identity }),
    );
  });
  return new DbPublishedVectors(db, embedder, identity);
}

/** The vectors an earlier process took and no vector search has used yet, if any wait in `db`. */
export function waitingPublishedVectors(db: SqlDb): WaitingVectors | undefined {
  const raw = db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY)?.value;
  if (typeof raw !== 'string') return undefined;
  let saved: { embedder?: unknown; identity?: unknown };
  try {
    saved = JSON.parse(raw) as typeof saved;
  } catch {
    return undefined;
  }
  if (typeof saved.embedder !== 'string') return undefined;
  const held = new DbPublishedVectors(db, saved.embedder, saved.identity);
  return held.count() > 0 ? held : undefined;
}
