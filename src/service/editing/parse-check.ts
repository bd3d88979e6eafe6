/**
 * The parse check of a symbol edit, before any server sees the new text: the file as it would be is
 * parsed with its grammar, and the edited region must (1) hold no ERROR or MISSING node and (2) be
 * whole declarations: no node of the tree may start inside it and end outside it, or the reverse.
 * The second catches text that parses but escapes its place — a method body that closes its class
 * early and opens another (`} class Evil {`) is valid TypeScript, and the class that follows in the
 * file then ends inside the region.
 */
import { syntaxOf } from '../../adapters/languages.js';
import { LspgateError } from '../../errors/errors.js';
import { type SyntaxNode, withSyntaxTree } from '../../syntax/syntax.js';

export interface ParseProblem {
  line: number;
  column: number;
  message: string;
}

/** Region [start, end) in string indices of `text`; undefined when the file's language has no grammar (nothing to check). */
export async function parseCheck(relPath: string, text: string, start: number, end: number): Promise<'checked' | 'no_grammar'> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return 'no_grammar';
  // only the text that is not whitespace counts: a region's blank edges belong to no node
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (start >= end) return 'checked';
  const problem = await withSyntaxTree(syntax.grammar, text, (root) => errorIn(root, start, end) ?? crossing(root, start, end));
  if (problem) {
    throw new LspgateError(
      'INVALID_INPUT',
      `the new text does not parse as ${syntax.profile.name} declarations in place: ${problem.message} at line ${problem.line}, column ${problem.column} of the edited file; nothing is written`,
      {
        line: problem.line,
        column: problem.column,
        grammar: syntax.grammar,
      },
    );
  }
  return 'checked';
}

function at(node: SyntaxNode, message: string): ParseProblem {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** The first ERROR / MISSING node overlapping the region, found without recursion (only subtrees with errors are entered). */
function errorIn(root: SyntaxNode, start: number, end: number): ParseProblem | undefined {
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const overlaps = n.endIndex > start && n.startIndex < end;
    const touches = overlaps || (n.isMissing && n.startIndex >= start && n.startIndex <= end);
    if (!touches) continue;
    if (n.isError) return at(n, 'a syntax error');
    if (n.isMissing) return at(n, `a missing ${n.type}`);
    if (!n.hasError) continue;
    const kids = n.children;
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i]) stack.push(kids[i]!);
  }
  return undefined;
}

/** A node that starts inside the region and ends outside it (or the reverse), under the smallest node holding the region. */
function crossing(root: SyntaxNode, start: number, end: number): ParseProblem | undefined {
  const holder = root.descendantForIndex(start, end);
  if (!holder) return undefined;
  if (holder.startIndex === start && holder.endIndex === end) return undefined;
  for (const child of holder.children) {
    if (!child || child.endIndex <= start || child.startIndex >= end) continue;
    // tree-sitter-python gives a block the comments indented under its last statement: a declaration
    // range that ends at that statement leaves them after the new text, and only they reach beyond it
    if (child.startIndex >= start && child.endIndex > end && onlyCommentsFrom(child, end)) continue;
    if (child.startIndex < start || child.endIndex > end) {
      const what = child.startIndex < start ? 'ends inside the new text' : 'reaches beyond the new text';
      return at(
        child.startIndex < start ? child : child,
        `the ${child.type.replace(/_/g, ' ')} at line ${child.startPosition.row + 1} ${what} (the text closes or opens a block it does not own)`,
      );
    }
  }
  return undefined;
}

/** True when every part of `node` from `end` on is a comment (nodes that straddle `end` are entered; a straddling leaf is not). */
function onlyCommentsFrom(node: SyntaxNode, end: number): boolean {
  const stack: SyntaxNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.endIndex <= end) continue;
    if (n.startIndex >= end) {
      if (!n.type.includes('comment')) return false;
      continue;
    }
    if (!n.childCount) return false;
    for (const c of n.children) if (c) stack.push(c);
  }
  return true;
}

/**
 * Lines of a caller's text (`\n`-split, 0-based) that hold the inside of a string literal spanning
 * lines and less indented than the line it opens on (a usage text at column 0, a raw SQL string):
 * their leading spaces are the string's content, so shaping the text must leave them as they are.
 * A string whose lines are all at least as deep as its opening line (a docstring) moves with the code.
 */
export async function verbatimRows(relPath: string, text: string): Promise<Set<number>> {
  const out = new Set<number>();
  const syntax = syntaxOf(relPath);
  if (!syntax || !text.includes('\n')) return out;
  const lines = text.split('\n');
  const lead = (row: number) => /^[ \t]*/.exec(lines[row] ?? '')![0].length;
  await withSyntaxTree(syntax.grammar, text, (root) => {
    const stack: SyntaxNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      const first = n.startPosition.row;
      const last = n.endPosition.row;
      if (last === first) continue;
      if (/string|heredoc|nowdoc/.test(n.type)) {
        const rows = Array.from({ length: last - first }, (_, i) => first + 1 + i);
        if (rows.some((r) => lines[r]!.trim() && lead(r) < lead(first))) for (const r of rows) out.add(r);
        continue;
      }
      for (const c of n.children) if (c) stack.push(c);
    }
  });
  return out;
}
