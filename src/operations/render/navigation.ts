/**
 * Markdown of the navigation operations.
 */
import type { CallNodeShape as CallNode, FindDefinitionResult, FindReferencesResult, OpenAtResult, PreviewShape as Preview } from '../contracts/navigation.js';

export function previewText(p: Preview, mark?: number): string {
  return p.lines.map((l, i) => `${String(p.start_line + i).padStart(5)}${p.start_line + i === mark ? '>' : ' '} ${l}`).join('\n');
}

export function treeMarkdown(title: string, r: { symbol: string; root: CallNode }): string {
  const out = [`## ${title} of ${r.symbol}`, '', `${r.root.kind} **${r.root.qualified_name ?? r.root.name}** — ${r.root.file}:${r.root.line}`];
  const walk = (nodes: CallNode[] | undefined, depth: number) => {
    for (const n of nodes ?? []) {
      const sites = (n.call_sites ?? []).map((s) => `${s.line}:${s.column}`).join(', ');
      out.push(
        `${'  '.repeat(depth)}- ${n.kind} **${n.qualified_name ?? n.name}** — ${n.file}:${n.line}${sites ? ` (calls at ${sites})` : ''}${n.cycle ? ' ↻ cycle' : ''}`,
      );
      walk(n.children, depth + 1);
    }
  };
  walk(r.root.calls, 0);
  if (!r.root.calls?.length) out.push('', '(none)');
  return out.join('\n') + '\n';
}

export function findDefinitionMarkdown(r: FindDefinitionResult): string {
  const out = [`## Definition of ${r.symbol}`, ''];
  if (!r.found) out.push('(not found)');
  if (r.tied) out.push(`${r.total} declarations of this name tie; ${r.definitions.length} listed:`, '');
  for (const d of r.definitions) {
    out.push(
      `- ${d.kind} **${d.name}**${d.container ? ` in ${d.container}` : ''} — ${d.file}:${d.line}:${d.column}${d.symbol_id ? ` \`${d.symbol_id}\`` : ''}`,
      ...(d.preview ? ['```', previewText(d.preview, d.line), '```'] : []),
    );
  }
  return out.join('\n') + '\n';
}

export function findReferencesMarkdown(r: FindReferencesResult): string {
  const out = [`## ${r.total} reference(s) to ${r.symbol}`, ''];
  for (const ref of r.references) {
    out.push(
      `- ${ref.file}:${ref.line}:${ref.column}${ref.isWrite ? ' (write)' : ''}${ref.container ? ` in ${ref.container}` : ''}`,
      ...(ref.preview ? ['```', previewText(ref.preview, ref.line), '```'] : []),
    );
  }
  return out.join('\n') + '\n';
}

export function openAtMarkdown(r: OpenAtResult): string {
  const head = `## ${r.file}:${r.start_line}-${r.end_line}${r.symbol ? ` (in ${r.symbol.kind} ${r.symbol.qualified_name})` : ''}`;
  return [head, '```', previewText({ lines: r.lines.length ? r.lines : [''], start_line: r.start_line }), '```'].join('\n') + '\n';
}
