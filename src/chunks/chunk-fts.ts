/**
 * The chunks of a workspace in its SQLite database, and their lexical index in FTS5:
 * - `chunks`: one row per chunk (seed 004's fields: id, file, kind, symbol, lines, text, and the
 *   whole Chunk as JSON without its text); `file_id` names the catalog's `files` row when the file
 *   had one when its chunks were written (Markdown, history and convention chunks have none).
 * - `chunks_fts`: FTS5, contentless with deletes, one row per chunk (its rowid the chunk's), columns
 *   name, signature, doc, path, body. What FTS5 indexes is the code tokenizer's terms (tokenize.ts:
 *   camelCase and snake_case split, stop words dropped, Porter-stemmed), joined by spaces: FTS5's
 *   own tokenizers know neither code names nor our stems, and the query goes through the same
 *   tokenizer, so both sides agree.
 * Ranking: FTS5's bm25() with column weights (name 8, signature 4, doc 4, path 1, body 1: a question
 * names what a function does, mostly in its name and signature; on the 43 questions of
 * bench/search-questions.ts, top 5 after search_code's folding: 34 at 2,1,1,1,1, 36 at 4,2,2,1,1,
 * 37 at 8,4,4,1,1, 36 at 16,8,8,1,1; MiniSearch's BM25+ 34), terms OR-ed, terms of 5 letters or
 * more also matching as prefixes. A file's chunks are replaced in one transaction, with the stamp
 * (content hash) they were cut from in `chunk_files`: a process finding a file's rows already cut
 * from the same bytes (another process, or itself before a restart) leaves them, and every write is
 * a whole file, so two processes on one cache never leave a file half written.
 */
import { searchTablesMigration } from '../store/search-schema.js';
import { dirOf, type PackageFile } from './conventions.js';
import { inTransaction, type SqlDb, type SqlRow } from './sqlite-handle.js';
import { normalizeTerm, tokenizeCode } from './tokenize.js';
import { type Chunk, CHUNKER_VERSION } from './types.js';

/** The meta key holding the chunker version the stored chunks were cut by. */
const CHUNKER_KEY = 'chunker_version';

/** A chunk from its row (`text` and `json` columns). */
export function chunkOfRow(r: SqlRow): Chunk {
  return { ...(JSON.parse(r.json as string) as Omit<Chunk, 'text'>), text: r.text as string } as Chunk;
}

/** bm25() column weights, in the order of chunks_fts's columns. */
export const FTS_WEIGHTS = [8, 4, 4, 1, 1];

/** The code tokenizer's terms of `text`, space-joined (what FTS5 indexes). */
export function ftsTerms(text: string): string {
  const out: string[] = [];
  for (const t of tokenizeCode(text)) {
    const n = normalizeTerm(t);
    if (n) out.push(n);
  }
  return out.join(' ');
}

/** The MATCH expression of a question: its terms OR-ed, long ones as prefixes too; undefined when it has none. */
export function ftsQuery(query: string): string | undefined {
  const terms = [...new Set(ftsTerms(query).split(' ').filter(Boolean))];
  if (!terms.length) return undefined;
  // a term is quoted (FTS5 syntax characters are data); `$` and `_` are token characters
  return terms.map((t) => (t.length >= 5 ? `"${t}"*` : `"${t}"`)).join(' OR ');
}

export interface FtsHit {
  id: string;
  chunk: Chunk;
  /** FTS5's bm25(), sign turned: higher is better. */
  bm25: number;
}

export class ChunkFts {
  /** bm25() column weights (a bench varies them). */
  weights = FTS_WEIGHTS;

  /**
   * Chunks cut by another chunker version (`chunkerVersion`: tests pretend a change) are dropped
   * here, all at once: the next sync cuts every file again, bytes changed or not.
   */
  constructor(
    readonly db: SqlDb,
    chunkerVersion = CHUNKER_VERSION,
  ) {
    inTransaction(db, () => {
      searchTablesMigration(db);
      const was = db.prepare('SELECT value FROM meta WHERE key = ?').get(CHUNKER_KEY)?.value;
      if (was === chunkerVersion) return;
      if (was !== undefined) {
        db.exec('DELETE FROM chunks; DELETE FROM chunk_files;');
        this.rechunkedBecause = `the stored chunks were cut by chunker ${was}, this is ${chunkerVersion}: every file is chunked again`;
      }
      db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(CHUNKER_KEY, chunkerVersion);
    });
  }

  /** Why the stored chunks were dropped when this was opened (a chunker change), once. */
  rechunkedBecause: string | undefined;

  /** The stamp the stored chunks of `file` were cut from. */
  stamp(file: string): string | undefined {
    return this.db.prepare('SELECT stamp FROM chunk_files WHERE file = ?').get(file)?.stamp as string | undefined;
  }

  /**
   * Deletes the file's chunks and inserts `chunks`, with `stamp`, in one transaction; nothing when
   * the stored ones were cut from the same stamp. `file` is the index's key (a path, or the key of
   * a directory's convention chunks or of the history).
   */
  replaceFile(file: string, stamp: string, chunks: readonly Chunk[], idioms?: PackageFile): boolean {
    const db = this.db;
    if (this.stamp(file) === stamp) return false;
    const fileId = this.fileId(file);
    inTransaction(db, () => {
      db.prepare('DELETE FROM chunks WHERE file = ?').run(file);
      // an id another file's chunk has already (or an earlier chunk of this one) is left out: the first keeps it
      const ins = db.prepare(
        'INSERT OR IGNORE INTO chunks(id, file, file_id, kind, symbol, start_line, end_line, text, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const fts = db.prepare('INSERT INTO chunks_fts(rowid, name, signature, doc, path, body) VALUES (?, ?, ?, ?, ?, ?)');
      for (const c of chunks) {
        const { text, ...rest } = c;
        const { changes, lastInsertRowid } = ins.run(
          c.id,
          file,
          fileId,
          c.chunk_kind,
          c.symbol_name ?? null,
          c.start_line,
          c.end_line,
          text,
          JSON.stringify(rest),
        );
        if (!changes) continue;
        fts.run(lastInsertRowid, ftsTerms(c.symbol_name ?? ''), ftsTerms(c.signature ?? ''), ftsTerms(c.docstring ?? ''), ftsTerms(c.file), ftsTerms(text));
      }
      db.prepare(
        'INSERT INTO chunk_files(file, stamp, dir, idioms) VALUES (?, ?, ?, ?) ON CONFLICT(file) DO UPDATE SET stamp = excluded.stamp, dir = excluded.dir, idioms = excluded.idioms',
      ).run(file, stamp, idioms ? dirOf(file) : null, idioms ? JSON.stringify(idioms) : null);
    });
    return true;
  }

  /**
   * The catalog's `files` row of the path, when there is one: a join key, not a foreign key — the
   * catalog empties and rewrites its rows on its own schedule, and the chunks' stamps must go with
   * the chunks, so chunks are deleted here only.
   */
  private fileId(file: string): number | null {
    if (this.hasFiles === undefined) this.hasFiles = !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'files' AND type = 'table'").get();
    return this.hasFiles ? ((this.db.prepare('SELECT id FROM files WHERE path = ?').get(file)?.id as number | undefined) ?? null) : null;
  }
  private hasFiles: boolean | undefined;

  removeFile(file: string): void {
    inTransaction(this.db, () => {
      this.db.prepare('DELETE FROM chunks WHERE file = ?').run(file);
      this.db.prepare('DELETE FROM chunk_files WHERE file = ?').run(file);
    });
  }

  /** The idiom counts of the files of `dir` (what its convention chunks are summed from). */
  /** One file's idiom counts, as stored with its chunks (undefined: none counted). */
  fileIdioms(file: string): PackageFile | undefined {
    const raw = this.db.prepare('SELECT idioms FROM chunk_files WHERE file = ?').get(file)?.idioms;
    return typeof raw === 'string' ? (JSON.parse(raw) as PackageFile) : undefined;
  }

  dirIdioms(dir: string): PackageFile[] {
    return this.db
      .prepare('SELECT idioms FROM chunk_files WHERE dir = ? AND idioms IS NOT NULL ORDER BY file')
      .all(dir)
      .map((r) => JSON.parse(r.idioms as string) as PackageFile);
  }

  /** Removes every stored file `keep` does not name (after a full sync: files gone while no process watched). */
  prune(keep: ReadonlySet<string>): number {
    const gone = this.files().filter((f) => !keep.has(f));
    for (const f of gone) this.removeFile(f);
    return gone.length;
  }

  files(): string[] {
    return this.db
      .prepare('SELECT file FROM chunk_files')
      .all()
      .map((r) => r.file as string);
  }

  /**
   * Chunk ids best first, each passing `accept` (the chunk filter, applied before the cut so `limit`
   * filtered hits come back when they exist). The ranked rows are read lazily.
   */
  search(query: string, accept: (c: Chunk) => boolean, limit: number): FtsHit[] {
    const match = ftsQuery(query);
    if (!match || limit <= 0) return [];
    const out: FtsHit[] = [];
    const rows = this.db
      .prepare(
        `SELECT c.id AS id, c.text AS text, c.json AS json, bm25(chunks_fts, ${this.weights.map(Number).join(', ')}) AS score FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY score`,
      )
      .iterate(match);
    for (const r of rows) {
      const chunk = chunkOfRow(r);
      if (!accept(chunk)) continue;
      out.push({ id: r.id as string, chunk, bm25: -(r.score as number) });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Distinct terms indexed (index_stats). */
  termCount(): number {
    return this.db.prepare('SELECT count(*) AS n FROM chunks_fts_vocab').get()!.n as number;
  }

  get size(): number {
    return this.db.prepare('SELECT count(*) AS n FROM chunks').get()!.n as number;
  }
}
