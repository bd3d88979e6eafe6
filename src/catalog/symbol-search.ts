/**
 * search_symbols ranking over name (exact > prefix > substring > fuzzy), qualified name,
 * signature, summary and docstring. Every word of the query must match somewhere.
 */
import type { CatalogSymbol } from '../core/catalog.js';

const KIND_WEIGHT: Record<string, number> = { class: 3, interface: 3, struct: 3, trait: 3, type: 2, enum: 2, function: 2, method: 2, constructor: 1 };

export interface RankedSymbol {
  symbol: CatalogSymbol;
  score: number;
}

export function rankSymbols(symbols: Iterable<CatalogSymbol>, query: string): RankedSymbol[] {
  const q = query.trim();
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  // A blank query lists every symbol the filters let through, in file and line order.
  if (words.length === 0) return [...symbols].map((symbol) => ({ symbol, score: 1 })).sort((a, b) => a.symbol.file.localeCompare(b.symbol.file) || a.symbol.line - b.symbol.line);
  const out: RankedSymbol[] = [];
  for (const s of symbols) {
    let total = 0;
    let all = true;
    for (const w of words.length > 1 ? words : [q]) {
      const score = scoreWord(s, w);
      if (score === 0) {
        all = false;
        break;
      }
      total += score;
    }
    if (all && total > 0) out.push({ symbol: s, score: total + (KIND_WEIGHT[s.kind] ?? 0) });
  }
  return out.sort(
    (a, b) =>
      b.score - a.score ||
      a.symbol.name.length - b.symbol.name.length ||
      a.symbol.file.localeCompare(b.symbol.file) ||
      a.symbol.line - b.symbol.line,
  );
}

function scoreWord(s: CatalogSymbol, word: string): number {
  const w = word.toLowerCase();
  const name = s.name.toLowerCase();
  let score = 0;
  if (s.name === word) score = 100;
  else if (name === w) score = 90;
  else if (name.startsWith(w)) score = 70;
  else if (name.includes(w)) score = 50;
  else if (isSubsequence(w, name)) score = 20;
  const qn = s.qualified_name.toLowerCase();
  if (w.length > 0 && qn !== name && (qn === w || qn.endsWith(w))) score = Math.max(score, 95);
  else if (qn.includes(w)) score = Math.max(score, 40);
  if (s.signature.toLowerCase().includes(w)) score += 15;
  if (s.summary.toLowerCase().includes(w)) score += 10;
  if (s.docstring?.toLowerCase().includes(w)) score += 5;
  return score;
}

function isSubsequence(needle: string, hay: string): boolean {
  if (needle.length < 2 || needle.length > hay.length) return false;
  let i = 0;
  for (const c of hay) if (c === needle[i] && ++i === needle.length) return true;
  return false;
}

/**
 * The catalog's searched texts, lower-cased once per catalog version into one string (a region
 * per symbol: name, qualified name, signature, summary, docstring), so that a query finds the
 * symbols it could match with one `indexOf` scan instead of lower-casing and scanning every
 * text of every symbol (24k symbols: ~30 ms of CPU per search_symbols). Every non-zero score
 * needs the lower-cased word inside one of those texts, or (fuzzy) a subsequence of the name:
 * the candidates are a superset of the matches, then ranked by rankSymbols exactly as before,
 * in the same order.
 */
export class SearchTexts {
  private readonly text: string;
  /** starts[i]: where symbol i's region begins; starts[n] = text.length. */
  private readonly starts: Int32Array;
  private readonly names: string[];

  constructor(readonly symbols: readonly CatalogSymbol[]) {
    const parts: string[] = [];
    this.starts = new Int32Array(symbols.length + 1);
    this.names = [];
    let offset = 0;
    symbols.forEach((s, i) => {
      const name = s.name.toLowerCase();
      this.names.push(name);
      const region = `${name}\u0000${s.qualified_name.toLowerCase()}\u0000${s.signature.toLowerCase()}\u0000${s.summary.toLowerCase()}\u0000${s.docstring?.toLowerCase() ?? ''}\u0001`;
      this.starts[i] = offset;
      parts.push(region);
      offset += region.length;
    });
    this.starts[symbols.length] = offset;
    this.text = parts.join('');
  }

  /** rankSymbols over the symbols `keep` lets through, for `query`; identical to ranking them all. */
  rank(query: string, keep: (s: CatalogSymbol) => boolean): RankedSymbol[] {
    const q = query.trim();
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return rankSymbols(this.symbols.filter(keep), query);
    let hit: Uint8Array | undefined;
    for (const w of words.length > 1 ? words : [q.toLowerCase()]) {
      const mine = this.mark(w);
      if (hit) for (let i = 0; i < hit.length; i++) hit[i]! &= mine[i]!;
      else hit = mine;
    }
    const candidates: CatalogSymbol[] = [];
    for (let i = 0; i < this.symbols.length; i++) if (hit![i] && keep(this.symbols[i]!)) candidates.push(this.symbols[i]!);
    return rankSymbols(candidates, query);
  }

  /** 1 for each symbol one of whose texts holds `w`, or whose name has it as a subsequence. */
  private mark(w: string): Uint8Array {
    const out = new Uint8Array(this.symbols.length);
    for (let at = this.text.indexOf(w); at >= 0; ) {
      const i = this.regionOf(at);
      out[i] = 1;
      at = this.text.indexOf(w, this.starts[i + 1]!);
    }
    for (let i = 0; i < this.names.length; i++) if (!out[i] && isSubsequence(w, this.names[i]!)) out[i] = 1;
    return out;
  }

  /** The symbol whose region holds text offset `at` (binary search over the region starts). */
  private regionOf(at: number): number {
    let lo = 0;
    let hi = this.symbols.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
