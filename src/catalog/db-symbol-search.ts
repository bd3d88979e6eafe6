/**
 * search_symbols answered from the workspace database (src/store/symbol-texts.ts), exactly as
 * rankSymbols and then the resolution policy's order would (test/unit/db-symbol-search.test.ts
 * holds it to the same reference as the in-heap SearchTexts). Nothing per symbol stays in the heap:
 * - one word of the query (the longest, when it has three characters or more) gives the
 *   candidates: the FTS5 trigram index's rows holding it in a text, and the names that have it as
 *   a subsequence (GLOB over the name index, for the fuzzy pass); every symbol matching the query
 *   matches that word, so nothing else can match. A query of shorter words reads every row;
 * - each candidate is verified and scored in JavaScript (symbol-search.ts's scoreWord over the
 *   stored lower-cased texts), and only the matches are looked up as symbols (`symbolAt`: the
 *   catalog's entry of the file, at the row's place in it) for the filters, the policy key and the
 *   order, of which only the page is sorted (top-k.ts).
 * Positions (`symbols`, the policy key's argument) are the rows' ids, which are never reused: a key
 * kept per position stays true. `symbols` holds the last query's matches only.
 */
import type { CatalogSymbol, RankedPage, SymbolRanker } from '../core/catalog.js';
import type { SymbolTextsReader, TextRow } from '../store/symbol-texts.js';
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
  symbols: (CatalogSymbol | undefined)[] = [];
  /** The last query's matches: lower-cased name and qualified name by id (the policy key reads them). */
  private readonly names = new Map<number, { name: string; qn: string }>();

  constructor(
    readonly reader: SymbolTextsReader,
    private readonly symbolAt: SymbolAt,
  ) {}

  /** Ready for a query over the rows stored now (call after the database caught up with the catalog). */
  refresh(): this {
    const n = this.reader.lastId() + 1;
    if (this.symbols.length < n) this.symbols.length = n;
    return this;
  }

  lowerName(pos: number): string {
    return this.names.get(pos)?.name ?? '';
  }

  mayBeNamed(pos: number, hash: number, qualifiedHash: number): boolean {
    const t = this.names.get(pos);
    return !!t && (textHash(t.name) === hash || textHash(t.qn) === qualifiedHash);
  }

  rank(query: string, keep?: (s: CatalogSymbol) => boolean): { symbol: CatalogSymbol; score: number }[] {
    return this.top(query, keep, Infinity).top;
  }

  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: (pos: number) => number): RankedPage {
    for (const id of this.names.keys()) this.symbols[id] = undefined;
    this.names.clear();
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.blank(keep, k);
    // One word keeps the query's case (an exact-case name scores 100); several are lower-cased.
    const list = words.length > 1 ? words : [query.trim()];
    const lower = list.map((w) => w.toLowerCase());
    const matches: Match[] = [];
    for (const row of this.rows(lower)) {
      let total = 0;
      for (let j = 0; j < list.length; j++) {
        const sc = scoreRow(row, list[j]!, lower[j]!);
        if (sc === 0) {
          total = 0;
          break;
        }
        total += sc;
      }
      if (total === 0) continue;
      const symbol = this.symbolAt(row.path, row.ord);
      if (!symbol || (keep && !keep(symbol))) continue;
      matches.push({ id: row.id, ord: row.ord, symbol, score: total + (KIND_WEIGHT[symbol.kind] ?? 0) });
      this.symbols[row.id] = symbol;
      this.names.set(row.id, { name: row.lname, qn: row.lqn ?? row.lname });
    }
    const keys = new Float64Array(matches.length);
    matches.forEach((m, j) => (keys[j] = (major ? major(m.id) : 0) * SCORE_SPAN + (SCORE_SPAN - 1 - m.score)));
    const order = selectTop(matches.length, k, (a, b) => keys[a]! - keys[b]! || tie(matches[a]!, matches[b]!));
    return { top: order.map((j) => ({ symbol: matches[j]!.symbol, score: matches[j]!.score })), total: matches.length };
  }

  /** The rows that may match every word: one word's candidates, or every row when each word is short. */
  private rows(lower: string[]): Iterable<TextRow> {
    let best: string | undefined;
    let bestLength = 2;
    for (const w of lower) {
      const length = [...w].length;
      if (length > bestLength && !LONE_SURROGATE.test(w)) {
        best = w;
        bestLength = length;
      }
    }
    return best === undefined ? this.reader.all() : this.reader.candidates(best, true);
  }

  /** A blank query lists every symbol the filters let through, in file and line order, score 1. */
  private blank(keep: ((s: CatalogSymbol) => boolean) | undefined, k: number): RankedPage {
    const matches: Match[] = [];
    for (const row of this.reader.blankRows()) {
      const symbol = this.symbolAt(row.path, row.ord);
      if (symbol && (!keep || keep(symbol))) matches.push({ id: row.id, ord: row.ord, symbol, score: 1 });
    }
    const order = selectTop(matches.length, k, (a, b) => placeOrder(matches[a]!, matches[b]!));
    return { top: order.map((j) => ({ symbol: matches[j]!.symbol, score: 1 })), total: matches.length };
  }
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
