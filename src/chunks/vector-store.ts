/**
 * The vector store contract (seed 004's Upsert, DeleteByFile, Search with a filter, Stats, Close) and
 * its implementation in the workspace's SQLite database with sqlite-vec:
 * - `chunk_vectors`: one row per stored chunk (what is needed to filter and to cite, and the hash
 *   of the text its vector embeds), its rowid the key of
 * - `vec_chunks`, a vec0 table (`chunk_rowid INTEGER PRIMARY KEY, embedding float[dim]`, cosine),
 * - `manifest`: the embedder identity, its checksum, the dimension, built_at, indexed_head.
 * Opening with an embedder of another checksum is INDEX_MISMATCH with a reindex hint (vectors of
 * two spaces are never compared); `reindex` drops the vectors and starts again. Every write is one
 * transaction (a per-file replace is delete + insert together), so a killed process leaves the
 * previous state in the WAL-journaled file. Vectors are stored as unit vectors.
 * Search with a filter pre-filters: the matching rows' rowids bound the KNN (`chunk_rowid IN
 * (...)`), so `k` filtered hits come back when they exist; with no filter the KNN runs on the whole
 * table. The workspace's search (`searchLive`) selects those rowids in SQL, joined to the live chunks
 * (filter-sql.ts); `search` matches a filter in JS, for a store whose chunks are not in its database.
 */
import { LspgateError } from '../errors/errors.js';
import { type EmbeddingIdentity, identityChecksum } from './embedder.js';
import { allFinite } from './embedding-answer.js';
import { chunkMatcher, isZeroFilter } from './filter.js';
import { filterSql } from './filter-sql.js';
import { inTransaction, type SqlDb, type SqlRow } from './sqlite-handle.js';
import { type Chunk, CHUNK_SCHEMA_VERSION, type ChunkFilter } from './types.js';

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
  /** The database it lives in, and a search filtered in SQL against the live chunks there (when the chunks are in it too). */
  readonly db?: SqlDb;
  searchLive?(query: Float32Array, k: number, filter: ChunkFilter | undefined, head: string): StoreHit[];
  /** The stored records of one file with their vectors. */
  fileRecords(file: string): { chunk: StoredChunk; vector: Float32Array }[];
  /** The stored chunk ids by file (one query: what the indexer compares with its chunks). */
  idsByFile(): Map<string, Set<string>>;
  files(): string[];
  /** Vectors stored now. */
  readonly size: number;
  setHead(head: string): void;
  stats(): VectorStoreStats;
  close(): void;
  /** Why the stored index was dropped and rebuilt when it was opened, for the first caller to report. */
  rebuiltBecause?: string | undefined;
}

export const STORE_SCHEMA_VERSION = `${CHUNK_SCHEMA_VERSION}+sqlite-vec-1`;
/** sqlite-vec's largest k. */
const MAX_K = 4096;

const RECORDS_DDL = `CREATE TABLE IF NOT EXISTS chunk_vectors (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, file TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
  language TEXT NOT NULL, is_test INTEGER NOT NULL, symbol_kind TEXT, commit_hash TEXT NOT NULL, content_sha256 TEXT NOT NULL,
  embed_key TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_chunk_vectors_file ON chunk_vectors(file);`;

export interface OpenOptions {
  /** Drop an index built by another embedder (or an older schema) instead of refusing it. */
  reindex?: boolean;
}

function unitCopy(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = n > 0 ? v[i]! / n : 0;
  return out;
}

const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

function fromRow(r: SqlRow): StoredChunk {
  const s: StoredChunk = {
    id: r.id as string,
    file: r.file as string,
    start_line: r.start_line as number,
    end_line: r.end_line as number,
    language: r.language as string,
    is_test: r.is_test === 1,
    commit_hash: r.commit_hash as string,
    content_sha256: r.content_sha256 as string,
    embed_key: r.embed_key as string,
  };
  if (r.symbol_kind !== null) s.symbol_kind = r.symbol_kind as Chunk['symbol_kind'] & string;
  return s;
}

function manifestOf(db: SqlDb): Map<string, string> {
  db.exec('CREATE TABLE IF NOT EXISTS manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  return new Map(
    db
      .prepare('SELECT key, value FROM manifest')
      .all()
      .map((r) => [r.key as string, r.value as string]),
  );
}

function tableExists(db: SqlDb, name: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE name = ? AND type IN ('table', 'view')").get(name);
}

/** The VectorStore in a SQLite database (sqlite-vec's vec0), for one embedder identity. */
export class SqliteVectorStore implements VectorStore {
  private closed = false;
  rebuiltBecause: string | undefined;

  private constructor(
    readonly db: SqlDb,
    private readonly identity: EmbeddingIdentity,
    readonly checksum: string,
  ) {}

  /**
   * Opens (or creates) the store for `identity` in `db` (sqlite-vec loaded). An index built by an
   * embedder with another checksum, or by another store schema, is refused with INDEX_MISMATCH and
   * a reindex hint unless `reindex` asks to drop it.
   */
  static open(db: SqlDb, identity: EmbeddingIdentity, opts: OpenOptions = {}): SqliteVectorStore {
    const checksum = identityChecksum(identity);
    const m = manifestOf(db);
    const found = m.get('checksum');
    const schema = m.get('schema_version');
    if (found !== undefined && !opts.reindex && (found !== checksum || schema !== STORE_SCHEMA_VERSION)) {
      const was = JSON.parse(m.get('identity') ?? '{}') as EmbeddingIdentity;
      const now = `${identity.provider}/${identity.model} (dim ${identity.dim})`;
      throw new LspgateError(
        'INDEX_MISMATCH',
        schema !== STORE_SCHEMA_VERSION
          ? `the vector index has schema ${schema ?? 'unknown'}, this lspgate writes ${STORE_SCHEMA_VERSION}; reindex to rebuild it`
          : `the vector index was built with embedder ${was.provider}/${was.model} (dim ${was.dim}), the configured embedder is ${now}: its scores would be meaningless; reindex to rebuild it with the configured embedder`,
        {
          index_embedder: was,
          index_checksum: found,
          configured_embedder: identity,
          configured_checksum: checksum,
          hint: 'pass reindex: true to search_code or index_folder (CLI: --reindex), or set the embedder the index was built with',
        },
      );
    }
    const store = new SqliteVectorStore(db, identity, checksum);
    // a manifest whose tables are gone (a damaged or hand-edited database) starts again, and says so
    const intact = tableExists(db, 'vec_chunks') && tableExists(db, 'chunk_vectors');
    if (found === undefined || opts.reindex || !intact) {
      store.create();
      if (found !== undefined && !opts.reindex) store.rebuiltBecause = 'the stored vector index had lost its tables: rebuilt';
    }
    return store;
  }

  private create(): void {
    const { dim } = this.identity;
    if (!Number.isInteger(dim) || dim < 1 || dim > 8192) throw new LspgateError('INVALID_INPUT', `embedder dimension ${dim} is not an integer in 1..8192`);
    inTransaction(this.db, () => {
      this.db.exec(`DROP TABLE IF EXISTS vec_chunks; DROP TABLE IF EXISTS chunk_vectors; ${RECORDS_DDL}
        CREATE VIRTUAL TABLE vec_chunks USING vec0(chunk_rowid INTEGER PRIMARY KEY, embedding float[${dim}] distance_metric=cosine);
        DELETE FROM manifest;`);
      const put = this.db.prepare('INSERT INTO manifest(key, value) VALUES (?, ?)');
      const rows: [string, string][] = [
        ['schema_version', STORE_SCHEMA_VERSION],
        ['embedding_model', this.identity.model],
        ['embedding_dim', String(dim)],
        ['identity', JSON.stringify(this.identity)],
        ['checksum', this.checksum],
        ['built_at', new Date().toISOString()],
        ['indexed_head', ''],
      ];
      for (const [k, v] of rows) put.run(k, v);
    });
  }

  private check(): void {
    if (this.closed || !this.db.isOpen) throw new LspgateError('INTERNAL', 'vector store is closed');
  }

  replace(files: string[], chunks: StoredChunk[], embeddings: Float32Array[]): void {
    this.check();
    if (chunks.length !== embeddings.length) throw new LspgateError('INTERNAL', `upsert of ${chunks.length} chunks with ${embeddings.length} vectors`);
    const dim = this.identity.dim;
    const bad = embeddings.find((v) => v.length !== dim);
    if (bad) throw new LspgateError('INTERNAL', `a ${bad.length}-dimensional vector for an index of dim ${dim}`);
    // embedders validate their answers; this is the last line: nothing non-finite is ever written
    if (!allFinite(embeddings)) throw new LspgateError('INTERNAL', 'a vector with a non-finite value: not stored');
    if (files.length === 0 && chunks.length === 0) return;
    const db = this.db;
    inTransaction(db, () => {
      const ofFile = db.prepare('SELECT rowid FROM chunk_vectors WHERE file = ?');
      const delVec = db.prepare('DELETE FROM vec_chunks WHERE chunk_rowid = ?');
      const delRec = db.prepare('DELETE FROM chunk_vectors WHERE rowid = ?');
      for (const f of files)
        for (const r of ofFile.all(f)) {
          delVec.run(r.rowid!);
          delRec.run(r.rowid!);
        }
      const byId = db.prepare('SELECT rowid FROM chunk_vectors WHERE id = ?');
      const ins = db.prepare(
        `INSERT INTO chunk_vectors(id, file, start_line, end_line, language, is_test, symbol_kind, commit_hash, content_sha256, embed_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insVec = db.prepare('INSERT INTO vec_chunks(chunk_rowid, embedding) VALUES (?, ?)');
      chunks.forEach((c, i) => {
        const old = byId.get(c.id);
        if (old) {
          delVec.run(old.rowid!);
          delRec.run(old.rowid!);
        }
        const { lastInsertRowid } = ins.run(
          c.id,
          c.file,
          c.start_line,
          c.end_line,
          c.language,
          c.is_test ? 1 : 0,
          c.symbol_kind ?? null,
          c.commit_hash,
          c.content_sha256,
          c.embed_key,
        );
        insVec.run(BigInt(lastInsertRowid), blob(unitCopy(embeddings[i]!)));
      });
      db.prepare("UPDATE manifest SET value = ? WHERE key = 'built_at'").run(new Date().toISOString());
    });
  }

  upsert(chunks: StoredChunk[], embeddings: Float32Array[]): void {
    this.replace([], chunks, embeddings);
  }

  deleteByFile(file: string): void {
    this.replace([file], [], []);
  }

  search(query: Float32Array, k: number, filter?: ChunkFilter, accept?: (c: StoredChunk) => boolean): StoreHit[] {
    this.check();
    if (query.length !== this.identity.dim) throw new LspgateError('INTERNAL', `a ${query.length}-dimensional query for an index of dim ${this.identity.dim}`);
    if (!allFinite([query])) throw new LspgateError('INTERNAL', 'a query vector with a non-finite value');
    const kk = Math.min(Math.max(1, Math.floor(k)), MAX_K);
    const q = blob(unitCopy(query));
    const records = new Map<number, StoredChunk>();
    if (isZeroFilter(filter) && !accept) return this.nearest(q, kk, undefined, records);
    const match = chunkMatcher<StoredChunk>(filter);
    const keep: number[] = [];
    let total = 0;
    for (const r of this.db.prepare('SELECT rowid, * FROM chunk_vectors').iterate()) {
      total++;
      const c = fromRow(r);
      if (match(c) && (!accept || accept(c))) {
        keep.push(r.rowid as number);
        records.set(r.rowid as number, c);
      }
    }
    if (keep.length === 0) return [];
    return this.nearest(q, kk, keep.length === total ? undefined : keep, records);
  }

  /**
   * The k nearest rows whose chunk is live in the same database's `chunks` table and passes
   * `filter`, the filter evaluated in SQL (filter-sql.ts): the candidate rowids are selected by
   * SQLite and bound the KNN, so k filtered hits come back when they exist and no row is read into
   * JavaScript to be filtered. `head`: the HEAD the live chunks are cited at.
   */
  searchLive(query: Float32Array, k: number, filter: ChunkFilter | undefined, head: string): StoreHit[] {
    this.check();
    if (query.length !== this.identity.dim) throw new LspgateError('INTERNAL', `a ${query.length}-dimensional query for an index of dim ${this.identity.dim}`);
    if (!allFinite([query])) throw new LspgateError('INTERNAL', 'a query vector with a non-finite value');
    const kk = Math.min(Math.max(1, Math.floor(k)), MAX_K);
    const { where, params } = filterSql(this.db, filter, head);
    const keep = this.db
      .prepare(`SELECT v.rowid AS r FROM chunk_vectors v JOIN chunks c ON c.id = v.id WHERE ${where}`)
      .all(...params)
      .map((r) => r.r as number);
    if (keep.length === 0) return [];
    return this.nearest(blob(unitCopy(query)), kk, keep.length === this.size ? undefined : keep, new Map());
  }

  /** The KNN over all vectors, or over the rowids `keep`; hits with their rows. */
  private nearest(q: Uint8Array, kk: number, keep: number[] | undefined, records: Map<number, StoredChunk>): StoreHit[] {
    const rows = keep
      ? this.db
          .prepare(
            'SELECT chunk_rowid, distance FROM vec_chunks WHERE embedding MATCH ? AND k = ? AND chunk_rowid IN (SELECT value FROM json_each(?)) ORDER BY distance',
          )
          .all(q, kk, JSON.stringify(keep))
      : this.db.prepare('SELECT chunk_rowid, distance FROM vec_chunks WHERE embedding MATCH ? AND k = ? ORDER BY distance').all(q, kk);
    // A non-finite stored value makes a distance NaN (SQL NULL): nothing this store writes, but a
    // database edited behind its back. Such an index is dropped (to be embedded again), and says so.
    if (rows.some((r) => typeof r.distance !== 'number' || !Number.isFinite(r.distance))) {
      this.create();
      this.rebuiltBecause = 'the stored vector index held non-finite vectors: rebuilt';
      return [];
    }
    const rec = this.db.prepare('SELECT rowid, * FROM chunk_vectors WHERE rowid = ?');
    return rows.map((r) => {
      const id = r.chunk_rowid as number;
      return { chunk: records.get(id) ?? fromRow(rec.get(id)!), distance: r.distance as number };
    });
  }

  fileRecords(file: string): { chunk: StoredChunk; vector: Float32Array }[] {
    this.check();
    const vec = this.db.prepare('SELECT embedding FROM vec_chunks WHERE chunk_rowid = ?');
    return this.db
      .prepare('SELECT rowid, * FROM chunk_vectors WHERE file = ?')
      .all(file)
      .map((r) => {
        const b = vec.get(r.rowid!)!.embedding as Uint8Array;
        return { chunk: fromRow(r), vector: new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) };
      })
      .filter((r) => allFinite([r.vector]));
  }

  idsByFile(): Map<string, Set<string>> {
    this.check();
    const out = new Map<string, Set<string>>();
    for (const r of this.db.prepare('SELECT file, id FROM chunk_vectors').iterate()) {
      const f = r.file as string;
      let s = out.get(f);
      if (!s) out.set(f, (s = new Set()));
      s.add(r.id as string);
    }
    return out;
  }

  files(): string[] {
    this.check();
    return this.db
      .prepare('SELECT DISTINCT file FROM chunk_vectors ORDER BY file')
      .all()
      .map((r) => r.file as string);
  }

  get size(): number {
    this.check();
    return this.db.prepare('SELECT count(*) AS n FROM chunk_vectors').get()!.n as number;
  }

  setHead(head: string): void {
    this.check();
    this.db.prepare("UPDATE manifest SET value = ? WHERE key = 'indexed_head'").run(head);
  }

  stats(): VectorStoreStats {
    this.check();
    return readStats(this.db)!;
  }

  /** Idempotent; the database handle belongs to whoever opened it. */
  close(): void {
    this.closed = true;
  }
}

/** Seed 004's Stats from the manifest without opening the store for an embedder (index_stats must not refuse); undefined when there is none. */
export function readStats(db: SqlDb): VectorStoreStats | undefined {
  if (!tableExists(db, 'manifest')) return undefined;
  const m = manifestOf(db);
  if (!m.has('checksum') || !tableExists(db, 'chunk_vectors')) return undefined;
  const n = db.prepare('SELECT count(*) AS n FROM chunk_vectors').get()!.n as number;
  const dim = Number(m.get('embedding_dim') ?? 0);
  return {
    chunk_count: n,
    embedding_model: m.get('embedding_model') ?? '',
    embedding_dim: dim,
    embedder_checksum: m.get('checksum') ?? '',
    indexed_head: m.get('indexed_head') ?? '',
    built_at: m.get('built_at') ?? '',
    schema_version: m.get('schema_version') ?? '',
    // the vectors' own bytes (the rows beside them are a few hundred bytes each)
    size_bytes: n * dim * 4,
  };
}
