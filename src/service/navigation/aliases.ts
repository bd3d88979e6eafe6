/**
 * Candidates of a name that are only another candidate under a namespace: `export const describe =
 * core.describe;` (zod re-exports its core functions this way), Python's `name = module.name`. Such
 * an alias is the same function as what it names: listed beside it, it turns one declaration into
 * a tie and pushes the real one down an AMBIGUOUS_SYMBOL list. The alias is dropped only when the
 * server's definition of its right-hand side is the other candidate's declaration.
 */
import { DefinitionRequest } from 'vscode-languageserver-protocol';

import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../call.js';
import { LineSource, resolveLocations, toLocations } from '../locations.js';

/** `NAME = qualifier.NAME` (with `export const` / `let` / `var` and a type annotation in TS/JS): the 1-based column of the last NAME. */
function aliasColumn(sym: CatalogSymbol, lineText: string): number | undefined {
  const name = sym.name.replace(/[$]/g, '\\$');
  const m = new RegExp(`^(\\s*(?:export\\s+)?(?:(?:const|let|var)\\s+)?${name}\\s*(?::[^=]+)?=\\s*[\\w$]+(?:\\.[\\w$]+)*\\.)${name}\\s*;?\\s*$`).exec(lineText);
  return m ? m[1]!.length + 1 : undefined;
}

/** The candidates without those that alias another of them (order kept). */
export async function withoutAliases<T extends { symbol: CatalogSymbol }>(call: ServiceCall, ranked: T[]): Promise<T[]> {
  if (ranked.length < 2) return ranked;
  const decls = new Set(ranked.map((c) => `${c.symbol.file}:${c.symbol.selection_line}`));
  const out: T[] = [];
  for (const c of ranked) {
    if (!(await aliasOfAnother(call, c.symbol, decls))) out.push(c);
  }
  return out.length ? out : ranked;
}

async function aliasOfAnother(call: ServiceCall, sym: CatalogSymbol, decls: Set<string>): Promise<boolean> {
  // the catalog's signature first: most candidates are no alias, and loading their file costs requests
  if ((sym.kind !== 'constant' && sym.kind !== 'variable') || aliasColumn(sym, sym.signature) === undefined) return false;
  const file = await call.file(call.resolvePath(sym.file, { expect: 'file' }));
  const column = aliasColumn(sym, file.lines[sym.selection_line - 1] ?? '');
  if (column === undefined) return false;
  const position = toLspPosition(file.text, sym.selection_line, column, file.session.positionEncoding);
  const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position }, { signal: call.signal });
  return resolveLocations(call, new LineSource(call), file.session, toLocations(answer)).some(
    (l) => !l.external && l.file !== sym.file && decls.has(`${l.file}:${l.line}`),
  );
}
