/**
 * Markdown of move_file.
 */
import type { MoveFileResult } from '../contracts/move-file.js';

export function moveFileMarkdown(r: MoveFileResult): string {
  const state = r.applied ? 'applied' : 'preview';
  const out = [`## move_file ${r.file} → ${r.to} (${state}, ${r.importers.length} importer(s) updated by ${r.server})`, ''];
  for (const f of r.files) if (f.diff) out.push('```diff', f.diff.trimEnd(), '```');
  if (r.diagnostics === 'not_checked') out.push('', `Diagnostics not checked: ${r.diagnostics_reason ?? ''}`);
  else out.push('', `Diagnostics (${r.diagnostics}): ${r.introduced.length} introduced, ${r.removed.length} removed`);
  for (const u of r.unchecked) out.push(`- unchecked ${u.file}: ${u.reason}`);
  for (const d of r.introduced) out.push(`- + ${d.file}:${d.line}:${d.column} **${d.severity}**${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  if (r.pending_imports.length) out.push(`(${r.pending_imports.length} import(s) of the new path resolve only once it exists: not counted)`);
  for (const d of r.removed) out.push(`- − ${d.file}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${d.message}`);
  if (r.backup_dir) out.push('', `backup: ${r.backup_dir}`);
  if (!r.applied) out.push('', 'apply: the same call with apply: true and expected_hashes {file: content_hash} of the files above');
  return out.join('\n') + '\n';
}
