/**
 * Markdown of the repository operations.
 */
import type { DetectDriftResult, GetFileTreeResult, GetRepoOutlineResult, IndexResult, ListReposResult, TreeNode } from '../contracts/repository.js';

export function indexMarkdown(r: IndexResult): string {
  const lines = [`## Indexed ${r.root}`, '', `workspace \`${r.workspace}\`: ${r.files} files, ${r.symbols} symbols, ${r.state}, ${r.duration_ms} ms`];
  if (r.empty_reason) lines.push(`nothing cataloged: ${r.empty_reason}`);
  lines.push(
    `languages: ${
      Object.entries(r.languages)
        .map(([l, n]) => `${l} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  const skipped = Object.entries(r.skipped).filter(([, n]) => n > 0);
  if (skipped.length) lines.push(`skipped: ${skipped.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const e of r.errors.slice(0, 20)) lines.push(`- failed ${e.file}: ${e.code} ${e.message}`);
  return lines.join('\n') + '\n';
}

export function listReposMarkdown(r: ListReposResult): string {
  return (
    [
      '## Workspaces',
      '',
      ...r.repos.map(
        (x) =>
          `- \`${x.workspace}\` ${x.root}: ${x.files} files, ${x.symbols} symbols, ${x.state}${x.empty_reason ? ` (${x.empty_reason})` : ''}${x.failed ? ` (failed: ${x.failed})` : ''}${x.indexed_at ? `, indexed ${x.indexed_at}` : ''}${x.git_head ? `, HEAD ${x.git_head.slice(0, 12)}` : ''}`,
      ),
    ].join('\n') + '\n'
  );
}

export function getRepoOutlineMarkdown(r: GetRepoOutlineResult): string {
  return (
    [
      `## Repository outline: ${r.files} files, ${r.symbols} symbols`,
      '',
      `languages: ${Object.entries(r.languages)
        .map(([l, n]) => `${l} ${n}`)
        .join(', ')}`,
      `kinds: ${Object.entries(r.symbol_kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
      '',
      ...r.directories.map((d) => `- ${d.path}/ — ${d.files} files, ${d.symbols} symbols`),
    ].join('\n') + '\n'
  );
}

export function getFileTreeMarkdown(r: GetFileTreeResult): string {
  const out: string[] = [];
  const walk = (n: TreeNode, depth: number) => {
    const pad = '  '.repeat(depth);
    out.push(n.type === 'file' ? `${pad}- ${n.name} (${n.language}, ${n.symbols} symbols)` : `${pad}- ${n.name}/ (${n.files} files, ${n.symbols} symbols)`);
    for (const c of n.children ?? []) walk(c, depth + 1);
  };
  walk(r.tree, 0);
  return out.join('\n') + '\n';
}

export function detectDriftMarkdown(r: DetectDriftResult): string {
  return (
    [
      `## Drift${r.since ? ` since ${r.since}` : ''}`,
      '',
      ...(['added', 'removed', 'modified'] as const).flatMap((k) => [`${k}: ${r[k].length}`, ...r[k].slice(0, 50).map((id) => `- ${id}`)]),
    ].join('\n') + '\n'
  );
}
