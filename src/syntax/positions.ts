/**
 * Line/column positions of syntax nodes. Tree-sitter indexes of a JavaScript string are UTF-16 code
 * units, the unit of LSP's default position encoding: a node's column is its index minus its line's.
 */
import type { SyntaxNode } from './syntax.js';

export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based, UTF-16 code units. */
  column: number;
}

/** The index of every line's first character. */
export function lineStartsOf(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) out.push(i + 1);
  return out;
}

/** 1-based line and UTF-16 column of a node's start. */
export function startOf(node: SyntaxNode, starts: readonly number[]): SourcePosition {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= node.startIndex) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: node.startIndex - starts[lo]! + 1 };
}
