/**
 * C# `#if` / `#else` branches that open a declaration differently (`#if LIB` `class SchedulerUnity {`
 * `#else` `class Scheduler {` `#endif`, one closing brace below) are both read by tree-sitter-c-sharp,
 * which does not choose a branch: the braces no longer balance and error recovery loses the namespace
 * and everything in it. A compiler reads one branch, the one whose symbols are defined, which a parser
 * cannot know: the first (`#if`) is kept, as universal-ctags keeps it, and the others (`#elif`, `#else`,
 * up to `#endif`) are read as blank. Only in a file that does not parse: elsewhere every branch's
 * declarations stay in the outline.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { TextRepair } from '../query-declarations.js';

/** From each `#elif` / `#else` that follows an `#if` to its `#endif`, outermost branches only. */
function laterBranches(root: SyntaxNode): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  if (!root.hasError) return spans;
  /** One entry per open `#if`: where its blanked branches began, if they did. */
  const open: Array<number | undefined> = [];
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.childCount > 0) {
      for (let i = n.childCount - 1; i >= 0; i--) {
        const c = n.child(i);
        if (c) stack.push(c);
      }
      continue;
    }
    if (n.type === '#if') open.push(undefined);
    else if ((n.type === '#elif' || n.type === '#else') && open.length > 0 && open[open.length - 1] === undefined && !open.some((o) => o !== undefined))
      open[open.length - 1] = n.startIndex;
    else if (n.type === '#endif' && open.length > 0) {
      const from = open.pop();
      if (from !== undefined) spans.push([from, n.startIndex]);
    }
  }
  return spans;
}

export const csharpRepair: TextRepair = { grammar: 'c-sharp', spans: laterBranches };
