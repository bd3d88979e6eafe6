/**
 * The adapter for any server without one of its own: descriptors from documentSymbol (names,
 * kinds, ranges, `detail`) and hover (first code block as the signature, the prose as the
 * description). The helpers exported here are shared by the language adapters.
 */
import type { DocumentSymbol, Range } from 'vscode-languageserver-protocol';

import { splitHoverMarkdown } from '../schema/convert/hover-text.js';
import { FIELD_KINDS, fromLspSymbolKind, FUNCTION_KINDS } from '../schema/convert/lsp-kind.js';
import type { ClassDescriptor, FieldDescriptor, FunctionDescriptor, SymbolDescriptor, SymbolKind, SymbolLocation } from '../schema/descriptors.js';
import { collapseWhitespace } from '../util/whitespace.js';
import { languageOfId } from './languages.js';
import type { FileContext, LanguageAdapter, PackageInfo, SymbolContext } from './types.js';

/** 1-based location of a range in a file, workspace-relative. */
export function symbolLocation(file: FileContext, range: Range): SymbolLocation {
  return { file_path: file.relPath, uri: file.uri, start_line: range.start.line + 1, end_line: range.end.line + 1 };
}

/** The source text covered by a range (lines are the synced text's). */
export function rangeText(file: FileContext, range: Range): string {
  const { start, end } = range;
  if (start.line === end.line) return (file.lines[start.line] ?? '').slice(start.character, end.character);
  const parts = [(file.lines[start.line] ?? '').slice(start.character)];
  for (let l = start.line + 1; l < end.line; l++) parts.push(file.lines[l] ?? '');
  parts.push((file.lines[end.line] ?? '').slice(0, end.character));
  return parts.join('\n');
}

/** The declaration's first source line at its name, trimmed (a signature of last resort). */
export function sourceLineAt(file: FileContext, symbol: DocumentSymbol): string {
  return collapseWhitespace(file.lines[symbol.selectionRange.start.line] ?? '')
    .replace(/\s*\{$/, '')
    .slice(0, 200);
}

/** Qualified name from the enclosing symbols: `Outer.Inner.name`. */
export function qualifiedName(ctx: SymbolContext): string {
  return [...ctx.parents.map((p) => p.name), ctx.symbol.name].join('.');
}

export function childContexts(ctx: SymbolContext): SymbolContext[] {
  return (ctx.symbol.children ?? []).map((c) => ({ file: ctx.file, symbol: c, parents: [...ctx.parents, ctx.symbol] }));
}

/** Signature + description from a hover: the first code block and the prose after it. */
export async function hoverSummary(ctx: SymbolContext): Promise<{ signature?: string; description?: string }> {
  const text = await ctx.file.hover(ctx.symbol.selectionRange.start);
  if (!text) return {};
  const { code, prose } = splitHoverMarkdown(text);
  const out: { signature?: string; description?: string } = {};
  if (code[0]) out.signature = collapseWhitespace(code[0]);
  else if (prose) out.signature = collapseWhitespace(prose.split('\n')[0]!);
  if (code[0] && prose) out.description = prose;
  return out;
}

function classKindOf(kind: SymbolKind): ClassDescriptor['kind'] {
  switch (kind) {
    case 'class':
    case 'interface':
    case 'trait':
    case 'struct':
    case 'enum':
      return kind;
    default:
      return 'type';
  }
}

function functionKindOf(kind: SymbolKind): FunctionDescriptor['kind'] {
  return kind === 'constructor' ? 'constructor' : kind === 'method' ? 'method' : 'function';
}

export const genericAdapter: LanguageAdapter = {
  name: 'generic',
  // whatever language the server names: a languageId a profile lists is that profile's language
  languages: [],
  language: languageOfId,
  packageOf(): PackageInfo {
    return {};
  },
  symbolKind(ctx) {
    return fromLspSymbolKind(ctx.symbol.kind);
  },
  symbolDescriptor(ctx): SymbolDescriptor {
    const kind = this.symbolKind(ctx);
    const pkg = this.packageOf(ctx.file);
    const d: SymbolDescriptor = { language: ctx.file.language, kind, name: ctx.symbol.name };
    if (pkg.namespace) d.namespace = pkg.namespace;
    if (pkg.package) d.package = pkg.package;
    d.signature = ctx.symbol.detail ? `${ctx.symbol.name} ${ctx.symbol.detail}`.trim() : sourceLineAt(ctx.file, ctx.symbol);
    d.location = symbolLocation(ctx.file, ctx.symbol.range);
    return d;
  },
  async classDescriptor(ctx): Promise<ClassDescriptor> {
    const summary = await hoverSummary(ctx);
    const d: ClassDescriptor = { language: ctx.file.language, kind: classKindOf(this.symbolKind(ctx)), name: ctx.symbol.name };
    const pkg = this.packageOf(ctx.file);
    if (pkg.namespace) d.namespace = pkg.namespace;
    if (pkg.package) d.package = pkg.package;
    d.full_name = qualifiedName(ctx);
    d.signature = summary.signature ?? sourceLineAt(ctx.file, ctx.symbol);
    if (summary.description) d.description = summary.description;
    d.location = symbolLocation(ctx.file, ctx.symbol.range);
    const fields: FieldDescriptor[] = [];
    const methods: FunctionDescriptor[] = [];
    for (const child of childContexts(ctx)) {
      const kind = this.symbolKind(child);
      if (FUNCTION_KINDS.includes(kind)) methods.push(await this.functionDescriptor(child));
      else if (FIELD_KINDS.includes(kind)) {
        const f: FieldDescriptor = { name: child.symbol.name, location: symbolLocation(ctx.file, child.symbol.range) };
        if (child.symbol.detail) f.type = child.symbol.detail;
        fields.push(f);
      }
    }
    if (fields.length) d.fields = fields;
    if (methods.length) d.methods = methods;
    return d;
  },
  async functionDescriptor(ctx): Promise<FunctionDescriptor> {
    const summary = await hoverSummary(ctx);
    const kind = functionKindOf(this.symbolKind(ctx));
    const d: FunctionDescriptor = { language: ctx.file.language, kind, name: ctx.symbol.name };
    const owner = ctx.parents[ctx.parents.length - 1];
    if (owner && kind !== 'function') d.receiver = owner.name;
    d.signature = summary.signature ?? sourceLineAt(ctx.file, ctx.symbol);
    if (summary.description) d.description = summary.description;
    d.location = symbolLocation(ctx.file, ctx.symbol.range);
    return d;
  },
  isExported(ctx) {
    return ctx.parents.length === 0;
  },
};
