/**
 * find_type_definition, get_function_details, get_file_outline: a name (or file) → the adapter's
 * descriptors.
 */
import { firstSentence } from '../../adapters/doc-text.js';
import type { FileContext, SymbolContext } from '../../adapters/types.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { FUNCTION_KINDS, TYPE_KINDS } from '../../schema/convert/lsp-kind.js';
import type { ClassDescriptor, FunctionDescriptor, OutlineSymbol, SymbolDescriptor } from '../../schema/descriptors.js';
import { deepFreeze } from '../../util/freeze.js';
import { toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { hasSyntaxTier } from '../cataloging/syntax-entry.js';
import { filterOf, fromCatalogSymbol, lookupOne } from '../navigation/resolve.js';
import { catalogFileSymbols, symbolIdFor } from '../symbol-ids.js';
import { walkSymbols } from '../symbols.js';
import { catalogOutline, CONTAINER_KINDS, type FileOutline, SERVERLESS, serverMayAnswer } from './catalog-outline.js';
import { outlinesOf } from './outline-memo.js';

export interface NameInput {
  package?: string | undefined;
  namespace?: string | undefined;
  kind?: string | undefined;
  language?: string | undefined;
  class_name?: string | undefined;
  strict?: boolean | undefined;
}

async function contextOf(call: ServiceCall, sym: CatalogSymbol): Promise<SymbolContext> {
  const t = await fromCatalogSymbol(call, sym);
  if (!t.symbol) {
    throw new LspgateError(
      'SYMBOL_NOT_FOUND',
      `${sym.qualified_name} is in the catalog but not in the server's symbols of ${sym.file} (the file changed?); run refresh`,
      {
        symbol_id: sym.symbol_id,
      },
    );
  }
  call.meta.addSourceFile(t.file.absPath);
  return t.symbol;
}

/** One symbol named by `name` or by `symbol_id` (exactly one of them), of the accepted kinds. */
async function named(
  call: ServiceCall,
  field: string,
  name: string | undefined,
  symbolId: string | undefined,
  input: NameInput,
  kinds: readonly string[],
): Promise<CatalogSymbol> {
  if ((name === undefined) === (symbolId === undefined)) {
    throw new LspgateError('INVALID_INPUT', `give exactly one of ${field} and symbol_id`, { [field]: name, symbol_id: symbolId });
  }
  const fit = kinds === TYPE_KINDS ? 'type' : 'callable';
  if (name !== undefined) return lookupOne(call, name, filterOf(input), (s) => kinds.includes(s.kind), { fit, strict: input.strict });
  const sym = await call.workspace.catalog.byId(symbolId!);
  if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no symbol with id ${symbolId}`, { symbol_id: symbolId });
  if (!kinds.includes(sym.kind)) {
    throw new LspgateError('INVALID_INPUT', `${symbolId} is a ${sym.kind}, not one of ${kinds.join(', ')}`, { symbol_id: symbolId, kind: sym.kind });
  }
  return sym;
}

export async function typeDefinition(
  call: ServiceCall,
  input: NameInput & { type_name?: string | undefined; symbol_id?: string | undefined },
): Promise<ClassDescriptor & { symbol_id: string }> {
  const sym = await named(call, 'type_name', input.type_name, input.symbol_id, input, TYPE_KINDS);
  const ctx = await contextOf(call, sym);
  const d = await call.adapter(ctx.file).classDescriptor(ctx);
  return { ...d, symbol_id: sym.symbol_id };
}

export async function functionDetails(
  call: ServiceCall,
  input: NameInput & { function_name?: string | undefined; symbol_id?: string | undefined; include_code?: boolean | undefined },
): Promise<FunctionDescriptor & { symbol_id: string }> {
  const sym = await named(call, 'function_name', input.function_name, input.symbol_id, input, FUNCTION_KINDS);
  const ctx = await contextOf(call, sym);
  const d = await call.adapter(ctx.file).functionDescriptor(ctx);
  if (input.include_code && d.location?.start_line && d.location.end_line) {
    d.code = ctx.file.lines.slice(d.location.start_line - 1, d.location.end_line).join('\n');
  }
  return { ...d, symbol_id: sym.symbol_id };
}

export type { FileOutline };

export async function fileOutline(call: ServiceCall, fileInput: string): Promise<FileOutline> {
  const abs = call.resolvePath(fileInput, { expect: 'file' });
  const rel = toRelative(call.root, abs);
  const syntax = hasSyntaxTier(rel);
  // while the file's server loads, or where it has none, the catalog's entry answers (syntax tier)
  if (syntax && !serverMayAnswer(call, abs)) return catalogOutline(call, rel);
  try {
    return await serverOutline(call, abs);
  } catch (e) {
    if (!syntax || !(e instanceof LspgateError) || !SERVERLESS.has(e.code)) throw e;
    return catalogOutline(call, rel, `${e.code}: ${e.message}`);
  }
}

async function serverOutline(call: ServiceCall, abs: string): Promise<FileOutline> {
  const file = await call.file(abs);
  call.meta.addSourceFile(abs);
  const adapter = call.adapter(file);
  // A file model shared by every call (the frozen list of a cached answer) keeps its full outline
  // (outline-memo.ts): building descriptors was ~40% of a warm outline's CPU.
  const shared = Object.isFrozen(file.symbols) && file.symbols.length > 0;
  const cataloged = shared ? await catalogFileSymbols(call, file.relPath) : undefined;
  const adapterName = file.session.entry.adapter;
  const memo = shared ? outlinesOf(call.workspace) : undefined;
  let roots = memo?.get(file.relPath, file.symbols, adapterName, cataloged);
  if (!roots) {
    roots = await outlineRoots(call, file);
    memo?.set(file.relPath, { symbols: file.symbols, adapter: adapterName, cataloged, roots: deepFreeze(roots) });
  }
  const pkg = adapter.packageOf(file);
  return {
    file: file.relPath,
    language: file.language,
    ...(pkg.package ? { package: pkg.package } : {}),
    ...(pkg.namespace ? { namespace: pkg.namespace } : {}),
    symbols: roots,
  };
}

async function outlineRoots(call: ServiceCall, file: FileContext): Promise<OutlineSymbol[]> {
  const adapter = call.adapter(file);
  const nodes = new Map<unknown, OutlineSymbol>();
  const roots: OutlineSymbol[] = [];
  for (const ctx of walkSymbols(file)) {
    const parent = ctx.parents[ctx.parents.length - 1];
    if (parent && !nodes.has(parent)) continue; // parent was left out
    const kind = adapter.symbolKind(ctx);
    if (parent && !CONTAINER_KINDS.has(nodes.get(parent)!.kind)) continue; // locals of a body
    const node = outlineNode(adapter.symbolDescriptor(ctx), await symbolIdFor(call, ctx));
    node.kind = kind;
    nodes.set(ctx.symbol, node);
    if (parent) {
      const p = nodes.get(parent)!;
      (p.children ??= []).push(node);
    } else roots.push(node);
  }
  return roots;
}

function outlineNode(d: SymbolDescriptor, symbol_id: string): OutlineSymbol {
  const { language: _l, package: _p, namespace: _n, location, description, ...rest } = d;
  const node: OutlineSymbol = { ...rest, symbol_id };
  const summary = description ? firstSentence(description) : undefined;
  if (summary) node.description = summary;
  if (location) {
    node.location = {
      ...(location.start_line !== undefined ? { start_line: location.start_line } : {}),
      ...(location.end_line !== undefined ? { end_line: location.end_line } : {}),
    };
  }
  return node;
}
