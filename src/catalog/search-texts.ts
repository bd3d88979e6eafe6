/**
 * search_symbols over the catalog, answering exactly as rankSymbols and then the resolution
 * policy's order would (test/unit/symbol-search-texts.test.ts, search-texts-reference.test.ts)
 * without their work per query and per match:
 * - the five searched texts of each symbol (name, qualified name, signature, summary, docstring)
 *   are lower-cased once, each with the set of its characters, so a text lacking one of the
 *   word's characters is never scanned;
 * - a gram index (gram-index.ts) narrows a word to the symbols that may hold it, instead of
 *   scanning every text (3.8 M characters for 24k symbols, ~5 ms a query);
 * - the fuzzy pass tests only the names whose character sets allow the word;
 * - everything the order reads is in typed arrays (kind weight, name hashes, name length, file
 *   ranks, line, place in the file), so a match costs no visit to its symbol object, and only the
 *   page is ordered (a heap of offset + max_results; the other matches are only counted).
 * The structure follows the catalog file by file (search-slots.ts, `sync`): an edit re-indexes
 * the edited file's symbols only.
 */
import type { CatalogSymbol, FileEntry, RankedPage, SymbolRanker } from '../core/catalog.js';
import { FIELDS, SearchSlots } from './search-slots.js';
import { fuzzyName, maskOf } from './symbol-search.js';
import { selectTop } from './top-k.js';

/** The symbols matching one query (slots) and their scores. */
interface Matches {
  ids: Int32Array;
  scores: Int32Array;
  count: number;
}

/** Scores stay below this (2,000 characters of query make at most 1,000 words of at most 133 each). */
const SCORE_SPAN = 2 ** 24;

/** What `sync` reads of the catalog's index: its files and which changed since a sequence number. */
export interface IndexView {
  readonly files: ReadonlyMap<string, FileEntry>;
  readonly sequence: number;
  /** Files set or removed after `sequence`; undefined when that is too far back to say. */
  changedSince(sequence: number): string[] | undefined;
}

export class SearchTexts extends SearchSlots implements SymbolRanker {
  /** stamp[i] === stampNow: slot i was scored in this query's first word already. */
  private stamp = new Int32Array(0);
  private stampNow = 0;
  /** fuzzy[u] === stampNow: distinct name u has this query's first word as a subsequence. */
  private fuzzy = new Int32Array(0);
  /** One query's matches (slots, scores), reused: a query is answered synchronously. */
  private scratchIds = new Int32Array(0);
  private scratchScores = new Int32Array(0);
  /** A blank query's order (file, line, place), made on the first blank query after a change. */
  private blankRank: { generation: number; rank: Int32Array } | undefined;
  /** The index sequence number the slots stand at. */
  private sequence = -1;

  /** The texts of `symbols`, given in the catalog's order (file in code-unit order, then byte offset). */
  constructor(symbols?: readonly CatalogSymbol[]) {
    super();
    // SearchTexts.of fills the slots itself, then indexes them once
    if (!symbols) return;
    const byFile = new Map<string, CatalogSymbol[]>();
    for (const s of symbols) {
      const list = byFile.get(s.file);
      if (list) list.push(s);
      else byFile.set(s.file, [s]);
    }
    for (const [file, list] of byFile) this.setFile(file, list);
    this.indexAll();
  }

  /** The texts of every file of a catalog index, at its sequence number. */
  static of(index: IndexView): SearchTexts {
    const texts = new SearchTexts();
    for (const [file, entry] of index.files) texts.setFile(file, entry.symbols);
    texts.indexAll();
    texts.sequence = index.sequence;
    return texts;
  }

  /**
   * Brought up to date with the index: the files changed since the last sync, one by one; a new
   * structure (returned instead of this) when the changes are too many or too far back.
   */
  sync(index: IndexView): SearchTexts {
    if (index.sequence === this.sequence) return this;
    const changed = index.changedSince(this.sequence);
    if (!changed || this.worn || changed.length > Math.max(64, this.fileIds.size / 4)) return SearchTexts.of(index);
    for (const file of new Set(changed)) {
      const entry = index.files.get(file);
      if (entry) this.setFile(file, entry.symbols);
      else this.removeFile(file);
    }
    this.sequence = index.sequence;
    return this.worn ? SearchTexts.of(index) : this;
  }

  /** The lower-cased name of the symbol at slot `pos`. */
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

  /** rankSymbols' order among equal scores: name length, file (localeCompare), line, the catalog's order. */
  private tie(a: number, b: number): number {
    const r = this.ranks;
    const fa = this.fileOf[a]!;
    const fb = this.fileOf[b]!;
    return (
      this.nameLength[a]! - this.nameLength[b]! ||
      r.localeRank[fa]! - r.localeRank[fb]! ||
      this.line[a]! - this.line[b]! ||
      r.unitRank[fa]! - r.unitRank[fb]! ||
      this.posInFile[a]! - this.posInFile[b]!
    );
  }

  private prepare(): void {
    const n = this.symbols.length;
    this.ranks.settle(this.fileNames.length);
    if (this.stamp.length < n) {
      this.stamp = new Int32Array(n * 2);
      this.scratchIds = new Int32Array(n * 2);
      this.scratchScores = new Int32Array(n * 2);
      this.stampNow = 0;
    }
    if (this.fuzzy.length < this.nameText.length) this.fuzzy = new Int32Array(this.nameText.length * 2);
  }

  /**
   * The first `k` matches in rankSymbols' order, or, given `major` (lower first, by slot),
   * ordered by it first and rankSymbols' order among equals; `total` counts every match.
   */
  top(query: string, keep: ((s: CatalogSymbol) => boolean) | undefined, k: number, major?: (pos: number) => number): RankedPage {
    this.prepare();
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.blank(keep, k);
    const { ids, scores, count } = this.matches(query, words, keep);
    const keys = new Float64Array(count);
    for (let j = 0; j < count; j++) keys[j] = (major ? major(ids[j]!) : 0) * SCORE_SPAN + (SCORE_SPAN - 1 - scores[j]!);
    const order = selectTop(count, k, (a, b) => keys[a]! - keys[b]! || this.tie(ids[a]!, ids[b]!));
    return { top: order.map((j) => ({ symbol: this.symbols[ids[j]!]!, score: scores[j]! })), total: count };
  }

  /** A blank query lists every symbol the filters let through, in file and line order, score 1. */
  private blank(keep: ((s: CatalogSymbol) => boolean) | undefined, k: number): RankedPage {
    const ids = this.scratchIds;
    let count = 0;
    for (let i = 0; i < this.symbols.length; i++) if (this.alive[i] && (!keep || keep(this.symbols[i]!))) ids[count++] = i;
    const rank = this.blankOrder();
    const order = selectTop(count, k, (a, b) => rank[ids[a]!]! - rank[ids[b]!]!);
    return { top: order.map((j) => ({ symbol: this.symbols[ids[j]!]!, score: 1 })), total: count };
  }

  private blankOrder(): Int32Array {
    if (this.blankRank?.generation === this.generation) return this.blankRank.rank;
    const r = this.ranks;
    const live: number[] = [];
    for (let i = 0; i < this.symbols.length; i++) if (this.alive[i]) live.push(i);
    live.sort(
      (a, b) =>
        r.localeRank[this.fileOf[a]!]! - r.localeRank[this.fileOf[b]!]! ||
        this.line[a]! - this.line[b]! ||
        r.unitRank[this.fileOf[a]!]! - r.unitRank[this.fileOf[b]!]! ||
        this.posInFile[a]! - this.posInFile[b]!,
    );
    const rank = new Int32Array(this.symbols.length);
    live.forEach((slot, at) => (rank[slot] = at));
    this.blankRank = { generation: this.generation, rank };
    return rank;
  }

  private matches(query: string, words: string[], keep: ((s: CatalogSymbol) => boolean) | undefined): Matches {
    // One word keeps the query's case (an exact-case name scores 100); several are lower-cased.
    const list = words.length > 1 ? words : [query.trim()];
    const ids = this.scratchIds;
    const scores = this.scratchScores;
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

  /** Puts the slots whose scoreWord for `word` is not 0 in ids / scores; their count. */
  private firstWord(word: string): number {
    const w = word.toLowerCase();
    const wm = maskOf(w);
    const ids = this.scratchIds;
    const scores = this.scratchScores;
    let count = 0;
    const candidates = this.candidates(w);
    if (!candidates) {
      for (let i = 0; i < this.symbols.length; i++) {
        if (!this.alive[i]) continue;
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
    const fuzzy = this.fuzzy;
    for (let u = 0; u < this.nameText.length; u++) if ((wm & ~this.nameMasks[u]!) === 0 && fuzzyName(w, this.nameText[u]!)) fuzzy[u] = now;
    for (const i of candidates) {
      stamp[i] = now;
      const sc = this.score(i, word, w, wm, now);
      if (sc === 0) continue;
      ids[count] = i;
      scores[count++] = sc;
    }
    // Not a candidate: none of its texts holds the word, so only a fuzzy name match (20) is left.
    for (let u = 0; u < this.nameText.length; u++) {
      if (fuzzy[u] !== now) continue;
      for (const i of this.bearers[u]!) {
        if (stamp[i] === now || !this.alive[i]) continue;
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
      else if (fuzzyNow !== undefined ? this.fuzzy[this.nameOf[i]!] === fuzzyNow : fuzzyName(w, name)) score = 20;
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
