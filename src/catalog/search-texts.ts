/**
 * search_symbols over one catalog version, answering exactly as rankSymbols and then the
 * resolution policy's order would (test/unit/symbol-search-texts.test.ts) without their work per
 * query and per match:
 * - the five searched texts of each symbol (name, qualified name, signature, summary, docstring)
 *   are lower-cased once, each with the set of its characters, so a text lacking one of the
 *   word's characters is never scanned;
 * - a gram index (gram-index.ts) narrows a word to the symbols that may hold it, instead of
 *   scanning every text (3.8 M characters for 24k symbols, ~5 ms a query);
 * - the fuzzy pass tests only the names whose character sets allow the word;
 * - everything the order reads is in typed arrays (kind weight, name hashes, and a static rank
 *   for rankSymbols' tie-breaks: name length, file in `localeCompare` order, line, position), so
 *   a match costs no visit to its symbol object, and only the page is ordered (a heap of
 *   offset + max_results; the other matches are only counted).
 */
import type { CatalogSymbol, RankedPage, SymbolRanker } from '../core/catalog.js';
import { GramIndex } from './gram-index.js';
import { fuzzyName, KIND_WEIGHT, maskOf, textHash } from './symbol-search.js';
import { selectTop } from './top-k.js';

/** The symbols matching one query (positions in the catalog order) and their scores. */
interface Matches {
  ids: Int32Array;
  scores: Int32Array;
  count: number;
}

/** Texts of a symbol in `lower` (FIELDS per symbol): name, qualified name, signature, summary, docstring. */
const FIELDS = 5;
/** Scores stay below this (2,000 characters of query make at most 1,000 words of at most 133 each). */
const SCORE_SPAN = 2 ** 24;

function positions(n: number, before: (a: number, b: number) => number): Int32Array {
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(before);
  const rank = new Int32Array(n);
  for (let r = 0; r < n; r++) rank[order[r]!] = r;
  return rank;
}

export class SearchTexts implements SymbolRanker {
  private readonly lower: string[];
  private readonly masks: Int32Array;
  private readonly grams: GramIndex;
  private readonly kindWeight: Int8Array;
  private readonly nameHashes: Int32Array;
  private readonly qualifiedHashes: Int32Array;
  /** Position in rankSymbols' order among equal scores: name length, file (localeCompare), line, position. */
  private readonly tieRank: Int32Array;
  private readonly fileRank: Int32Array;
  /** Position in a blank query's order (file, line, position), made on the first blank query. */
  private blankRank: Int32Array | undefined;
  /** stamp[i] === stampNow: symbol i was scored in this query's first word already. */
  private readonly stamp: Int32Array;
  private stampNow = 0;
  /**
   * The fuzzy pass's view: the distinct lower-cased names (far fewer than symbols) with their
   * character sets, and the symbols of each (those of names[u] are bearers[from[u] .. from[u + 1]]).
   */
  private readonly names: { text: string[]; masks: Int32Array; from: Int32Array; bearers: Int32Array; idOf: Int32Array };
  /** fuzzy[u] === stampNow: distinct name u has this query's first word as a subsequence. */
  private readonly fuzzy: Int32Array;
  /** One query's matches (positions, scores), reused: a query is answered synchronously. */
  private readonly scratchIds: Int32Array;
  private readonly scratchScores: Int32Array;

  constructor(readonly symbols: readonly CatalogSymbol[]) {
    const n = symbols.length;
    this.lower = new Array<string>(n * FIELDS);
    this.masks = new Int32Array(n * FIELDS);
    this.nameHashes = new Int32Array(n);
    this.qualifiedHashes = new Int32Array(n);
    this.kindWeight = new Int8Array(n);
    this.stamp = new Int32Array(n);
    this.scratchIds = new Int32Array(n);
    this.scratchScores = new Int32Array(n);
    for (let i = 0; i < n; i++) this.prepare(i, symbols[i]!);
    this.names = this.distinctNames();
    this.fuzzy = new Int32Array(this.names.text.length);
    this.grams = new GramIndex(this.lower, FIELDS);
    const files = [...new Set(symbols.map((s) => s.file))].sort((a, b) => a.localeCompare(b));
    const rankOf = new Map<string, number>();
    let r = 0;
    files.forEach((f, i) => rankOf.set(f, i > 0 && files[i - 1]!.localeCompare(f) !== 0 ? ++r : r));
    this.fileRank = Int32Array.from(symbols, (s) => rankOf.get(s.file)!);
    const fileRank = this.fileRank;
    const nameLength = Int32Array.from(symbols, (s) => s.name.length);
    const line = Int32Array.from(symbols, (s) => s.line);
    this.tieRank = positions(n, (a, b) => nameLength[a]! - nameLength[b]! || fileRank[a]! - fileRank[b]! || line[a]! - line[b]! || a - b);
  }

  private prepare(i: number, s: CatalogSymbol): void {
    const name = s.name.toLowerCase();
    const qn = s.qualified_name === s.name ? name : s.qualified_name.toLowerCase();
    const sig = s.signature.toLowerCase();
    // A summary is often the signature, a docstring the summary: one string for both.
    const sum = s.summary === s.signature ? sig : s.summary.toLowerCase();
    const doc = !s.docstring ? '' : s.docstring === s.summary ? sum : s.docstring.toLowerCase();
    const o = i * FIELDS;
    const texts = [name, qn, sig, sum, doc];
    for (let f = 0; f < FIELDS; f++) {
      this.lower[o + f] = texts[f]!;
      this.masks[o + f] = maskOf(texts[f]!);
    }
    this.nameHashes[i] = textHash(name);
    this.qualifiedHashes[i] = textHash(qn);
    this.kindWeight[i] = KIND_WEIGHT[s.kind] ?? 0;
  }

  private distinctNames(): SearchTexts['names'] {
    const n = this.symbols.length;
    const idOf = new Map<string, number>();
    const text: string[] = [];
    const nameId = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const name = this.lower[i * FIELDS]!;
      let u = idOf.get(name);
      if (u === undefined) idOf.set(name, (u = text.push(name) - 1));
      nameId[i] = u;
    }
    const from = new Int32Array(text.length + 1);
    for (let i = 0; i < n; i++) from[nameId[i]! + 1]!++;
    for (let u = 0; u < text.length; u++) from[u + 1]! += from[u]!;
    const at = from.slice(0, text.length);
    const bearers = new Int32Array(n);
    for (let i = 0; i < n; i++) bearers[at[nameId[i]!]!++] = i;
    return { text, masks: Int32Array.from(text, maskOf), from, bearers, idOf: nameId };
  }

  /** The lower-cased name of the symbol at position `pos`. */
  lowerName(pos: number): string {
    return this.lower[pos * FIELDS]!;
  }

  /** Whether the symbol's lower-cased name (or qualified name) may be `hash`'s text: false means it is not. */
  mayBeNamed(pos: number, hash: number, qualifiedHash: number): boolean {
    return this.nameHashes[pos] === hash || this.qualifiedHashes[pos] === qualifiedHash;
  }

  /** rankSymbols over the symbols `keep` lets through, for `query`; identical to ranking them all. */
  rank(query: string, keep?: (s: CatalogSymbol) => boolean): { symbol: CatalogSymbol; score: number }[] {
    return this.top(query, keep, Infinity).top;
  }

  /**
   * The first `k` matches in rankSymbols' order, or, given `major` (lower first, by position),
   * ordered by it first and rankSymbols' order among equals; `total` counts every match.
   */
  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: (pos: number) => number): RankedPage {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.blank(keep, k);
    const { ids, scores, count } = this.matches(query, words, keep);
    const keys = new Float64Array(count);
    for (let j = 0; j < count; j++) keys[j] = (major ? major(ids[j]!) : 0) * SCORE_SPAN + (SCORE_SPAN - 1 - scores[j]!);
    const tie = this.tieRank;
    const order = selectTop(count, k, (a, b) => keys[a]! - keys[b]! || tie[ids[a]!]! - tie[ids[b]!]!);
    return { top: order.map((j) => ({ symbol: this.symbols[ids[j]!]!, score: scores[j]! })), total: count };
  }

  /** A blank query lists every symbol the filters let through, in file and line order, score 1. */
  private blank(keep: ((s: CatalogSymbol) => boolean) | undefined, k: number): RankedPage {
    const n = this.symbols.length;
    const ids = this.scratchIds;
    let count = 0;
    for (let i = 0; i < n; i++) if (!keep || keep(this.symbols[i]!)) ids[count++] = i;
    const fileRank = this.fileRank;
    const syms = this.symbols;
    const rank = (this.blankRank ??= positions(n, (a, b) => fileRank[a]! - fileRank[b]! || syms[a]!.line - syms[b]!.line || a - b));
    const order = selectTop(count, k, (a, b) => rank[ids[a]!]! - rank[ids[b]!]!);
    return { top: order.map((j) => ({ symbol: syms[ids[j]!]!, score: 1 })), total: count };
  }

  private matches(query: string, words: string[], keep: ((s: CatalogSymbol) => boolean) | undefined): Matches {
    // One word keeps the query's case (an exact-case name scores 100); several are lower-cased.
    const list = words.length > 1 ? words : [query.trim()];
    const { ids, scores } = this;
    let count = this.firstWord(list[0]!);
    for (const word of list.slice(1)) {
      const w = word.toLowerCase();
      const wm = maskOf(w);
      let c = 0;
      for (let j = 0; j < count; j++) {
        const sc = this.score(ids[j]!, word, w, wm);
        if (sc === 0) continue;
        ids[c] = ids[j]!;
        scores[c++] = scores[j]! + sc;
      }
      count = c;
    }
    let c = 0;
    for (let j = 0; j < count; j++) {
      const i = ids[j]!;
      if (keep && !keep(this.symbols[i]!)) continue;
      ids[c] = i;
      scores[c++] = scores[j]! + this.kindWeight[i]!;
    }
    return { ids, scores, count: c };
  }

  private get ids(): Int32Array {
    return this.scratchIds;
  }

  private get scores(): Int32Array {
    return this.scratchScores;
  }

  /** Puts the symbols whose scoreWord for `word` is not 0 in ids / scores; their count. */
  private firstWord(word: string): number {
    const w = word.toLowerCase();
    const wm = maskOf(w);
    const n = this.symbols.length;
    const { ids, scores } = this;
    let count = 0;
    const candidates = this.grams.candidates(w);
    if (!candidates) {
      for (let i = 0; i < n; i++) {
        const sc = this.score(i, word, w, wm);
        if (sc === 0) continue;
        ids[count] = i;
        scores[count++] = sc;
      }
      return count;
    }
    const stamp = this.stamp;
    const now = ++this.stampNow;
    // The fuzzy test once per distinct name, for the candidates' scores and the fuzzy-only matches.
    const { text, masks, from, bearers } = this.names;
    const fuzzy = this.fuzzy;
    for (let u = 0; u < text.length; u++) if ((wm & ~masks[u]!) === 0 && fuzzyName(w, text[u]!)) fuzzy[u] = now;
    for (const i of candidates) {
      stamp[i] = now;
      const sc = this.score(i, word, w, wm, now);
      if (sc === 0) continue;
      ids[count] = i;
      scores[count++] = sc;
    }
    // Not a candidate: none of its texts holds the word, so only a fuzzy name match (20) is left.
    for (let u = 0; u < text.length; u++) {
      if (fuzzy[u] !== now) continue;
      for (let p = from[u]!; p < from[u + 1]!; p++) {
        const i = bearers[p]!;
        if (stamp[i] === now) continue;
        ids[count] = i;
        scores[count++] = 20;
      }
    }
    return count;
  }

  /**
   * scoreWord(symbols[i], word) from the lower-cased texts (`w` = word lower-cased, `wm` its
   * character set); with `fuzzyNow`, the fuzzy test is the first word's, made per distinct name.
   */
  private score(i: number, word: string, w: string, wm: number, fuzzyNow?: number): number {
    const o = i * FIELDS;
    const m = this.masks;
    const name = this.lower[o]!;
    let score = 0;
    if ((wm & ~m[o]!) === 0) {
      // The exact name (case-sensitive) is the lower-cased name equal to the word, first.
      if (name === w) score = this.symbols[i]!.name === word ? 100 : 90;
      else if (name.startsWith(w)) score = 70;
      else if (name.includes(w)) score = 50;
      else if (fuzzyNow !== undefined ? this.fuzzy[this.names.idOf[i]!] === fuzzyNow : fuzzyName(w, name)) score = 20;
    }
    if ((wm & ~m[o + 1]!) === 0) {
      const qn = this.lower[o + 1]!;
      if (qn !== name && qn.endsWith(w)) score = Math.max(score, 95);
      else if (qn.includes(w)) score = Math.max(score, 40);
    }
    // A summary that is the signature (most are), a docstring that is the summary: one scan each.
    const sig = this.lower[o + 2]!;
    const sum = this.lower[o + 3]!;
    const inSig = (wm & ~m[o + 2]!) === 0 && sig.includes(w);
    const inSum = sum === sig ? inSig : (wm & ~m[o + 3]!) === 0 && sum.includes(w);
    const doc = this.lower[o + 4]!;
    const inDoc = doc === sum ? inSum : (wm & ~m[o + 4]!) === 0 && doc.includes(w);
    return score + (inSig ? 15 : 0) + (inSum ? 10 : 0) + (inDoc ? 5 : 0);
  }
}
