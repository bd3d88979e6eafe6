/**
 * One row per analysis, language and defect class of `npm run truth`: what it was compared with,
 * how far they agree, which answers were partial (and said so), which failed.
 */
import type { Lang } from './corpora.js';

export interface Row {
  analysis: string;
  lang: Lang;
  /** The defect class of the issue the row measures (1 … 11). */
  defect: string;
  truth: string;
  agreement: string;
  /** Answers marked partial, with what they skipped (`-` when none). */
  partial: string;
  /** Failed answers with their codes (`-` when none). */
  failures: string;
}

export function renderTable(rows: Row[]): string {
  const head = '| analysis | lang | defect | truth | agreement | partial answers | failures |\n|---|---|---|---|---|---|---|';
  const body = rows.map((r) => `| ${r.analysis} | ${r.lang} | ${r.defect} | ${r.truth} | ${r.agreement} | ${r.partial} | ${r.failures} |`);
  return [head, ...body].join('\n');
}

/** `a/b equal (x%)`. */
export function share(equal: number, total: number): string {
  return total ? `${equal}/${total} (${Math.round((equal / total) * 1000) / 10}%)` : '0/0';
}

/** Set agreement: both sides, and the first few differences. */
export function compareSets(lspgate: Iterable<string>, truth: Iterable<string>): { text: string; equal: boolean; onlyLspgate: string[]; onlyTruth: string[] } {
  const a = new Set(lspgate);
  const b = new Set(truth);
  const onlyLspgate = [...a].filter((x) => !b.has(x)).sort();
  const onlyTruth = [...b].filter((x) => !a.has(x)).sort();
  const both = [...a].filter((x) => b.has(x)).length;
  const text = `${share(both, new Set([...a, ...b]).size)} of the union agree; only lspgate ${onlyLspgate.length}, only truth ${onlyTruth.length}`;
  return { text, equal: onlyLspgate.length === 0 && onlyTruth.length === 0, onlyLspgate, onlyTruth };
}
