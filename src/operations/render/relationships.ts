/**
 * Markdown of the relationship operations.
 */
import type { AnalyzeImpactResult, ChangedSymbolsResult, QueryRelationshipsResult } from '../contracts/relationships.js';
import { guidanceLines, mustNotBreakLine } from './must-keep-lines.js';
import { skippedMarkdown } from './skipped.js';

export function queryRelationshipsMarkdown(r: QueryRelationshipsResult): string {
  const out = [`## ${r.query_type} of ${r.target}: ${r.total} relationship(s)`, ''];
  for (const x of r.results) {
    const where = `${x.file}${x.line ? `:${x.line}` : ''}`;
    const extra = x.status && x.status !== 'workspace' ? ` (${x.status})` : x.via ? ` (${x.via.join('+')})` : '';
    out.push(`${'  '.repeat(x.depth - 1)}- ${x.from} → ${x.to}${extra} — ${where}`);
  }
  if (!r.results.length) out.push(r.skipped.length ? '(none among the files answered)' : '(none)');
  return out.join('\n') + skippedMarkdown(r.skipped);
}

export function analyzeImpactMarkdown(r: AnalyzeImpactResult): string {
  const i = r.impact;
  const out = [`## Impact of ${r.operation} ${r.element}: ${i.risk_level}`, '', i.risk_reason, ''];
  for (const e of i.ripple_effects) out.push(`- ${e.file}${e.line ? `:${e.line}` : ''} — ${e.impact} (${e.severity})`);
  if (!i.ripple_effects.length) out.push('(nothing else is affected)');
  if (i.tests.length) out.push('', `Tests reached: ${i.tests.join(', ')}`);
  for (const v of i.invariants ?? []) out.push(mustNotBreakLine(v));
  out.push(...guidanceLines(i));
  return out.join('\n') + skippedMarkdown(r.skipped);
}

export function changedSymbolsMarkdown(r: ChangedSymbolsResult): string {
  const out = [`## ${r.total} changed symbol(s) in ${r.files_changed} file(s) against ${r.base_ref}`, ''];
  for (const s of r.symbols) {
    const where = `${s.file}:${s.line}-${s.end_line}${s.change === 'deleted' ? ` at ${r.base_ref}` : ''}`;
    const impact = s.impact
      ? `: ${s.impact.risk_level}, ${s.impact.affected_files} file(s) affected${s.impact.tests.length ? `, tests ${s.impact.tests.join(', ')}` : ''}`
      : '';
    out.push(`- ${s.change} ${s.kind} **${s.qualified_name}** — ${where}${impact}`);
  }
  for (const u of r.unattributed) out.push(`- ${u.file}: ${u.lines.length} line(s) changed, ${u.removed_lines} removed ${u.reason}`);
  if (!r.symbols.length && !r.unattributed.length) out.push('(no changes)');
  return out.join('\n') + skippedMarkdown(r.skipped);
}
