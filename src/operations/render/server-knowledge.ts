/**
 * Markdown of the server knowledge operations.
 */
import type {
  CodeActionsResult,
  FindImplementationsResult,
  GetDiagnosticsResult,
  GetHoverResult,
  RenameSymbolResult,
  SignatureHelpResult,
  TypeHierarchyResult,
  TypeNode,
} from '../contracts/server-knowledge.js';

export function diagnosticsMarkdown(r: GetDiagnosticsResult): string {
  const c = r.counts;
  const out = [`## Diagnostics: ${c.error} error(s), ${c.warning} warning(s), ${c.information} info, ${c.hint} hint(s) in ${r.files_checked} file(s)`, ''];
  for (const f of r.files) {
    if (!f.diagnostics.length) continue;
    out.push(`### ${f.file} (v${f.version}, ${f.mode}, ${f.content_hash.slice(0, 12)})`);
    for (const d of f.diagnostics)
      out.push(`- ${f.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}${d.source ? ` (${d.source})` : ''}: ${d.message}`);
    out.push('');
  }
  for (const f of r.failed) out.push(`- ${f.file}: ${f.code} ${f.message}`);
  if (r.total === 0 && !r.failed.length) out.push('(no diagnostics)');
  return out.join('\n') + '\n';
}

export function implementationsMarkdown(r: FindImplementationsResult): string {
  const out = [
    `## ${r.implementations.length} implementation(s) of ${r.symbol} (${r.source === 'server' ? 'from the server' : 'from declaration headers read from parse trees, resolved by the server'})`,
    '',
  ];
  for (const d of r.implementations)
    out.push(
      `- ${d.kind} **${d.name}**${d.container ? ` in ${d.container}` : ''} — ${d.file}:${d.line}:${d.column}${d.symbol_id ? ` \`${d.symbol_id}\`` : ''}`,
    );
  if (!r.implementations.length) out.push('(none)');
  return out.join('\n') + '\n';
}

export function hierarchyMarkdown(r: TypeHierarchyResult): string {
  const out = [`## Type hierarchy of ${r.symbol} (${r.direction}, ${r.source === 'server' ? 'from the server' : "from the catalog's type relations"})`, ''];
  const line = (n: TypeNode) => `${n.kind} **${n.name}** — ${n.file}:${n.line}${n.cycle ? ' ↻ cycle' : ''}`;
  out.push(line(r.root));
  const walk = (nodes: TypeNode[] | undefined, edge: 'supertypes' | 'subtypes', depth: number) => {
    for (const n of nodes ?? []) {
      out.push(`${'  '.repeat(depth)}- ${edge === 'supertypes' ? '↑' : '↓'} ${line(n)}`);
      walk(n[edge], edge, depth + 1);
    }
  };
  walk(r.root.supertypes, 'supertypes', 0);
  walk(r.root.subtypes, 'subtypes', 0);
  return out.join('\n') + '\n';
}

export function hoverMarkdown(r: GetHoverResult): string {
  if (!r.found) return `## Hover at ${r.symbol}\n\n(nothing)\n`;
  if (r.withheld) return `## Hover at ${r.symbol}\n\n(withheld: ${r.withheld})\n`;
  return `## Hover at ${r.symbol}\n\n${r.markdown}\n`;
}

export function signatureMarkdown(r: SignatureHelpResult): string {
  const out = [`## Signature help at ${r.position}`, ''];
  r.signatures.forEach((s, i) => {
    out.push(`${i === r.active_signature ? '→ ' : '  '}\`${s.label}\``);
    s.parameters.forEach((p, j) =>
      out.push(`    ${j === r.active_parameter && i === r.active_signature ? '→' : '-'} \`${p.label}\`${p.documentation ? `: ${p.documentation}` : ''}`),
    );
  });
  if (r.withheld) out.push(`(withheld: ${r.withheld})`);
  else if (!r.signatures.length) out.push('(no call here)');
  return out.join('\n') + '\n';
}

export function editMarkdown(r: RenameSymbolResult): string {
  const out = [`## Rename ${r.old_name} → ${r.new_name}: ${r.total_edits} edit(s) in ${r.total_files} file(s)${r.applied ? ' (applied)' : ' (preview)'}`, ''];
  for (const f of r.files) out.push('```diff', f.diff.trimEnd(), '```');
  if (r.backup_dir) out.push('', `backups: ${r.backup_dir}`);
  if (r.not_renamed.length) {
    out.push(
      '',
      `**Not renamed** (${r.not_renamed.length} occurrence(s) of \`${r.old_name}\` the server's edit leaves; apply needs \`accept_not_renamed: true\`):`,
    );
    for (const n of r.not_renamed)
      out.push(
        `- ${n.file}:${n.line}:${n.column} (${n.resolves === 'target' ? 'the server resolves it to the renamed symbol' : 'the server resolves it to nothing'}): \`${n.text}\``,
      );
  }
  return out.join('\n') + '\n';
}

export function actionsMarkdown(r: CodeActionsResult): string {
  const out = [`## ${r.actions.length} code action(s) for ${r.file}${r.applied !== undefined ? ` (applied #${r.applied})` : ''}`, ''];
  for (const a of r.actions) {
    out.push(`${a.index}. **${a.title}**${a.kind ? ` (${a.kind})` : ''}${a.is_preferred ? ' ★' : ''}${a.command ? ` — command ${a.command}, no edit` : ''}`);
    for (const f of a.files) out.push('```diff', f.diff.trimEnd(), '```');
  }
  return out.join('\n') + '\n';
}
