/**
 * The shared shape of the type-relation truth (bench/truth-structure.ts): every type a compiler's own
 * view declares in a corpus, and every edge `sub → base` its header (or a Go struct's embedded field)
 * makes, as the compiler resolves it. A type is keyed by `file:line` of its name (workspace-relative);
 * a base outside the corpus by `ext:<Name>` (the last part of its name).
 */
export interface TruthEdge {
  sub: string;
  base: string;
}

export interface RelationTruth {
  /** Key → name of every type declaration the compiler sees. */
  types: Map<string, string>;
  edges: TruthEdge[];
}

export const typeKey = (file: string, line: number): string => `${file}:${line}`;
export const externalKey = (name: string): string => `ext:${name}`;

/** How one side's edges agree with the truth's. */
export interface Agreement {
  truth: number;
  found: number;
  matched: number;
  missing: string[];
  extra: string[];
}

export function agreement(truth: Iterable<string>, found: Iterable<string>): Agreement {
  const t = new Set(truth);
  const f = new Set(found);
  const missing = [...t].filter((e) => !f.has(e));
  const extra = [...f].filter((e) => !t.has(e));
  return { truth: t.size, found: f.size, matched: t.size - missing.length, missing, extra };
}

/** matched / |truth ∪ found|: 100% only when both sets are equal. */
export function agreementPct(a: Agreement): string {
  const union = a.truth + a.extra.length;
  return union === 0 ? 'n/a' : `${((100 * a.matched) / union).toFixed(1)}%`;
}
