/**
 * Markdown of the symbol retrieval and search operations.
 */
import type { SearchSymbolsResult, SearchTextResult, SymbolSource } from '../contracts/search.js';

export function sourceMarkdown(s: SymbolSource): string {
  const sym = s.symbol;
  const fence = '`'.repeat(Math.max(3, ...[...s.source.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const body = s.context ? `${s.context.before}\n${s.source}\n${s.context.after}` : s.source;
  return `### ${sym.qualified_name} (${sym.kind}) — ${sym.file}:${sym.line}-${sym.end_line}\n\`${sym.symbol_id}\`\n\n${fence}${sym.language}\n${body}\n${fence}\n`;
}

export function searchSymbolsMarkdown(r: SearchSymbolsResult): string {
  return (
    [
      `## ${r.total} symbol(s)`,
      '',
      ...r.results.map((h) => `- \`${h.symbol_id}\` ${h.file}:${h.line} — ${h.signature}${h.summary !== h.signature ? ` — ${h.summary}` : ''}`),
    ].join('\n') + '\n'
  );
}

export function searchTextMarkdown(r: SearchTextResult): string {
  return (
    [
      `## ${r.matches.length} match(es) in ${r.files_searched} files`,
      '',
      ...r.matches.flatMap((m) => [
        ...(m.before ?? []).map((l) => `  ${l}`),
        `- ${m.file}:${m.line}:${m.column}: ${m.text.trim()}`,
        ...(m.after ?? []).map((l) => `  ${l}`),
      ]),
    ].join('\n') + '\n'
  );
}
