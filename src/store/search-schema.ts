/**
 * The search side's tables in the workspace database (schema.ts runs them as a migration; the chunk
 * and vector modules run the same statements on a database of their own, for tests and stores used
 * alone, so every statement is IF NOT EXISTS):
 * - `chunks`: one row per chunk (seed 004's fields; `json` the whole Chunk without its text). `file`
 *   is the index's key (a path, or a directory's convention chunks, the history, the flow corpus);
 *   `file_id` the catalog's `files` row of the path when there was one at write time — a join key,
 *   not a foreign key: the catalog rewrites its rows on its own schedule and a file's chunks must go
 *   with their stamp, so chunks are deleted by their own module only.
 * - `chunk_files`: per key, the stamp (content hash) its chunks were cut from, the directory and the
 *   idiom counts the directory's convention chunks are summed from.
 * - `chunks_fts`: FTS5 contentless-delete over the code tokenizer's terms (chunk-fts.ts), and its vocabulary.
 * - `chunk_vectors` + `manifest`: the vector store's rows and its embedder identity (vector-store.ts).
 * - `published_vectors`: the vectors taken with published chunks (`--index`) until the first vector
 *   search uses them (published-vectors.ts; their embedder in `meta`).
 *   `vec_chunks` (the vec0 table) is made when the store is opened: its dimension is the embedder's.
 */
export const SEARCH_TABLES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, file TEXT NOT NULL, file_id INTEGER, kind TEXT NOT NULL,
  symbol TEXT, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL, json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_chunks_file ON chunks(file);
CREATE TABLE IF NOT EXISTS chunk_files (file TEXT PRIMARY KEY, stamp TEXT NOT NULL, dir TEXT, idioms TEXT);
CREATE INDEX IF NOT EXISTS idx_chunk_files_dir ON chunk_files(dir);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(name, signature, doc, path, body, content='', contentless_delete=1, tokenize="unicode61 tokenchars '_$'");
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN DELETE FROM chunks_fts WHERE rowid = old.rowid; END;
CREATE TABLE IF NOT EXISTS chunk_vectors (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, file TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
  language TEXT NOT NULL, is_test INTEGER NOT NULL, symbol_kind TEXT, commit_hash TEXT NOT NULL, content_sha256 TEXT NOT NULL,
  embed_key TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_chunk_vectors_file ON chunk_vectors(file);
CREATE TABLE IF NOT EXISTS manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS published_vectors (embed_key TEXT PRIMARY KEY, vector BLOB NOT NULL);
`;

/**
 * Databases made by the branch before this migration had `chunk_files` without `dir`/`idioms`:
 * their chunk tables are dropped and made again (the chunks are derived: the next sync cuts them again).
 */
export function searchTablesMigration(db: { exec(sql: string): void; prepare(sql: string): { all(): unknown[] } }): void {
  const cols = db.prepare("SELECT name FROM pragma_table_info('chunk_files')").all() as { name: string }[];
  if (cols.length && !cols.some((c) => c.name === 'idioms'))
    db.exec(
      'DROP TRIGGER IF EXISTS chunks_fts_delete; DROP TABLE IF EXISTS chunks_fts_vocab; DROP TABLE IF EXISTS chunks_fts; DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS chunk_files;',
    );
  db.exec(SEARCH_TABLES);
}
