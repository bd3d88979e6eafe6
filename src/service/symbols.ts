/**
 * documentSymbol trees: normalisation (flat SymbolInformation[] nested by range, children in
 * source order) and lookups by position.
 */
import type { DocumentSymbol, Position, Range, SymbolInformation } from 'vscode-languageserver-protocol';

import type { FileContext, SymbolContext } from '../adapters/types.js';

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

export function rangeContains(outer: Range, inner: Range | Position): boolean {
  const r = 'start' in inner ? inner : { start: inner, end: inner };
  return comparePositions(outer.start, r.start) <= 0 && comparePositions(r.end, outer.end) <= 0;
}

function isSymbolInformation(s: DocumentSymbol | SymbolInformation): s is SymbolInformation {
  return 'location' in s && !('selectionRange' in s);
}

/** Either documentSymbol answer shape → a DocumentSymbol tree in source order. */
export function normalizeDocumentSymbols(answer: (DocumentSymbol | SymbolInformation)[] | null | undefined, lines: string[]): DocumentSymbol[] {
  if (!answer || answer.length === 0) return [];
  if (!answer.every(isSymbolInformation)) return sortTree(answer as DocumentSymbol[]);
  const items: DocumentSymbol[] = answer
    .map((si) => ({ name: si.name, kind: si.kind, range: si.location.range, selectionRange: nameRange(si, lines), children: [] as DocumentSymbol[] }))
    .sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(b.range.end, a.range.end));
  const roots: DocumentSymbol[] = [];
  const stack: DocumentSymbol[] = [];
  for (const item of items) {
    while (stack.length && !rangeContains(stack[stack.length - 1]!.range, item.range)) stack.pop();
    (stack.length ? stack[stack.length - 1]!.children! : roots).push(item);
    stack.push(item);
  }
  return roots;
}

/** SymbolInformation has no selectionRange: the name's first occurrence in the range, else its start. */
function nameRange(si: SymbolInformation, lines: string[]): Range {
  const r = si.location.range;
  for (let l = r.start.line; l <= r.end.line && l < r.start.line + 50; l++) {
    const at = (lines[l] ?? '').indexOf(si.name, l === r.start.line ? r.start.character : 0);
    if (at >= 0) return { start: { line: l, character: at }, end: { line: l, character: at + si.name.length } };
  }
  return { start: r.start, end: r.start };
}

function sortTree(nodes: DocumentSymbol[]): DocumentSymbol[] {
  return [...nodes]
    .sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(a.selectionRange.start, b.selectionRange.start))
    .map((n) => (n.children?.length ? { ...n, children: sortTree(n.children) } : n));
}

/** Every symbol of the file with its parents, depth first, in source order. */
export function* walkSymbols(file: FileContext, nodes = file.symbols, parents: DocumentSymbol[] = []): Generator<SymbolContext> {
  for (const symbol of nodes) {
    yield { file, symbol, parents };
    if (symbol.children?.length) yield* walkSymbols(file, symbol.children, [...parents, symbol]);
  }
}

/** The innermost symbol whose full range contains the position (or line, when `pos` has no character). */
export function innermostAt(file: FileContext, pos: Position, filter?: (s: SymbolContext) => boolean): SymbolContext | undefined {
  let best: SymbolContext | undefined;
  for (const ctx of walkSymbols(file)) {
    if (!rangeContains(ctx.symbol.range, pos)) continue;
    if (filter && !filter(ctx)) continue;
    if (!best || rangeContains(best.symbol.range, ctx.symbol.range)) best = ctx;
  }
  return best;
}

/** Innermost symbol containing a whole line (0-based). */
export function innermostContainingLine(file: FileContext, line0: number, filter?: (s: SymbolContext) => boolean): SymbolContext | undefined {
  let best: SymbolContext | undefined;
  for (const ctx of walkSymbols(file)) {
    const r = ctx.symbol.range;
    if (r.start.line > line0 || r.end.line < line0) continue;
    if (filter && !filter(ctx)) continue;
    if (!best || rangeContains(best.symbol.range, r)) best = ctx;
  }
  return best;
}

/** The symbol whose name (selectionRange) starts at `pos`. */
export function symbolAtSelection(file: FileContext, pos: Position): SymbolContext | undefined {
  for (const ctx of walkSymbols(file)) {
    if (comparePositions(ctx.symbol.selectionRange.start, pos) === 0) return ctx;
  }
  for (const ctx of walkSymbols(file)) if (rangeContains(ctx.symbol.selectionRange, pos)) return ctx;
  return undefined;
}
