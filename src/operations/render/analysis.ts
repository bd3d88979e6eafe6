/**
 * Markdown of the analysis operations.
 */
import type { FindDeadCodeResult, FindPatternsResult, RenderDiagramResult } from '../contracts/analysis.js';
import { skippedMarkdown } from './skipped.js';

export function findDeadCodeMarkdown(r: FindDeadCodeResult): string {
  const out = [`## ${r.counts.dead ?? 0} dead declaration(s) among ${r.scanned} checked`, ''];
  for (const c of r.candidates) out.push(`- [${c.category}] ${c.kind} **${c.qualified_name}** — ${c.file}:${c.line}: ${c.reason}`);
  if (!r.candidates.length) out.push('(none)');
  return out.join('\n') + skippedMarkdown(r.skipped);
}

export function renderDiagramMarkdown(r: RenderDiagramResult): string {
  const head = `## ${r.diagram_type} diagram: ${r.nodes} node(s), ${r.edges} edge(s)${r.omitted_nodes ? `, ${r.omitted_nodes} left out` : ''}`;
  const body = r.text ?? JSON.stringify(r.diagram, null, 2);
  const lang = r.format === 'json' ? 'json' : r.format === 'svg' ? 'xml' : r.format;
  return [head, '', '```' + lang, body.trimEnd(), '```'].join('\n') + skippedMarkdown(r.skipped);
}

export function findPatternsMarkdown(r: FindPatternsResult): string {
  const out = [`## ${r.total} pattern(s) (${r.pattern_type})`, ''];
  for (const [name, p] of Object.entries(r.patterns)) out.push(`- **${name}** [${p.pattern_type}] ×${p.usage} in ${p.files.length} file(s) — ${p.description}`);
  if (!r.total) out.push('(none)');
  return out.join('\n') + skippedMarkdown(r.skipped);
}
