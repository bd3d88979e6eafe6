/**
 * The declarations the whole-workspace analyses check one by one (find_dead_code, coverage_report's
 * reference coverage): top-level functions and classes and the methods of top-level types, and the
 * references the server finds to one of them outside its own declaration (uses inside its own body —
 * recursion — do not count), nor the declarations of related methods some servers list among them.
 */
import { ReferencesRequest } from 'vscode-languageserver-protocol';

import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../../service/call.js';
import { type LineSource, type ResolvedLocation, resolveLocations } from '../../service/locations.js';

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

/**
 * textDocument/references of the symbol, without the declaration, the uses inside its own range and
 * the names of other method declarations.
 */
export async function outsideReferences(call: ServiceCall, src: LineSource, s: CatalogSymbol): Promise<ResolvedLocation[]> {
  const file = await call.file(call.resolvePath(s.file));
  const position = toLspPosition(file.text, s.selection_line, s.selection_column, file.session.positionEncoding);
  const refs = await file.session.request(
    ReferencesRequest.type,
    { textDocument: { uri: file.uri }, position, context: { includeDeclaration: false } },
    { signal: call.signal },
  );
  // The declaration itself (some servers list it anyway) and recursion inside its own body.
  const outside = resolveLocations(call, src, file.session, refs ?? []).filter((loc) => !(loc.file === s.file && loc.line >= s.line && loc.line <= s.end_line));
  const out: ResolvedLocation[] = [];
  for (const loc of outside) if (!(await atMethodDeclaration(call, loc))) out.push(loc);
  return out;
}

/**
 * Whether a reference is the name of a workspace method's declaration. tsserver lists the
 * declarations of the methods a method overrides, implements or is overridden by among its
 * references (includeDeclaration: false drops only its own): a declaration uses nothing, and
 * counting it would keep a base and its override alive through each other when nothing calls either.
 */
async function atMethodDeclaration(call: ServiceCall, loc: ResolvedLocation): Promise<boolean> {
  if (loc.external) return false;
  const symbols = await call.workspace.catalog.fileSymbols(loc.file);
  return symbols.some((d) => d.kind === 'method' && d.selection_line === loc.line && d.selection_column === loc.column);
}
