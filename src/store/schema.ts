/**
 * The workspace database's tables (src/store/db.ts opens it). Seed 003's code-index columns come
 * first in each table (`files`, `files_fts`, `symbols`, `call_graph`), lspgate's after them, so the
 * seed's queries run unchanged with the `sqlite3` shell. The contract between the modules that write
 * here is docs/architecture.md ("The workspace database").
 *
 * Versions: `meta('schema_version')`. A database at an older version is brought up by the
 * migrations in order (MIGRATIONS[v] takes version v to v + 1); one at a version this build does not
 * know (newer, or not lspgate's) is rebuilt empty, and the rebuild is said in the next answer.
 */
import type { DatabaseSync } from 'node:sqlite';

import { searchTablesMigration } from './search-schema.js';
import { addSymbolSearchKeys, addSymbolTexts, dropSymbolTextsInsertTrigger, ftsLeaner, ftsWithoutPositions } from './symbol-texts.js';

/** Version 1: the catalog (files with content and FTS5, symbols, call_graph) and meta. */
const V1 = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  content TEXT,
  language TEXT,
  last_modified INTEGER,
  hash TEXT,
  size INTEGER,
  state TEXT,
  entry TEXT
);
CREATE VIRTUAL TABLE files_fts USING fts5(path, content, content=files, content_rowid=id);
CREATE TRIGGER files_fts_insert AFTER INSERT ON files BEGIN
  INSERT INTO files_fts(rowid, path, content) VALUES (new.id, new.path, new.content);
END;
CREATE TRIGGER files_fts_delete AFTER DELETE ON files BEGIN
  INSERT INTO files_fts(files_fts, rowid, path, content) VALUES ('delete', old.id, old.path, old.content);
END;
CREATE TRIGGER files_fts_update AFTER UPDATE OF path, content ON files BEGIN
  INSERT INTO files_fts(files_fts, rowid, path, content) VALUES ('delete', old.id, old.path, old.content);
  INSERT INTO files_fts(rowid, path, content) VALUES (new.id, new.path, new.content);
END;
CREATE TABLE symbols (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  file_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
  line INTEGER,
  "column" INTEGER,
  container_name TEXT,
  symbol_id TEXT NOT NULL,
  end_line INTEGER,
  end_column INTEGER,
  signature TEXT,
  doc TEXT,
  detail TEXT,
  qualified_name TEXT,
  ord INTEGER,
  extra TEXT
);
CREATE INDEX idx_symbols_name ON symbols(name);
CREATE INDEX idx_symbols_file ON symbols(file_id);
CREATE UNIQUE INDEX idx_symbols_symbol_id ON symbols(symbol_id);
CREATE TABLE call_graph (
  id INTEGER PRIMARY KEY,
  caller_id INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
  callee_id INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
  file_id INTEGER REFERENCES files(id) ON DELETE CASCADE,
  line INTEGER
);
CREATE INDEX idx_call_graph_caller ON call_graph(caller_id);
CREATE INDEX idx_call_graph_callee ON call_graph(callee_id);
CREATE UNIQUE INDEX idx_call_graph_edge ON call_graph(caller_id, callee_id, file_id, line);
`;

/** The whole schema of a new database, at SCHEMA_VERSION. */
export function createSchema(db: DatabaseSync): void {
  db.exec(V1);
  for (let v = 1; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
}

/**
 * MIGRATIONS[v] brings a database at version v to v + 1 (in the caller's transaction). Index 0 is
 * unused: version 0 is a new database (createSchema).
 */
export const MIGRATIONS: ((db: DatabaseSync) => void)[] = [
  () => undefined,
  searchTables,
  addSymbolTexts,
  symbolLastNames,
  dropSymbolTextsInsertTrigger,
  addSymbolSearchKeys,
  ftsWithoutPositions,
  ftsLeaner,
];

/** The version a database is at once every migration ran: one more than the last migration's index. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The search side's tables: chunks, their FTS5 index, the vectors' rows and manifest (search-schema.ts). */
function searchTables(db: DatabaseSync): void {
  searchTablesMigration(db);
}

/**
 * Symbols by the last segment of their qualified name (`Repo.save` → `save`): what a lookup by name
 * reads instead of an index in memory. Rows written before have NULL there until the catalog's
 * store fills them at its next load (the segmenting rule is the catalog's: name-match.ts).
 */
function symbolLastNames(db: DatabaseSync): void {
  const cols = db.prepare("SELECT name FROM pragma_table_info('symbols')").all() as { name: string }[];
  if (!cols.some((c) => c.name === 'last_name')) db.exec('ALTER TABLE symbols ADD COLUMN last_name TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS idx_symbols_last_name ON symbols(last_name);');
}
