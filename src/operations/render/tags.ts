/**
 * Markdown of tag_elements.
 */
import type { TagElementsResult } from '../contracts/tags.js';

export function tagElementsMarkdown(r: TagElementsResult): string {
  const out = [`## ${r.text.split('\n')[0]}${r.dry_run ? ' (dry run: nothing written)' : ''}`, '', ...r.text.split('\n').slice(1)];
  if (r.backup_dir) out.push('', `Backups: ${r.backup_dir}`);
  for (const f of r.files) out.push('', '```diff', f.diff.trimEnd(), '```');
  return out.join('\n') + '\n';
}
