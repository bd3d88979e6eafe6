/**
 * pyright's documentSymbol lists every parameter of a function as a Variable child of it
 * (`User.__init__.first`, `format_name.last`): names of a signature, not symbols anyone looks up,
 * they filled search results and catalogs. A Variable child whose name sits inside its function's
 * parameter list is dropped; locals assigned in the body stay.
 */
import { type DocumentSymbol, type Position, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { fromLspPosition, lineStarts, toLspPosition } from '../../../lsp/positions.js';
import type { PositionEncoding } from '../../../lsp/types.js';

const FUNCTIONS: readonly number[] = [Lsp.Function, Lsp.Method, Lsp.Constructor];

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** The 0-based line holding `offset` (binary search over the line starts). */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The `(` … `)` of the def whose name the selection is, as LSP positions; undefined when unreadable. */
function parameterList(fn: DocumentSymbol, text: string, starts: number[], encoding: PositionEncoding): { open: Position; close: Position } | undefined {
  const name = fromLspPosition(text, fn.selectionRange.end, encoding, starts);
  let i = (starts[name.line - 1] ?? 0) + name.column - 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '(') return undefined;
  const openAt = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) break;
  }
  if (i >= text.length) return undefined;
  const pos = (offset: number) => {
    const line = lineOf(starts, offset);
    return toLspPosition(text, line + 1, offset - starts[line]! + 1, encoding);
  };
  return { open: pos(openAt), close: pos(i) };
}

function withoutParameters(symbols: DocumentSymbol[], text: string, starts: number[], encoding: PositionEncoding): DocumentSymbol[] {
  return symbols.map((s) => {
    if (!s.children?.length) return s;
    let children = withoutParameters(s.children, text, starts, encoding);
    const list = FUNCTIONS.includes(s.kind) ? parameterList(s, text, starts, encoding) : undefined;
    if (list)
      children = children.filter((c) => c.kind !== Lsp.Variable || !(before(list.open, c.selectionRange.start) && before(c.selectionRange.start, list.close)));
    return children === s.children ? s : { ...s, children };
  });
}

export function pythonDeclarations(symbols: DocumentSymbol[], text: string, encoding: PositionEncoding): DocumentSymbol[] {
  return withoutParameters(symbols, text, lineStarts(text), encoding);
}
