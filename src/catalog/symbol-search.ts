/**
 * search_symbols ranking over name (exact > prefix > substring > fuzzy), qualified name,
 * signature, summary and docstring. Every word of the query must match somewhere.
 */
import type { CatalogSymbol } from '../core/catalog.js';

export const KIND_WEIGHT: Record<string, number> = { class: 3, interface: 3, struct: 3, trait: 3, type: 2, enum: 2, function: 2, method: 2, constructor: 1 };

export interface RankedSymbol {
  symbol: CatalogSymbol;
  score: number;
}

export function rankSymbols(symbols: Iterable<CatalogSymbol>, query: string): RankedSymbol[] {
  const q = query.trim();
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  // A blank query lists every symbol the filters let through, in file and line order.
  if (words.length === 0)
    return [...symbols].map((symbol) => ({ symbol, score: 1 })).sort((a, b) => a.symbol.file.localeCompare(b.symbol.file) || a.symbol.line - b.symbol.line);
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
    (a, b) => b.score - a.score || a.symbol.name.length - b.symbol.name.length || a.symbol.file.localeCompare(b.symbol.file) || a.symbol.line - b.symbol.line,
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

export function isSubsequence(needle: string, hay: string): boolean {
  if (needle.length < 2 || needle.length > hay.length) return false;
  let i = 0;
  for (const c of hay) if (c === needle[i] && ++i === needle.length) return true;
  return false;
}

/**
 * isSubsequence by code unit, without a string per character: a surrogate pair is one character
 * there (never equal to one code unit of the needle), so a pair is skipped whole here.
 */
export function fuzzyName(needle: string, hay: string): boolean {
  const n = needle.length;
  if (n < 2 || n > hay.length) return false;
  let i = 0;
  let want = needle.charCodeAt(0);
  for (let j = 0; j < hay.length; j++) {
    const c = hay.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff && j + 1 < hay.length) {
      const d = hay.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        j++;
        continue;
      }
    }
    if (c === want) {
      if (++i === n) return true;
      want = needle.charCodeAt(i);
    }
  }
  return false;
}

/** A 32-bit set of the code units of `s`: a–z exactly, the others folded onto six bits. */
export function maskOf(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    m |= c >= 97 && c <= 122 ? 1 << (c - 97) : 1 << (26 + (c % 6));
  }
  return m;
}

/** A 32-bit hash of a text (equal texts, equal hashes): a cheap first test of name equality. */
export function textHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}
