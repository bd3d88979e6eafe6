/**
 * A CSS string continued over lines (`url('data:image/svg+xml,<svg … \` newline `xmlns=…')`, as
 * data URLs of inline icons are written: CSS reads a backslash before a line break inside a string
 * as nothing) is no string to tree-sitter's CSS grammar: error recovery reads the closing quote as
 * the opening of a string that runs to the end of the file, and every rule after it is lost. Read
 * as blank, such a backslash leaves a string the grammar reads. Found only inside the tree's ERROR
 * nodes: a file that parses is left as it is.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { TextRepair } from '../query-declarations.js';

/** The backslashes before a line break inside ERROR nodes: a walk with an explicit stack, into erroneous nodes only. */
function continuations(root: SyntaxNode): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'ERROR') {
      const text = n.text;
      for (let i = text.indexOf('\\'); i >= 0; i = text.indexOf('\\', i + 1)) {
        const next = text[i + 1] === '\r' ? text[i + 2] : text[i + 1];
        if (next === '\n') spans.push([n.startIndex + i, n.startIndex + i + 1]);
      }
      continue;
    }
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return spans;
}

export const cssRepair: TextRepair = { grammar: 'css', spans: continuations };
