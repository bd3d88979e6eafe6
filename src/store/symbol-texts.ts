/**
 * search_symbols' texts in the workspace database: for every symbol of a cataloged file (those
 * `symbols` skips as duplicate ids too), its five searched texts lower-cased as JavaScript does
 * (`toLowerCase`, which SQL's lower() is not), in `symbol_texts`, and an FTS5 trigram index over
 * them (`symbol_texts_fts`, case-sensitive over the lower-cased texts, rowids only — `detail=none`:
 * a word of three or more characters can only be in a row that holds each of its trigrams). A text
 * equal to the one before it is
 * NULL (a summary that is the signature, a docstring that is the summary, a qualified name that
 * is the name): the index holds it once. Rows are written with their file, in the transaction
 * that writes the file (store.ts `writeFile`), the file's FTS entries by the same code right after
 * them, in one statement reading the rows as stored — not by a trigger: FTS5 writes its pending
 * terms to disk at every statement that reaches it through a trigger, and 168,898 symbols cost
 * 23.5 CPU-s that way against 5.5 s inserted by hand (`dropSymbolTextsInsertTrigger`). A file's deletion takes its rows (foreign key, and the delete
 * trigger keeps the FTS index in step). Ids are AUTOINCREMENT: an id names one symbol of one
 * version of its file, never another, so keys kept per id stay true.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

import type { CatalogSymbol } from '../core/catalog.js';

/** Migration: the table, its indexes and the FTS index, filled from the symbols already stored. */
export function addSymbolTexts(db: DatabaseSync): void {
  db.exec(`
CREATE TABLE symbol_texts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  name TEXT NOT NULL,
  lname TEXT NOT NULL,
  lqn TEXT,
  lsig TEXT,
  lsum TEXT,
  ldoc TEXT,
  plain INTEGER NOT NULL
);
CREATE INDEX idx_symbol_texts_file ON symbol_texts(file_id);
CREATE INDEX idx_symbol_texts_other ON symbol_texts(id) WHERE plain = 0;
CREATE INDEX idx_symbol_texts_lname ON symbol_texts(lname);
CREATE VIRTUAL TABLE symbol_texts_fts USING fts5(lname, lqn, lsig, lsum, ldoc, content=symbol_texts, content_rowid=id, tokenize='trigram case_sensitive 1');
CREATE TRIGGER symbol_texts_delete AFTER DELETE ON symbol_texts BEGIN
  INSERT INTO symbol_texts_fts(symbol_texts_fts, rowid, lname, lqn, lsig, lsum, ldoc) VALUES ('delete', old.id, old.lname, old.lqn, old.lsig, old.lsum, old.ldoc);
END;
`);
  // a database cataloged before this table: its stored symbols (and the duplicates kept in `entry`) in their file's order
  const files = db.prepare('SELECT id, entry FROM files').all() as unknown as { id: number; entry: string | null }[];
  const rows = db.prepare('SELECT name, qualified_name, signature, detail, doc, ord FROM symbols WHERE file_id = ? ORDER BY ord');
  for (const f of files) {
    const list = (
      rows.all(f.id) as unknown as { name: string; qualified_name: string; signature: string | null; detail: string | null; doc: string | null; ord: number }[]
    ).map((r) => ({
      ord: r.ord,
      symbol: { name: r.name, qualified_name: r.qualified_name, signature: r.signature ?? '', summary: r.detail ?? '', docstring: r.doc ?? undefined },
    }));
    const duplicates = (JSON.parse(f.entry ?? '{}') as { duplicates?: { ord: number; symbol: SearchedFields }[] }).duplicates ?? [];
    writeRows(db, f.id, [...list, ...duplicates]);
  }
}

/**
 * Migration: what search_symbols ranks by besides the texts, so a search reads only its page's
 * symbols (db-symbol-search.ts): each row's kind, line and byte offset, and `pkey`, the resolution
 * policy's key part that does not depend on the query (FileCataloger.searchKeys). Rows written
 * before (and by a store given no key function) have NULL there: their symbols are read to rank.
 */
export function addSymbolSearchKeys(db: DatabaseSync): void {
  const have = new Set((db.prepare('PRAGMA table_info(symbol_texts)').all() as { name: string }[]).map((c) => c.name));
  for (const [column, type] of [
    ['kind', 'TEXT'],
    ['line', 'INTEGER'],
    ['byte_offset', 'INTEGER'],
    ['pkey', 'INTEGER'],
  ])
    if (!have.has(column)) db.exec(`ALTER TABLE symbol_texts ADD COLUMN ${column} ${type}`);
}

/**
 * Migration: the FTS entries of new rows are written by writeRows, no longer by a trigger (a
 * database at an earlier version had one; addSymbolTexts no longer makes it).
 */
export function dropSymbolTextsInsertTrigger(db: DatabaseSync): void {
  db.exec('DROP TRIGGER IF EXISTS symbol_texts_insert');
}

/** The FTS index: each trigram's rows, without positions. */
const FTS_TABLE = `CREATE VIRTUAL TABLE symbol_texts_fts USING fts5(lname, lqn, lsig, lsum, ldoc, content=symbol_texts, content_rowid=id, tokenize='trigram case_sensitive 1', detail=none);`;

/**
 * Migration: the FTS index keeps each trigram's rows, not its positions in them (`detail=none`).
 * search_symbols asks it only for a word's candidates, which every answer then scores on the texts
 * themselves: the rows holding each of the word's trigrams (symbol-texts-reader.ts) are a superset
 * of those holding the word, and the writes cost less — 168,898 symbols of the generated corpus,
 * written three files to a transaction, 21.2–22.8 CPU-s with positions against 16.4 s without, a
 * database of 190 MB against 246 MB. The index is rebuilt from the rows stored.
 */
export function ftsWithoutPositions(db: DatabaseSync): void {
  db.exec(`
DROP TABLE symbol_texts_fts;
${FTS_TABLE}
INSERT INTO symbol_texts_fts(symbol_texts_fts) VALUES ('rebuild');
`);
}

/**
 * Migration: the FTS index keeps no column sizes (`columnsize=0`: search_symbols never ranks by
 * them, and each row cost a row of `symbol_texts_fts_docsize`) and merges its segments sixteen at a
 * time, not four (`automerge`). Every write of a pass — a slice of a few files, one transaction —
 * adds a segment; merged four at a time, each entry was written again at every level of about
 * log4(segments). The generated corpus's 168,898 symbols written three files to a transaction
 * (bench/store-writes.ts), with each file's FTS entries in one statement (writeRows): 9.7–12.8
 * CPU-s of the main thread before, 7.8–9.5 after (load 1.9–2.8). The index is rebuilt from the rows
 * stored.
 */
export function ftsLeaner(db: DatabaseSync): void {
  db.exec(`
DROP TABLE symbol_texts_fts;
CREATE VIRTUAL TABLE symbol_texts_fts USING fts5(lname, lqn, lsig, lsum, ldoc, content=symbol_texts, content_rowid=id, tokenize='trigram case_sensitive 1', detail=none, columnsize=0);
INSERT INTO symbol_texts_fts(symbol_texts_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
INSERT INTO symbol_texts_fts(symbol_texts_fts) VALUES ('rebuild');
`);
}

/** FTS5's `automerge`: how many segments of a level are merged into one of the next (its default: 4). */
export const FTS_AUTOMERGE = 16;

type SearchedFields = Pick<CatalogSymbol, 'name' | 'qualified_name' | 'signature' | 'summary' | 'docstring'>;

/** The five searched texts of a symbol lower-cased (search-slots.ts's, the same strings). */
export function lowerTexts(s: SearchedFields): [string, string, string, string, string] {
  const name = s.name.toLowerCase();
  const qn = s.qualified_name === s.name ? name : s.qualified_name.toLowerCase();
  const sig = s.signature.toLowerCase();
  const sum = s.summary === s.signature ? sig : s.summary.toLowerCase();
  const doc = !s.docstring ? '' : s.docstring === s.summary ? sum : s.docstring.toLowerCase();
  return [name, qn, sig, sum, doc];
}

const insertSql =
  'INSERT INTO symbol_texts(file_id, ord, name, lname, lqn, lsig, lsum, ldoc, plain, kind, line, byte_offset, pkey) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** addSymbolTexts' rows, written before the search keys' columns exist (addSymbolSearchKeys adds them). */
const insertTextsSql = 'INSERT INTO symbol_texts(file_id, ord, name, lname, lqn, lsig, lsum, ldoc, plain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** A file's FTS entries, from its rows as stored (the texts the delete trigger hands FTS5 back), in one statement. */
const ftsSql = 'INSERT INTO symbol_texts_fts(rowid, lname, lqn, lsig, lsum, ldoc) SELECT id, lname, lqn, lsig, lsum, ldoc FROM symbol_texts WHERE file_id = ?';
/** The FTS entries of several files (a JSON array of their ids), in one statement. */
const ftsManySql =
  'INSERT INTO symbol_texts_fts(rowid, lname, lqn, lsig, lsum, ldoc) SELECT id, lname, lqn, lsig, lsum, ldoc FROM symbol_texts WHERE file_id IN (SELECT value FROM json_each(?))';

/**
 * ASCII without NUL: where SQLite's `=`, substr, instr and GLOB (by character, case-sensitive) say
 * what JavaScript's ===, startsWith, includes and fuzzyName (by code unit) say.
 */
export function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c > 0x7f) return false;
  }
  return true;
}
interface TextStatements {
  del: StatementSync;
  insert: StatementSync | undefined;
  fts: StatementSync;
  ftsMany?: StatementSync;
}
const statements = new WeakMap<DatabaseSync, TextStatements>();
const textStatements = new WeakMap<DatabaseSync, StatementSync>();

/** A file's rows in place of its old ones; with `placed`, the search keys' columns too (see addSymbolSearchKeys). */
function writeRows(
  db: DatabaseSync,
  fileId: number,
  list: { ord: number; symbol: SearchedFields }[],
  placed?: { symbols: readonly CatalogSymbol[]; keys: ArrayLike<number> | undefined },
  deferFts?: number[],
): void {
  const st = statementsOf(db);
  if (placed) st.insert ??= db.prepare(insertSql);
  let textsOnly = placed ? undefined : textStatements.get(db);
  if (!placed && !textsOnly) textStatements.set(db, (textsOnly = db.prepare(insertTextsSql)));
  st.del.run(fileId);
  for (const { ord, symbol } of list) {
    const [name, qn, sig, sum, doc] = lowerTexts(symbol);
    const plain = [symbol.name, qn, sig, sum, doc].every(isPlain);
    const lqn = qn === name ? null : qn;
    const lsum = sum === sig ? null : sum;
    const ldoc = doc === sum ? null : doc;
    const at = placed?.symbols[ord];
    if (at) st.insert!.run(fileId, ord, symbol.name, name, lqn, sig, lsum, ldoc, plain ? 1 : 0, at.kind, at.line, at.byte_offset, placed!.keys?.[ord] ?? null);
    else textsOnly!.run(fileId, ord, symbol.name, name, lqn, sig, lsum, ldoc, plain ? 1 : 0);
  }
  if (list.length === 0) return;
  if (deferFts) deferFts.push(fileId);
  else st.fts.run(fileId);
}

function statementsOf(db: DatabaseSync): TextStatements {
  let st = statements.get(db);
  if (!st) statements.set(db, (st = { del: db.prepare('DELETE FROM symbol_texts WHERE file_id = ?'), insert: undefined, fts: db.prepare(ftsSql) }));
  return st;
}

/**
 * A file's rows in place of its old ones (in the caller's transaction): `symbols` in the entry's
 * order; `keys`, search_symbols' fixed key of each (FileCataloger.searchKeys), NULL without. With
 * `deferFts`, the file's FTS entries are not written: its id is added there, for the caller to
 * write with writeSymbolTextsFts before its transaction ends.
 */
export function writeSymbolTexts(db: DatabaseSync, fileId: number, symbols: readonly CatalogSymbol[], keys?: ArrayLike<number>, deferFts?: number[]): void {
  writeRows(
    db,
    fileId,
    symbols.map((symbol, ord) => ({ ord, symbol })),
    { symbols, keys },
    deferFts,
  );
}

/**
 * The FTS entries of the files whose rows writeSymbolTexts wrote with `deferFts`, in one statement:
 * FTS5 writes its pending terms to disk as a new segment at the start of every statement that
 * opens a statement journal (one with a trigger, a multi-row insert…), and a file's rows are
 * written by several — its entries written with it made a segment per file, each merged again
 * level after level. Written together at the end of a transaction, they make one. In the writes'
 * transaction, before any of their rows can change again (a delete of rows whose entries are not
 * written yet would take entries that are not there).
 */
export function writeSymbolTextsFts(db: DatabaseSync, fileIds: readonly number[]): void {
  if (fileIds.length === 0) return;
  const st = statementsOf(db);
  if (fileIds.length === 1) st.fts.run(fileIds[0]!);
  else (st.ftsMany ??= db.prepare(ftsManySql)).run(JSON.stringify(fileIds));
}
