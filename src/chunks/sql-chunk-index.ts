/**
 * The workspace's chunks with the database as their only copy (chunk-fts.ts's tables): every read —
 * a key's stamp, its chunks, a chunk by id, the BM25 ranking, the counts of index_stats — is a query,
 * and the heap holds only bounded state: the citations handed out (CitedContents) and the HEAD the
 * chunks are cited at. A moved HEAD is not written into every row: the chunks of the files that did
 * not change have the same lines at the new commit, so a chunk read back carries the HEAD the index
 * was last synced at (history chunks keep their own commits).
 * Two processes on one cache share the rows: a file cut by one is not cut again by the other (its
 * stamp is the content hash), and each write is a whole file in one transaction.
 */
import { type ChunkFts, chunkOfRow } from './chunk-fts.js';
import { type Bm25Hit, type ChunkIndex, type ChunkIndexStats, CitedContents, LIST_ALL } from './chunk-index.js';
import type { PackageFile } from './conventions.js';
import { chunkMatcher } from './filter.js';
import { HISTORY_FILE } from './history.js';
import type { SqlRow } from './sqlite-handle.js';
import { type Chunk, CHUNK_SCHEMA_VERSION, type ChunkFilter } from './types.js';

export class SqlChunkIndex implements ChunkIndex {
  builtAt = '';
  indexedHead = '';
  /** The HEAD chunks are cited at ('' until the first sync: then the stored commits). */
  private head = '';
  private readonly cited = new CitedContents();

  constructor(readonly fts: ChunkFts) {}

  private get db() {
    return this.fts.db;
  }

  /** History chunks (file HISTORY_FILE) keep their own commits. */
  private restamped(c: Chunk): Chunk {
    if (this.head && c.file !== HISTORY_FILE) c.commit_hash = this.head;
    return c;
  }

  private chunk(r: SqlRow): Chunk {
    return this.restamped(chunkOfRow(r));
  }

  fileHash(file: string): string | undefined {
    return this.fts.stamp(file);
  }

  indexedFiles(): string[] {
    return this.fts.files();
  }

  get chunkCount(): number {
    return this.fts.size;
  }

  get(id: string): Chunk | undefined {
    return this.live(id);
  }

  live(id: string): Chunk | undefined {
    const r = this.db.prepare('SELECT text, json FROM chunks WHERE id = ?').get(id);
    return r && this.chunk(r);
  }

  noteCited(c: Chunk): void {
    this.cited.note(c);
  }

  citedContents(file: string, start: number, end: number, commit: string): readonly string[] {
    return this.cited.of(file, start, end, commit);
  }

  fileChunks(file: string): readonly Chunk[] {
    return this.db
      .prepare('SELECT text, json FROM chunks WHERE file = ? ORDER BY rowid')
      .all(file)
      .map((r) => this.chunk(r));
  }

  idsByFile(): Map<string, string[]> {
    const out = new Map<string, string[]>(this.fts.files().map((f) => [f, []]));
    for (const r of this.db.prepare('SELECT file, id FROM chunks ORDER BY rowid').iterate()) out.get(r.file as string)?.push(r.id as string);
    return out;
  }

  replaceFile(file: string, hash: string, chunks: Chunk[], idioms?: PackageFile): boolean {
    return this.fts.replaceFile(file, hash, chunks, idioms);
  }

  removeFile(file: string): void {
    this.fts.removeFile(file);
  }

  fileIdioms(file: string): PackageFile | undefined {
    return this.fts.fileIdioms(file);
  }

  dirIdioms(dir: string): PackageFile[] {
    return this.fts.dirIdioms(dir);
  }

  restamp(head: string): void {
    this.head = head;
  }

  search(query: string, filter: ChunkFilter | undefined, limit: number): Bm25Hit[] {
    const match = chunkMatcher(filter);
    if (query.trim() === LIST_ALL) {
      const out: Bm25Hit[] = [];
      if (limit <= 0) return out;
      for (const r of this.db.prepare('SELECT text, json FROM chunks ORDER BY file, rowid').iterate()) {
        const chunk = this.chunk(r);
        if (!match(chunk)) continue;
        out.push({ chunk, bm25: 0 });
        if (out.length >= limit) break;
      }
      return out;
    }
    // the filter sees the chunk as it is handed out (at the index's HEAD)
    return this.fts.search(query, (c) => match(this.restamped(c)), limit).map((h) => ({ chunk: h.chunk, bm25: h.bm25 }));
  }

  kindCounts(): { kinds: Record<string, number>; tiers: Record<string, number> } {
    const kinds: Record<string, number> = {};
    const tiers: Record<string, number> = {};
    for (const r of this.db.prepare('SELECT kind, count(*) AS n FROM chunks GROUP BY kind').all()) kinds[r.kind as string] = r.n as number;
    for (const r of this.db.prepare("SELECT json_extract(json, '$.tier') AS tier, count(*) AS n FROM chunks WHERE tier IS NOT NULL GROUP BY tier").all())
      tiers[String(r.tier)] = r.n as number;
    return { kinds, tiers };
  }

  approxBytes(): number {
    return this.cited.bytes();
  }

  stats(): ChunkIndexStats {
    const counts = this.kindCounts();
    const row = this.db.prepare('SELECT count(*) AS n, coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM chunks').get()!;
    return {
      chunk_count: row.n as number,
      chunk_kinds: counts.kinds,
      invariant_tiers: counts.tiers,
      file_count: this.db.prepare('SELECT count(*) AS n FROM chunk_files').get()!.n as number,
      bm25_terms: this.fts.termCount(),
      text_bytes: row.bytes as number,
      indexed_head: this.indexedHead,
      built_at: this.builtAt,
      schema_version: CHUNK_SCHEMA_VERSION,
    };
  }
}
