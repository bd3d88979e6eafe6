/**
 * Stable symbol ids for documentSymbols: the catalog's id when it has the symbol (matched by name
 * position), else the same format built locally: `path::Qualified.name#kind`.
 */
import type { SymbolContext } from '../adapters/types.js';
import type { CatalogSymbol } from '../catalog/types.js';
import { fromLspPosition } from '../lsp/positions.js';
import type { ServiceCall } from './call.js';

const perCall = new WeakMap<ServiceCall, Map<string, Promise<Map<string, CatalogSymbol>>>>();

async function catalogIndex(call: ServiceCall, relPath: string): Promise<Map<string, CatalogSymbol>> {
  let files = perCall.get(call);
  if (!files) perCall.set(call, (files = new Map()));
  let idx = files.get(relPath);
  if (!idx) {
    idx = call.workspace.catalog.fileSymbols(relPath).then((list) => new Map(list.map((s) => [`${s.selection_line}:${s.selection_column}:${s.name}`, s])));
    files.set(relPath, idx);
  }
  return idx;
}

export async function symbolIdFor(call: ServiceCall, ctx: SymbolContext): Promise<string> {
  const { file, symbol } = ctx;
  const p = fromLspPosition(file.text, symbol.selectionRange.start, file.session.positionEncoding);
  const idx = await catalogIndex(call, file.relPath);
  const hit = idx.get(`${p.line}:${p.column}:${symbol.name}`);
  if (hit) return hit.symbol_id;
  const qualified = [...ctx.parents.map((x) => x.name), symbol.name].join('.');
  return `${file.relPath}::${qualified}#${call.adapter(file).symbolKind(ctx)}`;
}
