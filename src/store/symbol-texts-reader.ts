/**
 * The reads search_symbols makes of `symbol_texts` (symbol-texts.ts). For a query whose words are
 * plain (ASCII, no NUL), the plain rows are scored by SQLite itself — scoreWord (catalog/symbol-search.ts)
 * written in SQL, the same answer where `=`, substr, instr and GLOB agree with JavaScript — and
 * only the matches come back, as four integers; the other rows come back with their texts, for
 * the caller to score. A word of three characters or more narrows the rows to the FTS5 index's
 * (the rows holding each of its trigrams) and, for the fuzzy pass, the name index's candidates.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** One stored symbol's searched texts, with its file and place in the file's entry. */
export interface TextRow {
  id: number;
  file_id: number;
  ord: number;
  name: string;
  lname: string;
  lqn: string | null;
  lsig: string | null;
  lsum: string | null;
  ldoc: string | null;
  /** The search keys (symbol-texts.ts addSymbolSearchKeys); NULL on a row written without them. */
  kind: string | null;
  line: number | null;
  byte_offset: number | null;
  pkey: number | null;
}

/**
 * A match scored in SQL: id, file id, place in the file's entry, score (the words' sum), then its
 * search keys (kind, line, byte offset, pkey: NULL on a row written without them), its name, the
 * name and the qualified name lower-cased.
 */
export type ScoredRow = [number, number, number, number, string | null, number | null, number | null, number | null, string, string, string];

/** A row's place: id, file id, place in the file's entry, line, byte offset, pkey (NULL: written without keys). */
export type PlaceRow = [number, number, number, number | null, number | null, number | null];

/** A query word: as given (`word`) and lower-cased (`w`). */
export interface QueryWord {
  word: string;
  w: string;
}

/** Rows not plain up to which `others` reads them all rather than narrowing them to a word's candidates. */
const FEW_OTHERS = 256;

/** The most words scored in one statement; a longer query is scored in JavaScript. */
export const MAX_SQL_WORDS = 8;

const TEXTS = 'id, file_id, ord, name, lname, lqn, lsig, lsum, ldoc, kind, line, byte_offset, pkey FROM symbol_texts';
const KEYS = 'kind, line, byte_offset, pkey, name, lname';
// the fuzzy pass reads the name index only (SQLite would scan the table: 60-110 ms against 10-25 on 168k rows)
const CANDIDATES =
  'id IN (SELECT rowid FROM symbol_texts_fts WHERE symbol_texts_fts MATCH :phrase UNION SELECT id FROM symbol_texts INDEXED BY idx_symbol_texts_lname WHERE lname GLOB :cglob)';

/** scoreWord for word j (symbol-search.ts), over the stored texts (a NULL text is the one before it). */
function scoreSql(j: number): string {
  return `max(
  CASE WHEN lname = :w${j} THEN CASE WHEN name = :u${j} THEN 100 ELSE 90 END
       WHEN substr(lname, 1, :n${j}) = :w${j} THEN 70
       WHEN instr(lname, :w${j}) > 0 THEN 50
       WHEN :f${j} AND lname GLOB :g${j} THEN 20 ELSE 0 END,
  CASE WHEN lqn IS NOT NULL AND substr(lqn, -:n${j}) = :w${j} THEN 95
       WHEN instr(coalesce(lqn, lname), :w${j}) > 0 THEN 40 ELSE 0 END)
  + CASE WHEN instr(lsig, :w${j}) > 0 THEN 15 ELSE 0 END
  + CASE WHEN instr(coalesce(lsum, lsig), :w${j}) > 0 THEN 10 ELSE 0 END
  + CASE WHEN instr(coalesce(ldoc, lsum, lsig), :w${j}) > 0 THEN 5 ELSE 0 END`;
}

/** `*a*b*c*`: GLOB matches a name that has the word's characters in order (a superset of fuzzyName). */
export function subsequenceGlob(word: string): string {
  let out = '*';
  for (const c of word) out += (c === '*' || c === '?' || c === '[' ? `[${c}]` : c) + '*';
  return out;
}

/**
 * The FTS5 query of the rows holding each trigram of `word` (three characters or more) that
 * covers it — those at 0, 3, 6… and the last: a superset of the rows holding the word, which the
 * index, keeping no positions (`detail=none`), cannot ask as a phrase.
 */
export function trigramsQuery(word: string): string {
  const chars = [...word];
  const quote = (i: number) => {
    const gram = chars.slice(i, i + 3).join('');
    return `"${gram.replaceAll('"', '""')}"`;
  };
  if (chars.length <= 3) return quote(0);
  const terms: string[] = [];
  for (let i = 0; i + 3 < chars.length; i += 3) terms.push(quote(i));
  terms.push(quote(chars.length - 3));
  return terms.join(' AND ');
}

export class SymbolTextsReader {
  private readonly statements = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  private st(sql: string, arrays = false): StatementSync {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (arrays) s.setReturnArrays(true);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * The plain rows matching every word (each plain, at most MAX_SQL_WORDS), scored; with
   * `narrow`, among that word's candidates only (lower-cased, three characters or more).
   */
  scored(words: QueryWord[], narrow: string | undefined): Iterable<ScoredRow> {
    const where = narrow === undefined ? 'plain = 1' : `plain = 1 AND ${CANDIDATES}`;
    const each = words.map((_, j) => `${scoreSql(j)} AS s${j}`).join(',\n');
    // LIMIT keeps the inner query a co-routine: each score is computed once per row, not once per use
    const sql = `SELECT id, file_id, ord, ${words.map((_, j) => `s${j}`).join(' + ')}, ${KEYS}, coalesce(lqn, lname) FROM (SELECT id, file_id, ord, ${KEYS}, lqn, ${each} FROM symbol_texts WHERE ${where} LIMIT -1) WHERE ${words.map((_, j) => `s${j} > 0`).join(' AND ')}`;
    const params: Record<string, string | number> = {};
    words.forEach(({ word, w }, j) => {
      params[`w${j}`] = w;
      params[`u${j}`] = word;
      params[`n${j}`] = w.length;
      params[`f${j}`] = w.length >= 2 ? 1 : 0;
      params[`g${j}`] = subsequenceGlob(w);
    });
    if (narrow !== undefined) Object.assign(params, this.narrowing(narrow));
    return this.st(sql, true).iterate(params) as Iterable<ScoredRow>;
  }

  /**
   * The rows `scored` leaves out (not plain), with their texts; with `narrow`, among its candidates —
   * unless there are few such rows: then all of them (the caller scores every row it is given, the
   * candidates only spare it rows that cannot match), and the candidates are not worked out a second
   * time (FTS and the names' GLOB: 60-200 ms for "service" on 169k rows, for no row at all).
   */
  others(narrow: string | undefined): Iterable<TextRow> {
    if (narrow === undefined || this.fewOthers()) return this.st(`SELECT ${TEXTS} WHERE plain = 0`).iterate() as Iterable<TextRow>;
    return this.st(`SELECT ${TEXTS} WHERE plain = 0 AND ${CANDIDATES}`).iterate(this.narrowing(narrow)) as Iterable<TextRow>;
  }

  /** At most FEW_OTHERS rows are not plain (counted in the partial index idx_symbol_texts_other). */
  private fewOthers(): boolean {
    const r = this.st(`SELECT count(*) AS n FROM (SELECT id FROM symbol_texts WHERE plain = 0 LIMIT ${FEW_OTHERS + 1})`).get() as { n: number };
    return r.n <= FEW_OTHERS;
  }

  /** Every row with its texts; with `narrow` (well formed, three characters or more), its candidates only. */
  texts(narrow: string | undefined): Iterable<TextRow> {
    if (narrow === undefined) return this.st(`SELECT ${TEXTS}`).iterate() as Iterable<TextRow>;
    return this.st(`SELECT ${TEXTS} WHERE ${CANDIDATES}`).iterate(this.narrowing(narrow)) as Iterable<TextRow>;
  }

  /** Every row's place (a blank query reads no texts). */
  places(): Iterable<PlaceRow> {
    return this.st('SELECT id, file_id, ord, line, byte_offset, pkey FROM symbol_texts', true).iterate() as Iterable<PlaceRow>;
  }

  pathOf(fileId: number): string | undefined {
    return (this.st('SELECT path FROM files WHERE id = ?').get(fileId) as { path: string } | undefined)?.path;
  }

  /** The highest id ever given (ids are not reused). */
  lastId(): number {
    return (this.st("SELECT seq FROM sqlite_sequence WHERE name = 'symbol_texts'").get() as { seq: number } | undefined)?.seq ?? 0;
  }

  private narrowing(word: string): Record<string, string> {
    return { phrase: trigramsQuery(word), cglob: subsequenceGlob(word) };
  }
}
