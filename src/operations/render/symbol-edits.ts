/**
 * Markdown of the symbol edit operations.
 */
import type { SymbolEditResult, UndoResult } from '../contracts/symbol-edits.js';
import { guidanceLines, mustNotBreakLine } from './must-keep-lines.js';

export function symbolEditMarkdown(r: SymbolEditResult): string {
  const state = r.applied ? 'applied' : 'preview';
  const out = [`## ${r.operation} ${r.symbol} in ${r.file}:${r.line} (${state})`, '', '```diff', r.diff.trimEnd(), '```', ''];
  if (r.note) out.push(r.note);
  if (r.diagnostics === 'not_checked') out.push(`Diagnostics not checked: ${r.diagnostics_reason ?? ''}`);
  else out.push(`Diagnostics (${r.server ?? 'server'}, ${r.diagnostics}): ${r.introduced.length} introduced, ${r.removed.length} removed`);
  for (const u of r.unchecked) out.push(`- unchecked ${u.file}: ${u.reason}`);
  if (r.referencing)
    out.push(
      `Referencing files checked: ${r.referencing.files.filter((f) => !r.unchecked.some((u) => u.file === f)).length} of ${r.referencing.total_files}${r.referencing.total_files > r.referencing.cap ? ` (cap ${r.referencing.cap})` : ''}`,
    );
  if (r.referencing?.unseen_folders) out.push(`Not searched (the server does not load them): ${r.referencing.unseen_folders.join(', ')}`);
  for (const d of r.introduced) out.push(`- + ${d.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  for (const d of r.removed) out.push(`- − ${d.file}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  const keep = [...(r.invariants ?? []).map(mustNotBreakLine), ...guidanceLines(r)];
  if (keep.length) out.push('', ...keep);
  if (r.references?.length) out.push('', `References left (force): ${r.references.map((x) => `${x.file}:${x.line}`).join(', ')}`);
  if (r.new_symbols?.length) out.push('', `New symbols: ${r.new_symbols.map((s) => `\`${s.symbol_id}\``).join(', ')}`);
  if (r.backup_dir) out.push('', `backup: ${r.backup_dir}`);
  if (!r.applied && !r.note) out.push('', `apply: the same call with apply: true, expected_hash: ${r.edit_hash}`);
  return out.join('\n') + '\n';
}

export function undoMarkdown(r: UndoResult): string {
  const out = [`## Undone: ${r.operation} of ${r.applied_at} (${r.files.length} file(s) restored)`, ''];
  for (const f of r.files) out.push('```diff', f.diff.trimEnd(), '```');
  out.push('', `backup of the undone state: ${r.backup_dir}`);
  return out.join('\n') + '\n';
}
