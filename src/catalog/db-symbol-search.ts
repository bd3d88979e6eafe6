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
 *   texts). Only the matches are looked up as symbols (`symbolAt`: the catalog's entry of the file,
 *   at the row's place in it) for the filters, the policy key and the order, of which only the
 *   page is sorted (top-k.ts).
 * Positions (`symbols`, the policy key's argument) are the rows' ids, which are never reused: a key
 * kept per position stays true. `symbols` holds the matches of the query being ranked only.
 */
import type { CatalogSymbol, RankedPage, SymbolRanker } from '../core/catalog.js';
import { isPlain } from '../store/symbol-texts.js';
import { MAX_SQL_WORDS, type SymbolTextsReader, type TextRow } from '../store/symbol-texts-reader.js';
import { fuzzyName, KIND_WEIGHT, textHash } from './symbol-search.js';
import { selectTop } from './top-k.js';

/** A lone surrogate: the word has no UTF-8 form the FTS index could match. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Scores stay below this (as in search-texts.ts). */
const SCORE_SPAN = 2 ** 24;

export type SymbolAt = (file: string, ord: number) => CatalogSymbol | undefined;

interface Match {
  id: number;
  ord: number;
  symbol: CatalogSymbol;
  score: number;
}

function unitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** rankSymbols' blank order: file (localeCompare), line, then the catalog's order (file by code unit, offset in the file). */
function placeOrder(a: Match, b: Match): number {
  const x = a.symbol;
  const y = b.symbol;
  if (x.file === y.file) return x.line - y.line || x.byte_offset - y.byte_offset || a.ord - b.ord;
  return x.file.localeCompare(y.file) || x.line - y.line || unitCompare(x.file, y.file);
}

export class DbSymbolSearch implements SymbolRanker {
  /** Dense (an index, not a dictionary, per lookup of the policy key): one slot per id given so far. */
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
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (k: number) => T): T => {
        const b = make(size);
        b.set(a);
        return b;
      };
      this.nameHash = grow(this.nameHash, (k) => new Int32Array(k));
      this.qualifiedHash = grow(this.qualifiedHash, (k) => new Int32Array(k));
      this.hashed = grow(this.hashed, (k) => new Uint8Array(k));
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

  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: (pos: number) => number): RankedPage {
    for (const id of this.held) this.symbols[id] = undefined;
    this.held = [];
    const matches: Match[] = [];
    const paths = new Map<number, string | undefined>();
    const add = (id: number, fileId: number, ord: number, score: number) => {
      let file = paths.get(fileId);
      if (file === undefined && !paths.has(fileId)) paths.set(fileId, (file = this.reader.pathOf(fileId)));
      const symbol = file === undefined ? undefined : this.symbolAt(file, ord);
      if (!symbol || (keep && !keep(symbol))) return;
      matches.push({ id, ord, symbol, score: score + (KIND_WEIGHT[symbol.kind] ?? 0) });
      this.symbols[id] = symbol;
      this.held.push(id);
      if (this.hashed[id] !== 1) this.hash(id, symbol);
    };
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      for (const [id, fileId, ord] of this.reader.places()) add(id, fileId, ord, 0);
      const order = selectTop(matches.length, k, (a, b) => placeOrder(matches[a]!, matches[b]!));
      return this.release({ top: order.map((j) => ({ symbol: matches[j]!.symbol, score: 1 })), total: matches.length });
    }
    // One word keeps the query's case (an exact-case name scores 100); several are lower-cased.
    const list = words.length > 1 ? words : [query.trim()];
    const lower = list.map((w) => w.toLowerCase());
    const narrow = narrowing(lower);
    const verify = (row: TextRow) => {
      let total = 0;
      for (let j = 0; j < list.length; j++) {
        const sc = scoreRow(row, list[j]!, lower[j]!);
        if (sc === 0) return;
        total += sc;
      }
      add(row.id, row.file_id, row.ord, total);
    };
    if (list.length <= MAX_SQL_WORDS && list.every(isPlain)) {
      const scored = this.reader.scored(
        list.map((word, j) => ({ word, w: lower[j]! })),
        narrow,
      );
      for (const [id, fileId, ord, score] of scored) add(id, fileId, ord, score);
      for (const row of this.reader.others(narrow)) verify(row);
    } else for (const row of this.reader.texts(narrow)) verify(row);
    const keys = new Float64Array(matches.length);
    matches.forEach((m, j) => (keys[j] = (major ? major(m.id) : 0) * SCORE_SPAN + (SCORE_SPAN - 1 - m.score)));
    const order = selectTop(matches.length, k, (a, b) => keys[a]! - keys[b]! || tie(matches[a]!, matches[b]!));
    return this.release({ top: order.map((j) => ({ symbol: matches[j]!.symbol, score: matches[j]!.score })), total: matches.length });
  }

  /**
   * The page is made: the matches' slots are emptied (`major` read them while the page was ordered).
   * Held until the next query, a query matching 22k of 169k symbols kept them all — 25 MB of heap.
   */
  private release(page: RankedPage): RankedPage {
    for (const id of this.held) this.symbols[id] = undefined;
    this.held = [];
    return page;
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

/** rankSymbols' order among equal scores: name length, then the blank order. */
function tie(a: Match, b: Match): number {
  return a.symbol.name.length - b.symbol.name.length || placeOrder(a, b);
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
