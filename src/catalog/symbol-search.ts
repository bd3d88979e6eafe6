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
  const asked = (words.length > 1 ? words : [q]).map((word) => ({ word, lower: word.toLowerCase() }));
  for (const s of symbols) {
    let total = 0;
    let all = true;
    for (const { word, lower } of asked) {
      const score = scoreWord(s, word, lower);
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

/** A symbol's searched texts in lower case, with the originals they were made from. */
interface Lowered {
  /** The texts lowered (the symbol's own strings, shared, not copied). */
  from: [string, string, string, string, string | undefined];
  name: string;
  qualified: string;
  signature: string;
  summary: string;
  docstring: string | undefined;
}

/**
 * Lower-cased texts per symbol object, made once: every query lower-cased the name, qualified
 * name, signature, summary and docstring of every symbol in the catalog again (most of a
 * search's time, and most of its garbage). Re-made if any of the texts was replaced.
 */
const lowered = new WeakMap<CatalogSymbol, Lowered>();

function lowerOf(s: CatalogSymbol): Lowered {
  const l = lowered.get(s);
  if (l) {
    const [n, q, sig, sum, doc] = l.from;
    if (n === s.name && q === s.qualified_name && sig === s.signature && sum === s.summary && doc === s.docstring) return l;
  }
  const made: Lowered = {
    from: [s.name, s.qualified_name, s.signature, s.summary, s.docstring],
    name: s.name.toLowerCase(),
    qualified: s.qualified_name.toLowerCase(),
    signature: s.signature.toLowerCase(),
    summary: s.summary.toLowerCase(),
    docstring: s.docstring?.toLowerCase(),
  };
  lowered.set(s, made);
  return made;
}

function scoreWord(s: CatalogSymbol, word: string, w: string): number {
  const low = lowerOf(s);
  const name = low.name;
  let score = 0;
  if (s.name === word) score = 100;
  else if (name === w) score = 90;
  else if (name.startsWith(w)) score = 70;
  else if (name.includes(w)) score = 50;
  else if (isSubsequence(w, name)) score = 20;
  const qn = low.qualified;
  if (w.length > 0 && qn !== name && (qn === w || qn.endsWith(w))) score = Math.max(score, 95);
  else if (qn.includes(w)) score = Math.max(score, 40);
  if (low.signature.includes(w)) score += 15;
  if (low.summary.includes(w)) score += 10;
  if (low.docstring?.includes(w)) score += 5;
  return score;
}

function isSubsequence(needle: string, hay: string): boolean {
  if (needle.length < 2 || needle.length > hay.length) return false;
  let i = 0;
  for (const c of hay) if (c === needle[i] && ++i === needle.length) return true;
  return false;
}
