/**
 * Symbol ids for documentSymbols. One source of ids: the catalog's (`path::Qualified.name#kind`,
 * src/catalog/flatten.ts). A symbol is matched to the catalog's entry by the position of its name,
 * not by its name: servers name symbols differently from the catalog (gopls's top-level
 * `(*Router).Dispatch` is the catalog's `Router.Dispatch`). Files the catalog does not hold (left
 * out by the walk's limits) get their ids from the catalog's own flattening of the same answer.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import type { SymbolContext } from '../adapters/types.js';
import type { CatalogSymbol } from '../core/catalog.js';
import { LspgateError } from '../errors/errors.js';
import { fromLspPosition } from '../lsp/positions.js';
import { SourceText } from '../lsp/source-text.js';
import type { ServiceCall } from './call.js';
import { flattenSymbols } from './cataloging/catalog-entry.js';

type ById = Map<string, CatalogSymbol[]>;
const perCall = new WeakMap<ServiceCall, Map<string, Promise<ById>>>();

/** Per catalog entry's symbol list (a new list when the file is cataloged again): its index by position. */
const indexes = new WeakMap<CatalogSymbol[], ById>();

function byPosition(list: CatalogSymbol[]): ById {
  const idx: ById = new Map();
  for (const s of list) {
    const key = `${s.selection_line}:${s.selection_column}`;
    idx.set(key, [...(idx.get(key) ?? []), s]);
  }
  return idx;
}

const symbolsPerCall = new WeakMap<ServiceCall, Map<string, Promise<CatalogSymbol[] | undefined>>>();

/** Why the catalog does not hold a file: then ids and containers come from elsewhere, not an error. */
const NOT_CATALOGED = new Set(['LIMIT_EXCEEDED', 'UNSUPPORTED_LANGUAGE']);

/**
 * The catalog's symbols of a workspace file (fresh: the catalog re-asks a changed file), once per
 * call; undefined when the catalog does not hold it (over maxFileBytes, no server for it).
 */
export function catalogFileSymbols(call: ServiceCall, relPath: string): Promise<CatalogSymbol[] | undefined> {
  let files = symbolsPerCall.get(call);
  if (!files) symbolsPerCall.set(call, (files = new Map()));
  let list = files.get(relPath);
  if (!list) {
    list = call.workspace.catalog.fileSymbols(relPath).catch((e: unknown) => {
      if (!(e instanceof LspgateError) || !NOT_CATALOGED.has(e.code)) throw e;
      call.meta.warn(`${relPath} is not cataloged (${e.code}): no symbol ids or containers there`);
      return undefined;
    });
    files.set(relPath, list);
  }
  return list;
}

async function catalogIndex(call: ServiceCall, relPath: string): Promise<ById> {
  let files = perCall.get(call);
  if (!files) perCall.set(call, (files = new Map()));
  let idx = files.get(relPath);
  if (!idx) {
    idx = catalogFileSymbols(call, relPath).then((list) => {
      if (!list) return new Map();
      let known = indexes.get(list);
      if (!known) indexes.set(list, (known = byPosition(list)));
      return known;
    });
    files.set(relPath, idx);
  }
  return idx;
}

/**
 * The qualified name of the innermost symbol of a cataloged file whose lines hold a position (1-based),
 * other than a symbol declared exactly there. From the catalog, not documentSymbol: a reference
 * list spans many files, and opening each in the server to ask its symbols again cost seconds
 * per large file on a real repository.
 */
export function containerIn(symbols: CatalogSymbol[], line: number, column: number): string | undefined {
  let best: CatalogSymbol | undefined;
  for (const s of symbols) {
    if (s.line > line || s.end_line < line) continue;
    if (s.selection_line === line && s.selection_column === column) continue;
    if (!best || s.byte_length < best.byte_length) best = s;
  }
  return best?.qualified_name;
}

/** The catalog id of the symbol whose name starts at a 1-based position of a workspace file, if any. */
export async function catalogIdAt(call: ServiceCall, relPath: string, line: number, column: number, name: string): Promise<string | undefined> {
  return (await catalogSymbolAt(call, relPath, line, column, name))?.symbol_id;
}

/** The catalog's symbol whose name starts at a 1-based position of a workspace file, if any. */
export async function catalogSymbolAt(call: ServiceCall, relPath: string, line: number, column: number, name: string): Promise<CatalogSymbol | undefined> {
  return pick((await catalogIndex(call, relPath)).get(`${line}:${column}`), { name });
}

/** Among catalog symbols whose name starts at the same place, the one that is this symbol. */
function pick(candidates: CatalogSymbol[] | undefined, symbol: Pick<DocumentSymbol, 'name'>): CatalogSymbol | undefined {
  if (!candidates?.length) return undefined;
  if (candidates.length === 1) return candidates[0];
  return candidates.find((c) => c.name === symbol.name) ?? candidates.find((c) => symbol.name.endsWith(`.${c.name}`));
}

/** The catalog's entry for a documentSymbol of a file, when the catalog holds the file. */
export async function catalogSymbolFor(call: ServiceCall, ctx: SymbolContext): Promise<CatalogSymbol | undefined> {
  const { file, symbol } = ctx;
  const p = fromLspPosition(file.text, symbol.selectionRange.start, file.session.positionEncoding);
  return pick((await catalogIndex(call, file.relPath)).get(`${p.line}:${p.column}`), symbol);
}

export async function symbolIdFor(call: ServiceCall, ctx: SymbolContext): Promise<string> {
  const hit = await catalogSymbolFor(call, ctx);
  if (hit) return hit.symbol_id;
  return localIdFor(call, ctx);
}

/** The id the catalog would give: its flattening of this file's answer, matched by position. */
function localIdFor(call: ServiceCall, ctx: SymbolContext): string {
  const { file, symbol } = ctx;
  const adapter = call.adapter(file);
  const flat = flattenSymbols({
    file: file.relPath,
    language: file.language,
    server: file.session.serverId,
    encoding: file.session.positionEncoding,
    source: new SourceText(Buffer.from(file.text, 'utf8')),
    symbols: file.symbols,
    kindOf: (s, parents) => adapter.symbolKind({ file, symbol: s, parents }),
  });
  const p = fromLspPosition(file.text, symbol.selectionRange.start, file.session.positionEncoding);
  const hit = pick(byPosition(flat).get(`${p.line}:${p.column}`), symbol);
  if (hit) return hit.symbol_id;
  const qualified = [...ctx.parents.map((x) => x.name), symbol.name].join('.');
  return `${file.relPath}::${qualified}#${adapter.symbolKind(ctx)}`;
}
