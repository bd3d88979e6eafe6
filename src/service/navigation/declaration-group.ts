/**
 * What one symbol id covers, for reads (get_symbol) and edits (symbol-range.ts) alike. A callable
 * declared several times in a row under one name — TypeScript overload signatures and their
 * implementation, Python `@overload` stubs and the def — is one declaration: each of its ids (the
 * catalog numbers them `name#method`, `name#method~2`, …) covers the whole group, so the text a read
 * gives back is the text an edit replaces. Only neighbours count: two same-named functions with other
 * code between them (an `if`/`else` defining one each) stay apart.
 */
import type { CatalogSymbol } from '../../core/catalog.js';

export interface DeclarationGroup {
  /** Bytes [start, end) of the whole group. */
  start: number;
  end: number;
  line: number;
  end_line: number;
  /** The group's declarations in file order (one for a symbol without overloads). */
  members: CatalogSymbol[];
}

/** Whether `s` may have overloads: callables only (a class and its namesake namespace stay apart). */
export function overloadable(s: CatalogSymbol): boolean {
  return s.kind === 'function' || s.kind === 'method' || s.kind === 'constructor';
}

/** Whitespace and comments only: what may separate two overloads of one group. */
function onlyTrivia(text: string): boolean {
  return !text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(\/\/|#)[^\n]*/g, '')
    .trim();
}

/** The overload group `sym` belongs to among its file's symbols (`bytes`: the file as cataloged). */
export function declarationGroup(sym: CatalogSymbol, fileSymbols: readonly CatalogSymbol[], bytes: Buffer): DeclarationGroup {
  const single = { start: sym.byte_offset, end: sym.byte_offset + sym.byte_length, line: sym.line, end_line: sym.end_line, members: [sym] };
  if (!overloadable(sym)) return single;
  const same = fileSymbols
    .filter((s) => s.symbol_id === sym.symbol_id || (s.qualified_name === sym.qualified_name && s.kind === sym.kind && s.parent === sym.parent))
    .sort((a, b) => a.byte_offset - b.byte_offset);
  let i = same.findIndex((s) => s.symbol_id === sym.symbol_id);
  if (i < 0) return single;
  const between = (a: CatalogSymbol, b: CatalogSymbol) => {
    const from = a.byte_offset + a.byte_length;
    return b.byte_offset <= from || onlyTrivia(bytes.subarray(from, b.byte_offset).toString('utf8'));
  };
  let j = i;
  while (i > 0 && between(same[i - 1]!, same[i]!)) i--;
  while (j < same.length - 1 && between(same[j]!, same[j + 1]!)) j++;
  const members = same.slice(i, j + 1);
  const start = Math.min(...members.map((s) => s.byte_offset));
  const end = Math.max(...members.map((s) => s.byte_offset + s.byte_length));
  return { start, end, line: Math.min(...members.map((s) => s.line)), end_line: Math.max(...members.map((s) => s.end_line)), members };
}

/** Kinds a caller must ask for by `kind` to get them from a line that also names a declaration. */
const INNER = new Set(['variable', 'parameter', 'field', 'property', 'constant']);

/**
 * The declaration `file` + `line` (+ `column`, + `kind`) names, for get_symbol and every symbol edit
 * alike: at a column, the one whose name starts there; else the outermost declared on the line (the
 * method, not its parameters, which PHP and Python servers list as children on the same line,
 * unless `kind` asks for those); else the innermost one whose lines hold the line.
 */
export function declarationAt(symbols: readonly CatalogSymbol[], line: number, column?: number, kind?: string): CatalogSymbol | undefined {
  const fits = symbols.filter((s) => !kind || s.kind === kind);
  if (column !== undefined) {
    const named = fits.find((s) => s.selection_line === line && column >= s.selection_column && column < s.selection_column + s.name.length);
    if (named) return named;
  }
  const onLine = fits.filter((s) => s.selection_line === line).sort((a, b) => b.byte_length - a.byte_length);
  const named = onLine.find((s) => kind || !INNER.has(s.kind)) ?? onLine[0];
  if (named) return named;
  return fits.filter((s) => s.line <= line && line <= s.end_line).sort((a, b) => a.byte_length - b.byte_length)[0];
}
