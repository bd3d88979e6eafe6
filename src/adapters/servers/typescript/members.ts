/**
 * TypeScript members → FieldDescriptor / FunctionDescriptor, from the symbol's hover (types as
 * tsserver resolved them, JSDoc) and its source text (modifiers, defaults, optional marks).
 */
import type { DocumentSymbol, Range } from 'vscode-languageserver-protocol';
import { SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import type { FieldDescriptor, FunctionDescriptor, ParamDescriptor } from '../../../schema/descriptors.js';
import { collapseWhitespace } from '../../../util/whitespace.js';
import { rangeText, symbolLocation } from '../../generic.js';
import type { FileContext, SymbolContext } from '../../types.js';
import { stripComments } from '../../typescript/source-text.js';
import { parseTsMemberTail, parseTsModifiers, type TsModifier } from './declaration.js';
import { fromTsHover, parseTsMemberDisplay, type TsHover } from './hover.js';
import { parseTsCallable, type TsParameter } from './signature.js';

const CONTAINER_KINDS: number[] = [Lsp.Namespace, Lsp.Module, Lsp.Package];

/** Modifiers before the name; the range of a member may start at its JSDoc. */
export function modifiersOf(file: FileContext, symbol: DocumentSymbol): TsModifier[] {
  return parseTsModifiers(rangeText(file, { start: symbol.range.start, end: symbol.selectionRange.start }));
}

/** Source text after the name to the end of the declaration (capped). */
export function tailOf(file: FileContext, symbol: DocumentSymbol): string {
  return rangeText(file, { start: symbol.selectionRange.end, end: symbol.range.end }).slice(0, 4000);
}

/** Enclosing TS namespaces (`Geometry.Factory`), undefined at module level. */
export function tsNamespaceOf(ctx: SymbolContext): string | undefined {
  const ns = ctx.parents.filter((p) => CONTAINER_KINDS.includes(p.kind)).map((p) => p.name);
  return ns.length ? ns.join('.') : undefined;
}

export function isMemberOfType(ctx: SymbolContext): boolean {
  const owner = ctx.parents[ctx.parents.length - 1];
  return !!owner && [Lsp.Class, Lsp.Interface, Lsp.Enum, Lsp.Struct].includes(owner.kind as 5);
}

/** Visibility: explicit modifier, `#private`, class members public by default; module level: exported or not. */
export function visibilityOf(ctx: SymbolContext, mods: TsModifier[], exported: boolean): string {
  if (ctx.symbol.name.startsWith('#')) return 'private';
  for (const v of ['private', 'protected', 'public'] as const) if (mods.includes(v)) return v;
  if (isMemberOfType(ctx)) return 'public';
  return exported ? 'public' : 'private';
}

export async function tsHoverOf(file: FileContext, symbol: DocumentSymbol): Promise<TsHover | undefined> {
  const text = await file.hover(symbol.selectionRange.start);
  return text ? fromTsHover(text) : undefined;
}

export async function tsFieldDescriptor(ctx: SymbolContext): Promise<FieldDescriptor> {
  const { file, symbol } = ctx;
  const mods = modifiersOf(file, symbol);
  const hover = await tsHoverOf(file, symbol);
  const tail = parseTsMemberTail(tailOf(file, symbol));
  const f: FieldDescriptor = { name: symbol.name };
  const display = hover ? parseTsMemberDisplay(hover.display) : undefined;
  const type = display?.type ?? tail.type;
  if (type && symbol.kind !== Lsp.EnumMember) f.type = type;
  if (hover?.description) f.description = hover.description;
  f.visibility = visibilityOf(ctx, mods, true);
  if (mods.includes('static')) f.is_static = true;
  const getter = mods.includes('get') || hover?.declKind === 'getter';
  if (mods.includes('readonly') || (getter && !hasSetter(ctx))) f.is_readonly = true;
  if (tail.optional || display?.optional) f.optional = true;
  if (tail.initializer !== undefined && !getter) f.default = tail.initializer;
  f.location = symbolLocation(file, symbol.range);
  const tags: string[] = [];
  if (getter) tags.push('getter');
  if (symbol.name.startsWith('#')) tags.push('ecmascript-private');
  if (mods.includes('abstract')) tags.push('abstract');
  if (mods.includes('override')) tags.push('override');
  if (tags.length) f.tags = tags;
  return f;
}

function hasSetter(ctx: SymbolContext): boolean {
  const owner = ctx.parents[ctx.parents.length - 1];
  return (owner?.children ?? []).some((c) => c !== ctx.symbol && c.name === ctx.symbol.name && modifiersOf(ctx.file, c).includes('set'));
}

/** Same-named callable siblings of a function or method: overload signatures and implementation. */
export function overloadSiblings(ctx: SymbolContext): DocumentSymbol[] {
  const owner = ctx.parents[ctx.parents.length - 1];
  const siblings = owner ? (owner.children ?? []) : ctx.file.symbols;
  return siblings.filter((s) => s.name === ctx.symbol.name && s.kind === ctx.symbol.kind);
}

/** True when the declaration has a body (the implementation), false for an overload signature. */
function hasBody(file: FileContext, symbol: DocumentSymbol): boolean {
  // Not the text after the name: tsserver gives an implementation signature a selectionRange
  // covering the whole declaration.
  return stripComments(rangeText(file, symbol.range)).trimEnd().endsWith('}');
}

/**
 * The declaration text from its name on. Not "name + text after selectionRange": tsserver gives
 * constructors and overload implementations a selectionRange covering the whole declaration.
 */
function declarationFromName(file: FileContext, symbol: DocumentSymbol): string {
  const text = stripComments(rangeText(file, symbol.range)).slice(0, 4000);
  const at = new RegExp(`(^|[^\\w$#])${symbol.name.replace(/[$#]/g, '\\$&')}\\s*[<(]`).exec(text);
  return at ? text.slice(at.index + at[1]!.length) : symbol.name + tailOf(file, symbol);
}

/** Source signature of one declaration: `function scale(value: number, factor: number): number`. */
function sourceSignature(file: FileContext, symbol: DocumentSymbol): string {
  const text = stripComments(rangeText(file, symbol.range as Range)).replace(/^\s*(export\s+)?(declare\s+)?/, '');
  return collapseWhitespace(text)
    .replace(/\s*;$/, '')
    .replace(/\s*\{[\s\S]*$/, '');
}

export async function tsFunctionDescriptor(ctx: SymbolContext, language: string, exported: boolean): Promise<FunctionDescriptor> {
  const { file } = ctx;
  const decls = overloadSiblings(ctx);
  const symbol = decls[0] ?? ctx.symbol;
  const mods = modifiersOf(file, symbol);
  const hover = await tsHoverOf(file, symbol);
  const isCtor = symbol.kind === Lsp.Constructor;
  const getter = mods.includes('get') || mods.includes('set');
  const kind: FunctionDescriptor['kind'] = isCtor ? 'constructor' : getter ? 'accessor' : isMemberOfType(ctx) ? 'method' : 'function';
  const d: FunctionDescriptor = { language, kind, name: symbol.name };
  const ns = tsNamespaceOf(ctx);
  if (ns) d.namespace = ns;
  const owner = ctx.parents[ctx.parents.length - 1];
  if (owner && isMemberOfType(ctx)) d.receiver = owner.name;

  const fromHover = hover ? parseTsCallable(hover.display) : undefined;
  const fromSource = parseTsCallable(declarationFromName(file, symbol));
  const params = mergeParameters(fromHover?.parameters, fromSource?.parameters, hover?.params ?? {});
  const returnType = isCtor ? undefined : (fromHover?.returnType ?? fromSource?.returnType);
  // tsserver's constructor hover carries the class's type parameters (`constructor ZodError<T = any>(…)`):
  // a constructor has none of its own.
  const typeParameters = isCtor ? undefined : (fromSource?.typeParameters ?? fromHover?.typeParameters);
  d.signature = buildSignature(kind, symbol.name, mods, typeParameters, params, returnType);
  if (hover?.description) d.description = hover.description;
  const first = decls[0] ?? symbol;
  const last = decls[decls.length - 1] ?? symbol;
  d.location = symbolLocation(file, { start: first.range.start, end: last.range.end });
  if (params.length) d.parameters = params;
  if (returnType) d.returns = [hover?.returns ? { type: returnType, description: hover.returns } : { type: returnType }];
  d.visibility = visibilityOf(ctx, mods, exported);
  if (mods.includes('static')) d.is_static = true;
  if (mods.includes('abstract')) d.is_abstract = true;
  const tags: string[] = [];
  if (mods.includes('async')) tags.push('async');
  if (mods.includes('get')) tags.push('getter');
  if (mods.includes('set')) tags.push('setter');
  if (mods.includes('override')) tags.push('override');
  if (exported && !isMemberOfType(ctx)) tags.push('exported');
  if (tags.length) d.tags = tags;
  const metadata: Record<string, unknown> = {};
  if (typeParameters) metadata.type_parameters = typeParameters;
  const signatures = decls.length > 1 ? decls.filter((s) => !hasBody(file, s)) : [];
  if (signatures.length > 1 || (signatures.length === 1 && decls.length > 1)) {
    metadata.overloads = signatures.map((s) => sourceSignature(file, s));
  }
  if (Object.keys(metadata).length) d.metadata = metadata;
  return d;
}

/** Types from the hover (resolved), defaults and parameter-property modifiers from source, docs from @param. */
function mergeParameters(hover: TsParameter[] | undefined, source: TsParameter[] | undefined, docs: Record<string, string>): ParamDescriptor[] {
  const base = hover ?? source ?? [];
  return base.map((p, i) => {
    const src = source?.find((s) => s.name === p.name) ?? source?.[i];
    const out: ParamDescriptor = { name: p.name };
    const type = p.type ?? src?.type;
    if (type) out.type = type;
    if (src?.default !== undefined) out.default = src.default;
    if (p.optional || src?.optional) out.optional = true;
    if (p.variadic || src?.variadic) out.variadic = true;
    const doc = docs[p.name];
    if (doc) out.description = doc;
    return out;
  });
}

function buildSignature(
  kind: FunctionDescriptor['kind'],
  name: string,
  mods: TsModifier[],
  typeParameters: string | undefined,
  params: ParamDescriptor[],
  returnType: string | undefined,
): string {
  const shown = mods.filter((m) => m !== 'export' && m !== 'default' && m !== 'declare' && m !== 'public');
  const prefix = kind === 'function' ? [...shown.filter((m) => m === 'async'), 'function'] : shown;
  const list = params.map((p) => `${p.variadic ? '...' : ''}${p.name}${p.optional && !p.variadic ? '?' : ''}${p.type ? `: ${p.type}` : ''}`).join(', ');
  const head = [...prefix, `${kind === 'constructor' ? 'constructor' : name}${typeParameters ?? ''}(${list})`].join(' ');
  return returnType ? `${head}: ${returnType}` : head;
}
