/**
 * The declarations the whole-workspace analyses check one by one (find_dead_code, coverage_report's
 * reference coverage): top-level functions and classes and the methods of top-level types, and the
 * references the server finds to one of them outside its own declaration (uses inside its own body —
 * recursion — do not count).
 */
import { ReferencesRequest } from 'vscode-languageserver-protocol';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../../service/call.js';
import { resolveLocations, type LineSource, type ResolvedLocation } from '../../service/locations.js';

const KINDS = new Set(['function', 'method', 'class']);
const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'type']);

/** Top-level functions and classes, and methods of top-level types, in catalog order. */
export function checkedDeclarations(all: CatalogSymbol[]): CatalogSymbol[] {
  const byId = new Map(all.map((s) => [s.symbol_id, s]));
  return all.filter((s) => {
    if (!KINDS.has(s.kind)) return false;
    if (!s.parent) return true;
    const parent = byId.get(s.parent);
    return parent !== undefined && TYPE_KINDS.has(parent.kind) && !parent.parent;
  });
}

/** textDocument/references of the symbol, without the declaration and the uses inside its own range. */
export async function outsideReferences(call: ServiceCall, src: LineSource, s: CatalogSymbol): Promise<ResolvedLocation[]> {
  const file = await call.file(call.resolvePath(s.file));
  const position = toLspPosition(file.text, s.selection_line, s.selection_column, file.session.positionEncoding);
  const refs = await file.session.request(ReferencesRequest.type, { textDocument: { uri: file.uri }, position, context: { includeDeclaration: false } }, { signal: call.signal });
  // The declaration itself (some servers list it anyway) and recursion inside its own body.
  return resolveLocations(call, src, file.session, refs ?? []).filter((loc) => !(loc.file === s.file && loc.line >= s.line && loc.line <= s.end_line));
}
