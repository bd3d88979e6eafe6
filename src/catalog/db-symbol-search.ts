/**
 * search_symbols answered from the workspace database (src/store/symbol-texts.ts), exactly as
 * rankSymbols and then the resolution policy's order would (test/unit/db-symbol-search.test.ts
 * holds it to the same reference as the in-heap SearchTexts). Nothing per symbol stays in the heap:
 * - one word of the query (the longest, when it has three characters or more) narrows the rows:
 *   the FTS5 trigram index's rows holding it in a text, and the names that have it as a
 *   subsequence (the fuzzy pass); every symbol matching the query matches that word. A query of
 *   shorter words reads every row;
 * - SQLite scores the plain (ASCII) rows for a plain query (symbol-texts-reader.ts) and returns the
 *   matches only; the other rows are scored here (scoreRow: scoreWord over the stored lower-cased
 *   texts). The rows come with their search keys (kind, line, byte offset, and the resolution
 *   policy's fixed part, stored with the texts: symbol-texts.ts addSymbolSearchKeys): the matches are
 *   ranked from those, a column each (`Matches`), of which only the page is sorted (top-k.ts) and
 *   only the page's symbols are read (`symbolAt`: the catalog's entry of the file, at the row's
 *   place in it). A match is read to rank only when a filter must see it or its row has no keys
 *   (written before them): a word matching every one of 169k symbols read them all (RSS 160 → 205 MB).
 * Positions (`symbols`, the policy key's argument) are the rows' ids, which are never reused: a key
 * kept per position stays true. `symbols` holds the read matches of the query being ranked only.
 */
import type { CatalogSymbol, PolicyKey, RankedPage, StoredKeyParts, SymbolRanker } from '../core/catalog.js';
import { isPlain } from '../store/symbol-texts.js';
import { MAX_SQL_WORDS, type SymbolTextsReader, type TextRow } from '../store/symbol-texts-reader.js';
import { fuzzyName, KIND_WEIGHT, textHash } from './symbol-search.js';
import { selectTop } from './top-k.js';

/** A lone surrogate: the word has no UTF-8 form the FTS index could match. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Scores stay below this (as in search-texts.ts). */
const SCORE_SPAN = 2 ** 24;

export type SymbolAt = (file: string, ord: number) => CatalogSymbol | undefined;

/** The matches of one query, a column each (a word can match every stored symbol: no object per match). */
class Matches {
  n = 0;
  id = new Int32Array(256);
  file = new Int32Array(256);
  ord = new Int32Array(256);
  line = new Int32Array(256);
  offset = new Float64Array(256);
  nameLength = new Int32Array(256);
  score = new Int32Array(256);
  /** major * SCORE_SPAN + (SCORE_SPAN - 1 - score): lower first. */
  key = new Float64Array(256);

  push(id: number, file: number, ord: number, line: number, offset: number, nameLength: number, score: number, key: number): void {
    if (this.n === this.id.length) this.grow();
    const j = this.n++;
    this.id[j] = id;
    this.file[j] = file;
    this.ord[j] = ord;
    this.line[j] = line;
    this.offset[j] = offset;
    this.nameLength[j] = nameLength;
    this.score[j] = score;
    this.key[j] = key;
  }

  private grow(): void {
    const size = this.id.length * 2;
    this.id = grown(this.id, size, Int32Array);
    this.file = grown(this.file, size, Int32Array);
    this.ord = grown(this.ord, size, Int32Array);
    this.line = grown(this.line, size, Int32Array);
    this.offset = grown(this.offset, size, Float64Array);
    this.nameLength = grown(this.nameLength, size, Int32Array);
    this.score = grown(this.score, size, Int32Array);
    this.key = grown(this.key, size, Float64Array);
  }
}

/** A typed array of `size` slots holding `a`'s values first. */
function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, size: number, Make: new (n: number) => T): T {
  const b = new Make(size);
  b.set(a);
  return b;
}

function unitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A row's search keys as the reader gives them (NULL on a row written without them). */
interface RowKeys {
  kind: string | null;
  line: number | null;
  offset: number | null;
  pkey: number | null;
  name: string;
  lname: string;
  lqn: string;
}

export class DbSymbolSearch implements SymbolRanker {
  /**
   * Dense (an index, not a dictionary, per lookup of the policy key): one slot per id given so far;
   * filled only for a match whose symbol had to be read (a filter, or a row without search keys).
   */
  readonly symbols: (CatalogSymbol | undefined)[] = [];
  /** The positions of the query being ranked (emptied once its page is made). */
  private held: number[] = [];
  /** By id, once a query matched it: its lower-cased name's and qualified name's hashes (an id's symbol never changes). */
  private nameHash = new Int32Array(0);
  private qualifiedHash = new Int32Array(0);
  private hashed = new Uint8Array(0);

  constructor(
    readonly reader: SymbolTextsReader,
    private readonly symbolAt: SymbolAt,
  ) {}

  /** Ready for a query over the rows stored now (call after the database caught up with the catalog). */
  refresh(): this {
    const n = this.reader.lastId() + 1;
    while (this.symbols.length < n) this.symbols.push(undefined);
    if (this.hashed.length < n) {
      const size = Math.max(n, this.hashed.length * 2);
      this.nameHash = grown(this.nameHash, size, Int32Array);
      this.qualifiedHash = grown(this.qualifiedHash, size, Int32Array);
      this.hashed = grown(this.hashed, size, Uint8Array);
    }
    return this;
  }

  lowerName(pos: number): string {
    return this.symbols[pos]?.name.toLowerCase() ?? '';
  }

  mayBeNamed(pos: number, hash: number, qualifiedHash: number): boolean {
    return this.hashed[pos] === 1 && (this.nameHash[pos] === hash || this.qualifiedHash[pos] === qualifiedHash);
  }

  private hash(id: number, s: CatalogSymbol): void {
    const name = s.name.toLowerCase();
    this.nameHash[id] = textHash(name);
    this.qualifiedHash[id] = textHash(s.qualified_name === s.name ? name : s.qualified_name.toLowerCase());
    this.hashed[id] = 1;
  }

  rank(query: string, keep?: (s: CatalogSymbol) => boolean): { symbol: CatalogSymbol; score: number }[] {
    return this.top(query, keep, Infinity).top;
  }

  /**
   * Ranked from the rows' search keys: only the page's symbols are read — and a match's when `keep`
   * must see it or its row has no keys (written before them).
   */
  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: PolicyKey): RankedPage {
    for (const id of this.held) this.symbols[id] = undefined;
    this.held = [];
    const m = new Matches();
    const paths = new Map<number, string | undefined>();
    const pathOf = (fileId: number): string | undefined => {
      let file = paths.get(fileId);
      if (file === undefined && !paths.has(fileId)) paths.set(fileId, (file = this.reader.pathOf(fileId)));
      return file;
    };
    const add = this.adder(m, pathOf, keep, major);
    // rankSymbols' blank order: file (localeCompare), line, then the catalog's order (file by code unit, offset in the file)
    const placeOrder = (a: number, b: number): number => {
      if (m.file[a] === m.file[b]) return m.line[a]! - m.line[b]! || m.offset[a]! - m.offset[b]! || m.ord[a]! - m.ord[b]!;
      const x = pathOf(m.file[a]!)!;
      const y = pathOf(m.file[b]!)!;
      return x.localeCompare(y) || m.line[a]! - m.line[b]! || unitCompare(x, y);
    };
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      const keys: RowKeys = { kind: '', line: null, offset: null, pkey: null, name: '', lname: '', lqn: '' };
      for (const [id, fileId, ord, line, offset, pkey] of this.reader.places()) {
        keys.line = line;
        keys.offset = offset;
        keys.pkey = pkey;
        add(id, fileId, ord, 0, keys);
      }
      return this.page(m, selectTop(m.n, k, placeOrder), pathOf, () => 1);
    }
    this.match(query, words, add);
    // rankSymbols' order among equal scores: name length, then the blank order
    const order = selectTop(m.n, k, (a, b) => m.key[a]! - m.key[b]! || m.nameLength[a]! - m.nameLength[b]! || placeOrder(a, b));
    return this.page(m, order, pathOf, (j) => m.score[j]!);
  }

  /**
   * What takes a matching row into `m`: ranked from its keys, or — when `keep` must see the symbol
   * or the row has no keys — from the symbol, read and held until the page is made.
   */
  private adder(
    m: Matches,
    pathOf: (fileId: number) => string | undefined,
    keep: ((s: CatalogSymbol) => boolean) | undefined,
    major: PolicyKey | undefined,
  ): (id: number, fileId: number, ord: number, score: number, r: RowKeys) => void {
    let atFile = 0;
    let atOrd = 0;
    const stored: StoredKeyParts = { fixed: 0, name: '', lname: '', lqn: '', symbol: () => this.symbolAt(pathOf(atFile)!, atOrd) };
    return (id, fileId, ord, score, r) => {
      const file = pathOf(fileId);
      if (file === undefined) return;
      if (!keep && r.pkey !== null && r.kind !== null && r.line !== null && r.offset !== null) {
        let key = 0;
        if (major) {
          atFile = fileId;
          atOrd = ord;
          stored.fixed = r.pkey;
          stored.name = r.name;
          stored.lname = r.lname;
          stored.lqn = r.lqn;
          key = major(id, stored);
        }
        const total = score + (KIND_WEIGHT[r.kind] ?? 0);
        m.push(id, fileId, ord, r.line, r.offset, r.name.length, total, key * SCORE_SPAN + (SCORE_SPAN - 1 - total));
        return;
      }
      const symbol = this.symbolAt(file, ord);
      if (!symbol || (keep && !keep(symbol))) return;
      this.symbols[id] = symbol;
      this.held.push(id);
      if (this.hashed[id] !== 1) this.hash(id, symbol);
      const total = score + (KIND_WEIGHT[symbol.kind] ?? 0);
      const key = major ? major(id) : 0;
      m.push(id, fileId, ord, symbol.line, symbol.byte_offset, symbol.name.length, total, key * SCORE_SPAN + (SCORE_SPAN - 1 - total));
    };
  }

  /** The rows matching every word of `query` (`words`, lower-cased), each scored, handed to `add`. */
  private match(query: string, words: string[], add: (id: number, fileId: number, ord: number, score: number, r: RowKeys) => void): void {
    // One word keeps the query's case (an exact-case name scores 100); several are lower-cased.
    const list = words.length > 1 ? words : [query.trim()];
    const lower = list.map((w) => w.toLowerCase());
    const narrow = narrowing(lower);
    const keys: RowKeys = { kind: null, line: null, offset: null, pkey: null, name: '', lname: '', lqn: '' };
    const verify = (row: TextRow) => {
      let total = 0;
      for (let j = 0; j < list.length; j++) {
        const sc = scoreRow(row, list[j]!, lower[j]!);
        if (sc === 0) return;
        total += sc;
      }
      keys.kind = row.kind;
      keys.line = row.line;
      keys.offset = row.byte_offset;
      keys.pkey = row.pkey;
      keys.name = row.name;
      keys.lname = row.lname;
      keys.lqn = row.lqn ?? row.lname;
      add(row.id, row.file_id, row.ord, total, keys);
    };
    if (list.length > MAX_SQL_WORDS || !list.every(isPlain)) {
      for (const row of this.reader.texts(narrow)) verify(row);
      return;
    }
    const scored = this.reader.scored(
      list.map((word, j) => ({ word, w: lower[j]! })),
      narrow,
    );
    for (const [id, fileId, ord, score, kind, line, offset, pkey, name, lname, lqn] of scored) {
      keys.kind = kind;
      keys.line = line;
      keys.offset = offset;
      keys.pkey = pkey;
      keys.name = name;
      keys.lname = lname;
      keys.lqn = lqn;
      add(id, fileId, ord, score, keys);
    }
    for (const row of this.reader.others(narrow)) verify(row);
  }

  /**
   * The page's symbols, read now (a symbol `keep` saw is at hand); then the matches' slots are
   * emptied. Held until the next query, a query matching 22k of 169k symbols kept them all — 25 MB of heap.
   */
  private page(m: Matches, order: number[], pathOf: (fileId: number) => string | undefined, scoreOf: (j: number) => number): RankedPage {
    const top: RankedPage['top'] = [];
    for (const j of order) {
      const symbol = this.symbols[m.id[j]!] ?? this.symbolAt(pathOf(m.file[j]!)!, m.ord[j]!);
      if (symbol) top.push({ symbol, score: scoreOf(j) });
    }
    for (const id of this.held) this.symbols[id] = undefined;
    this.held = [];
    return { top, total: m.n };
  }
}

/** The word whose candidates the rows are narrowed to: the longest of three characters or more (well formed), if any. */
function narrowing(lower: string[]): string | undefined {
  let best: string | undefined;
  let bestLength = 2;
  for (const w of lower) {
    const length = [...w].length;
    if (length > bestLength && !LONE_SURROGATE.test(w)) {
      best = w;
      bestLength = length;
    }
  }
  return best;
}

/** scoreWord (symbol-search.ts) from the stored lower-cased texts; `w` is `word` lower-cased. */
function scoreRow(row: TextRow, word: string, w: string): number {
  const name = row.lname;
  let score = 0;
  if (name === w) score = row.name === word ? 100 : 90;
  else if (name.startsWith(w)) score = 70;
  else if (name.includes(w)) score = 50;
  else if (fuzzyName(w, name)) score = 20;
  const qn = row.lqn ?? name;
  if (qn !== name && qn.endsWith(w)) score = Math.max(score, 95);
  else if (qn.includes(w)) score = Math.max(score, 40);
  const sig = row.lsig ?? '';
  const sum = row.lsum ?? sig;
  const doc = row.ldoc ?? sum;
  const inSig = sig.includes(w);
  const inSum = sum === sig ? inSig : sum.includes(w);
  const inDoc = doc === sum ? inSum : doc.includes(w);
  return score + (inSig ? 15 : 0) + (inSum ? 10 : 0) + (inDoc ? 5 : 0);
}
