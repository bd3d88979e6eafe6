/**
 * The syntax half of analyze_complexity: decision points and code lines of a range of one file, on
 * its tree-sitter tree with its language profile's complexity query. Pure (text in, counts out), so
 * that it runs in a syntax worker (complexity.ts asks it there).
 */
import { syntaxOf } from '../../adapters/languages.js';
import { type SyntaxNode, type SyntaxQuery, WHOLE_FILE_QUERY, withSyntaxTree } from '../../syntax/syntax.js';

/**
 * Decision points and code lines within 1-based lines [from, to] of a parsed file: `query` is the
 * language profile's complexity query (`@decision` on decision points, `@comment` on comments).
 */
export function measure(root: SyntaxNode, query: SyntaxQuery, lines: string[], from: number, to: number): { cyclomatic: number; loc: number } {
  const inside = (n: SyntaxNode) => n.startPosition.row + 1 >= from && n.startPosition.row + 1 <= to;
  let decisions = 0;
  const commentOnly = new Set<number>();
  for (const { name, node } of query.captures(root, WHOLE_FILE_QUERY)) {
    if (name === 'decision') {
      if (inside(node)) decisions++;
      continue;
    }
    if (name !== 'comment') continue;
    for (let r = node.startPosition.row; r <= node.endPosition.row; r++) {
      const text = lines[r] ?? '';
      const before = r === node.startPosition.row ? text.slice(0, node.startPosition.column) : '';
      const after = r === node.endPosition.row ? text.slice(node.endPosition.column) : '';
      if (!before.trim() && !after.trim()) commentOnly.add(r + 1);
    }
  }
  let loc = 0;
  for (let l = from; l <= to; l++) if ((lines[l - 1] ?? '').trim() && !commentOnly.has(l)) loc++;
  return { cyclomatic: 1 + decisions, loc };
}

/** measure over a file's text; zero decisions and every non-blank line when no profile counts decision points. */
export async function measureText(relPath: string, text: string, from: number, to: number): Promise<{ cyclomatic: number; loc: number }> {
  const syntax = syntaxOf(relPath);
  const complexity = syntax?.profile.syntax.complexity;
  const lines = text.split(/\r\n|\r|\n/);
  if (!syntax || !complexity) return { cyclomatic: 1, loc: lines.slice(from - 1, to).filter((l) => l.trim()).length };
  return withSyntaxTree(syntax.grammar, text, (root, query) => measure(root, query!, lines, from, to), complexity.query);
}
