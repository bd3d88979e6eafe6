/**
 * The vector store contract (Upsert, DeleteByFile, Search with a filter, Stats, Close) and its embedded
 * default: a small on-disk store under the cache dir, `<cacheDir>/workspaces/<id>/vectors/`.
 *
 * Why not an engine: LanceDB (@lancedb/lancedb 0.39) requires Node >= 22 and an apache-arrow peer;
 * sqlite-vec needs a SQLite binding (better-sqlite3 has an install script, node:sqlite is not in
 * Node 20); hnswlib-node and usearch compile or run node-gyp-build at install. None installs with no
 * install script on Node 20 and 22 (docs/operations-guide.md, Code search, has the measurements).
 *
 * Layout: `manifest.json` (schema version, the embedder identity and its checksum, the live segment
 * list) and append-only segments `seg-<n>.bin` (vector-segment.ts): magic, a JSON header (files
 * deleted, then records) and a Float32 matrix of finite values (a segment holding another is
 * refused on open and the index rebuilt). A record names its matrix row, or -1 when its vector is already stored under
 * the same embed_key (a chunk that moved: only its record is written again). Every write is a new
 * segment written to a temp file and renamed, then the manifest is renamed over the old one, so a
 * crashed process leaves the last complete state (no fsync: a power loss may lose the last writes,
 * which are re-embedded then);
 * a segment the manifest does not name is garbage and removed on open. Replaying segments in order
 * gives the live set (a segment's deletes first, then its records, later ids overriding earlier).
 * When the segments hold more dead rows than live ones (or there are many), they are compacted into
 * one. One writer at a time is the design; two processes writing the same index lose each other's
 * manifest updates, which costs a rebuild (a record naming a vector that is gone fails the open),
 * never a wrong vector: a vector is found by the hash of the text it embeds, under one identity. Search is exact cosine over the live rows (unit vectors, so a dot product): a flat scan of
 * ~10,000 512-float rows takes a few milliseconds, less than an ANN index would save.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { LspgateError } from '../errors/errors.js';
import { mkdirPrivate } from '../util/private-files.js';
import { type EmbeddingIdentity, identityChecksum } from './embedder.js';
import { allFinite } from './embedding-answer.js';
import { chunkMatcher } from './filter.js';
import { type Chunk, CHUNK_SCHEMA_VERSION, type ChunkFilter } from './types.js';
import { BadSegment, decodeSegment, encodeSegment, writeAtomic } from './vector-segment.js';

/** What the store keeps of a chunk: enough to filter and to cite, not its text. */
export type StoredChunk = Pick<Chunk, 'id' | 'file' | 'start_line' | 'end_line' | 'language' | 'is_test' | 'symbol_kind' | 'commit_hash' | 'content_sha256'> & {
  /** Hash of what was embedded: a chunk that only moved keeps its vector under a new id. */
  embed_key: string;
};

export interface StoreHit {
  chunk: StoredChunk;
  /** Cosine distance in [0, 2]. */
  distance: number;
}

export interface VectorStoreStats {
  chunk_count: number;
  embedding_model: string;
  embedding_dim: number;
  embedder_checksum: string;
  indexed_head: string;
  built_at: string;
  schema_version: string;
  size_bytes: number;
}

/** The vector store contract, plus the vector lookup the incremental indexer needs to reuse moved chunks. */
export interface VectorStore {
  upsert(chunks: StoredChunk[], embeddings: Float32Array[]): void;
  deleteByFile(file: string): void;
  /** Deletes then upserts in one durable step (the incremental indexer's unit of work). */
  replace(files: string[], chunks: StoredChunk[], embeddings: Float32Array[]): void;
  search(query: Float32Array, k: number, filter?: ChunkFilter, accept?: (c: StoredChunk) => boolean): StoreHit[];
  /** The stored records of one file with their vectors. */
  fileRecords(file: string): { chunk: StoredChunk; vector: Float32Array }[];
  files(): string[];
  /** Vectors stored now. */
  readonly size: number;
  setHead(head: string): void;
  stats(): VectorStoreStats;
  close(): void;
  /** Why the stored index was dropped and rebuilt when it was opened, for the first caller to report. */
  rebuiltBecause?: string | undefined;
}

interface Manifest {
  schema_version: string;
  identity: EmbeddingIdentity;
  checksum: string;
  built_at: string;
  indexed_head: string;
  chunk_count: number;
  next: number;
  segments: string[];
}

const MAX_SEGMENTS = 24;
export const STORE_SCHEMA_VERSION = `${CHUNK_SCHEMA_VERSION}+vectors-2`;

function unitCopy(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = n > 0 ? v[i]! / n : 0;
  return out;
}

/** Whether `b`, normalised, is `a` (a unit vector). */
function sameVector(a: Float32Array, b: Float32Array): boolean {
  const u = unitCopy(b);
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - u[i]!) > 1e-6) return false;
  return a.length === b.length;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export interface OpenOptions {
  /** Drop an index built by another embedder (or an older schema) instead of refusing it. */
  reindex?: boolean;
}

/** The embedded default VectorStore: one directory, one embedder identity. */
export class FileVectorStore implements VectorStore {
  private readonly rows = new Map<string, { chunk: StoredChunk; vector: Float32Array }>();
  private readonly byFile = new Map<string, Set<string>>();
  /** Every vector written to the live segments, by embed_key (records may point at one with row -1). */
  private readonly byKey = new Map<string, Float32Array>();
  /** Rows written to the live segments, live or not: dead = written − live. */
  private written = 0;
  private closed = false;
  /** Set when open() found an index it could not use for a reason a caller should hear (read once). */
  rebuiltBecause: string | undefined;

  private constructor(
    readonly dir: string,
    private manifest: Manifest,
  ) {}

  /**
   * Opens (or creates) the store for `identity`. An index built by an embedder with another
   * checksum is refused with INDEX_MISMATCH and a reindex hint — its vectors live in another space —
   * unless `reindex` asks to drop it.
   */
  static open(dir: string, identity: EmbeddingIdentity, opts: OpenOptions = {}): FileVectorStore {
    const checksum = identityChecksum(identity);
    const found = FileVectorStore.readManifest(dir);
    if (found && !opts.reindex && (found.checksum !== checksum || found.schema_version !== STORE_SCHEMA_VERSION)) {
      const was = `${found.identity.provider}/${found.identity.model} (dim ${found.identity.dim})`;
      const now = `${identity.provider}/${identity.model} (dim ${identity.dim})`;
      throw new LspgateError(
        'INDEX_MISMATCH',
        found.schema_version !== STORE_SCHEMA_VERSION
          ? `the vector index in ${dir} has schema ${found.schema_version}, this lspgate writes ${STORE_SCHEMA_VERSION}; reindex to rebuild it`
          : `the vector index was built with embedder ${was}, the configured embedder is ${now}: its scores would be meaningless; reindex to rebuild it with the configured embedder`,
        {
          index_embedder: found.identity,
          index_checksum: found.checksum,
          configured_embedder: identity,
          configured_checksum: checksum,
          hint: 'pass reindex: true to search_code or index_folder (CLI: --reindex), or set the embedder the index was built with',
        },
      );
    }
    let why: string | undefined;
    if (found && !opts.reindex) {
      const store = new FileVectorStore(dir, found);
      try {
        store.load();
        return store;
      } catch (e) {
        // A segment is missing or damaged (the workspace's cache dir was cleared under us) — or it
        // holds non-finite vectors, which no search can use: rebuild, and say so when it matters.
        if (e instanceof BadSegment && e.reason === 'non_finite') why = `the stored vector index held non-finite vectors (${e.message}): rebuilt`;
      }
    }
    const fresh = FileVectorStore.create(dir, identity, checksum);
    fresh.rebuiltBecause = why;
    return fresh;
  }

  private static create(dir: string, identity: EmbeddingIdentity, checksum: string): FileVectorStore {
    rmSync(dir, { recursive: true, force: true });
    mkdirPrivate(dir);
    const fresh: Manifest = {
      schema_version: STORE_SCHEMA_VERSION,
      identity,
      checksum,
      built_at: new Date().toISOString(),
      indexed_head: '',
      chunk_count: 0,
      next: 1,
      segments: [],
    };
    const store = new FileVectorStore(dir, fresh);
    store.writeManifest();
    return store;
  }

  /** The manifest of the index in `dir`, if there is a readable one. */
  static readManifest(dir: string): Manifest | undefined {
    try {
      const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
      return m && Array.isArray(m.segments) && typeof m.checksum === 'string' ? m : undefined;
    } catch {
      return undefined;
    }
  }

  /** Bytes of the manifest and the live segments. */
  static sizeOnDisk(dir: string): number {
    const m = FileVectorStore.readManifest(dir);
    if (!m) return 0;
    let n = 0;
    for (const f of ['manifest.json', ...m.segments]) n += existsSync(path.join(dir, f)) ? statSync(path.join(dir, f)).size : 0;
    return n;
  }

  private load(): void {
    for (const name of this.manifest.segments) {
      const { header, vectors } = decodeSegment<StoredChunk>(readFileSync(path.join(this.dir, name)), name);
      const resolved = header.records.map((r, i) => {
        const v = header.rows[i]! >= 0 ? vectors[header.rows[i]!] : this.byKey.get(r.embed_key);
        if (!v) throw new Error(`record ${r.id} names no stored vector`);
        this.byKey.set(r.embed_key, v);
        return v;
      });
      this.apply(header.deleted_files, header.records, resolved);
      this.written += header.records.length;
    }
    const live = new Set([...this.manifest.segments, 'manifest.json']);
    for (const f of readdirSync(this.dir)) if (!live.has(f)) rmSync(path.join(this.dir, f), { force: true });
  }

  private apply(deletedFiles: string[], records: StoredChunk[], vectors: Float32Array[]): void {
    for (const f of deletedFiles) {
      for (const id of this.byFile.get(f) ?? []) this.rows.delete(id);
      this.byFile.delete(f);
    }
    records.forEach((chunk, i) => {
      const old = this.rows.get(chunk.id);
      if (old) this.byFile.get(old.chunk.file)?.delete(chunk.id);
      this.rows.set(chunk.id, { chunk, vector: vectors[i]! });
      let ids = this.byFile.get(chunk.file);
      if (!ids) this.byFile.set(chunk.file, (ids = new Set()));
      ids.add(chunk.id);
    });
  }

  /** Numbered in order, with the writer's pid: two processes writing at once never overwrite a segment. */
  private segmentName(): string {
    return `seg-${String(this.manifest.next).padStart(6, '0')}-${process.pid}.bin`;
  }

  private writeManifest(): void {
    writeAtomic(path.join(this.dir, 'manifest.json'), [Buffer.from(JSON.stringify(this.manifest))]);
  }

  private check(): void {
    if (this.closed) throw new LspgateError('INTERNAL', 'vector store is closed');
  }

  replace(files: string[], chunks: StoredChunk[], embeddings: Float32Array[]): void {
    this.check();
    if (chunks.length !== embeddings.length) throw new LspgateError('INTERNAL', `upsert of ${chunks.length} chunks with ${embeddings.length} vectors`);
    const dim = this.manifest.identity.dim;
    const bad = embeddings.find((v) => v.length !== dim);
    if (bad) throw new LspgateError('INTERNAL', `a ${bad.length}-dimensional vector for an index of dim ${dim}`);
    // embedders validate their answers; this is the last line: nothing non-finite is ever written
    if (!allFinite(embeddings)) throw new LspgateError('INTERNAL', 'a vector with a non-finite value: not stored');
    if (files.length === 0 && chunks.length === 0) return;
    const records = chunks.map((c) => ({ ...c }));
    const fresh: Float32Array[] = [];
    const rows: number[] = [];
    const vectors = embeddings.map((e, i) => {
      const key = records[i]!.embed_key;
      const known = this.byKey.get(key);
      const v = known && (known === e || sameVector(known, e)) ? known : unitCopy(e);
      if (v !== known) {
        this.byKey.set(key, v);
        fresh.push(v);
      }
      rows.push(v === known ? -1 : fresh.length - 1);
      return v;
    });
    const name = this.segmentName();
    mkdirPrivate(this.dir);
    writeAtomic(path.join(this.dir, name), encodeSegment({ dim, deleted_files: files, records, rows }, fresh));
    this.apply(files, records, vectors);
    this.written += records.length;
    this.manifest = {
      ...this.manifest,
      next: this.manifest.next + 1,
      segments: [...this.manifest.segments, name],
      chunk_count: this.rows.size,
      built_at: new Date().toISOString(),
    };
    if (this.manifest.segments.length > MAX_SEGMENTS || this.written > 2 * this.rows.size + 1000) this.compact();
    else this.writeManifest();
  }

  upsert(chunks: StoredChunk[], embeddings: Float32Array[]): void {
    this.replace([], chunks, embeddings);
  }

  deleteByFile(file: string): void {
    this.replace([file], [], []);
  }

  /** Rewrites the live rows as one segment and drops the others. */
  private compact(): void {
    const old = this.manifest.segments;
    const name = this.segmentName();
    const live = [...this.rows.values()];
    const rowOf = new Map<Float32Array, number>();
    const rows = live.map((r) => rowOf.get(r.vector) ?? rowOf.set(r.vector, rowOf.size).get(r.vector)!);
    writeAtomic(
      path.join(this.dir, name),
      encodeSegment({ dim: this.manifest.identity.dim, deleted_files: [], records: live.map((r) => r.chunk), rows }, [...rowOf.keys()]),
    );
    this.byKey.clear();
    for (const r of live) this.byKey.set(r.chunk.embed_key, r.vector);
    this.manifest = { ...this.manifest, next: this.manifest.next + 1, segments: [name] };
    this.writeManifest();
    this.written = live.length;
    for (const s of old) rmSync(path.join(this.dir, s), { force: true });
  }

  search(query: Float32Array, k: number, filter?: ChunkFilter, accept?: (c: StoredChunk) => boolean): StoreHit[] {
    this.check();
    if (query.length !== this.manifest.identity.dim)
      throw new LspgateError('INTERNAL', `a ${query.length}-dimensional query for an index of dim ${this.manifest.identity.dim}`);
    const q = unitCopy(query);
    const match = chunkMatcher<StoredChunk>(filter);
    // The k best so far, nearest first: most rows lose to the k-th and cost one comparison.
    const top: StoreHit[] = [];
    for (const { chunk, vector } of this.rows.values()) {
      const distance = 1 - dot(q, vector);
      if (top.length >= k && distance >= top[top.length - 1]!.distance) continue;
      if (!match(chunk) || (accept && !accept(chunk))) continue;
      let i = top.length;
      while (i > 0 && top[i - 1]!.distance > distance) i--;
      top.splice(i, 0, { chunk, distance });
      if (top.length > k) top.pop();
    }
    return top;
  }

  fileRecords(file: string): { chunk: StoredChunk; vector: Float32Array }[] {
    return [...(this.byFile.get(file) ?? [])].map((id) => this.rows.get(id)!);
  }

  files(): string[] {
    return [...this.byFile.keys()];
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  get size(): number {
    return this.rows.size;
  }

  setHead(head: string): void {
    if (this.manifest.indexed_head === head) return;
    this.manifest = { ...this.manifest, indexed_head: head };
    this.writeManifest();
  }

  stats(): VectorStoreStats {
    const m = this.manifest;
    return {
      chunk_count: this.rows.size,
      embedding_model: m.identity.model,
      embedding_dim: m.identity.dim,
      embedder_checksum: m.checksum,
      indexed_head: m.indexed_head,
      built_at: m.built_at,
      schema_version: m.schema_version,
      size_bytes: FileVectorStore.sizeOnDisk(this.dir),
    };
  }

  close(): void {
    this.closed = true;
    this.rows.clear();
    this.byFile.clear();
  }
}
