/**
 * typescript-language-server / tsserver (and tsgo): descriptors from documentSymbol + hover + the
 * declaration's source text. A TS "package" is a module path relative to the workspace root
 * without extension (`src/util/strings`); namespaces are TS `namespace` blocks (`Geometry.Factory`);
 * full names follow tsserver's fully-qualified form with a relative module: `"src/models/user".User`.
 */
import { DefinitionRequest, type DocumentSymbol, type Position, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { toLspPosition } from '../../../lsp/positions.js';
import type { ClassDescriptor, FieldDescriptor, FunctionDescriptor, RelationDescriptor, SymbolDescriptor, SymbolKind } from '../../../schema/descriptors.js';
import { collapseWhitespace } from '../../../util/whitespace.js';
import { type TypeHeader, typeHeaderOf } from '../../file-structure.js';
import { childContexts, genericAdapter, qualifiedName, rangeText, symbolLocation } from '../../generic.js';
import { languageProfile } from '../../languages.js';
import type { FileContext, LanguageAdapter, PackageInfo, SymbolContext } from '../../types.js';
import { tsDescriptorKind } from '../../typescript/kinds.js';
import { tsModulePath } from '../../typescript/module-path.js';
import { javascriptProfile, typescriptProfile } from '../../typescript/profile.js';
import { stripComments } from '../../typescript/source-text.js';
import { tsDeclarationHeader } from './declaration.js';
import { tsNameProblem } from './identifier.js';
import { withoutImportBindings } from './imports.js';
import { modifiersOf, overloadSiblings, tsFieldDescriptor, tsFunctionDescriptor, tsHoverOf, tsNamespaceOf } from './members.js';
import { tsServerDiagnostics } from './tsserver-diagnostics.js';
import { tsServerProjectFiles } from './tsserver-project.js';

export { tsModulePath };

function tsSymbolKind(ctx: SymbolContext): SymbolKind {
  const { symbol, file } = ctx;
  // TypeScript 7's server: `const` as Variable, `type X =` as Class — the kinds tsserver gives.
  return tsDescriptorKind(symbol.kind, (file.lines[symbol.selectionRange.start.line] ?? '').slice(0, symbol.selectionRange.start.character));
}

function isTsExported(ctx: SymbolContext): boolean {
  const parent = ctx.parents[ctx.parents.length - 1];
  if (parent && ![Lsp.Namespace, Lsp.Module].includes(parent.kind as 2)) return false;
  if (modifiersOf(ctx.file, ctx.symbol).includes('export')) return true;
  if (ctx.parents.length === 0) {
    const line = ctx.file.lines[ctx.symbol.range.start.line] ?? '';
    if (/^\s*export\b/.test(line)) return true;
    // `export { a, b as c }` lists (no `from`) export local declarations
    return ctx.file.structure()?.exported.includes(ctx.symbol.name) ?? false;
  }
  return false;
}

function fullNameOf(file: FileContext, qualified: string): string {
  return `"${tsModulePath(file.relPath)}".${qualified}`;
}

function classKindOf(ctx: SymbolContext): ClassDescriptor['kind'] {
  switch (tsSymbolKind(ctx)) {
    case 'class':
      return 'class';
    case 'interface':
      return 'interface';
    case 'enum':
      return 'enum';
    default:
      return 'type';
  }
}

/**
 * extends / implements as the declaration's parse tree has them (type-relations' header hook),
 * each resolved to a full name by definition at the base's name when inside the workspace.
 */
async function relationsOf(ctx: SymbolContext, header: TypeHeader | undefined): Promise<{ relations: RelationDescriptor[]; typeParameters?: string }> {
  const relations: RelationDescriptor[] = [];
  for (const b of header?.bases ?? []) {
    const rel: RelationDescriptor = { type: b.relation === 'implements' ? 'implements' : 'extends', target: b.text };
    const full = await resolveFullName(ctx.file, toLspPosition(ctx.file.text, b.at.line, b.at.column, ctx.file.session.positionEncoding));
    if (full) rel.target_full_name = full;
    relations.push(rel);
  }
  const out: { relations: RelationDescriptor[]; typeParameters?: string } = { relations };
  if (header?.type_parameters) out.typeParameters = header.type_parameters;
  return out;
}

async function resolveFullName(file: FileContext, pos: Position): Promise<string | undefined> {
  const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position: pos });
  const list = answer ? (Array.isArray(answer) ? answer : [answer]) : [];
  const first = list[0];
  if (!first) return undefined;
  const uri = 'targetUri' in first ? first.targetUri : first.uri;
  const range = 'targetUri' in first ? first.targetSelectionRange : first.range;
  const where = file.locate(uri);
  if (where.where !== 'inside') return undefined;
  const target = where.abs === file.absPath ? file : await file.loadFile(where.abs);
  const path = findPath(target.symbols, range.start, []);
  if (!path) return `"${tsModulePath(where.file)}"`;
  return fullNameOf(target, path.map((s) => s.name).join('.'));
}

function findPath(nodes: DocumentSymbol[], pos: Position, parents: DocumentSymbol[]): DocumentSymbol[] | undefined {
  for (const s of nodes) {
    const sel = s.selectionRange.start;
    if (sel.line === pos.line && sel.character === pos.character) return [...parents, s];
    const inner = s.children?.length ? findPath(s.children, pos, [...parents, s]) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/**
 * A type's header from its parse tree (class, interface, enum, namespace: up to the body); a type
 * alias is its whole text; any other declaration its text up to a body or initialiser object.
 */
function declarationSignature(ctx: SymbolContext, header = typeHeaderOf(ctx.file, ctx.symbol)): string {
  const text = rangeText(ctx.file, ctx.symbol.range).slice(0, 4000);
  if (tsSymbolKind(ctx) === 'type') return collapseWhitespace(stripComments(text)).replace(/;$/, '').slice(0, 500);
  return (header?.header ?? tsDeclarationHeader(text)).slice(0, 500);
}

export const typescriptAdapter: LanguageAdapter = {
  ...genericAdapter,
  name: 'typescript',
  languages: [typescriptProfile, javascriptProfile],
  newNameProblem: tsNameProblem,
  requestDiagnostics: tsServerDiagnostics,
  projectFiles: tsServerProjectFiles,
  writeAccess: 'lexical',
  language(languageId) {
    return languageProfile(languageId) === javascriptProfile ? javascriptProfile.name : typescriptProfile.name;
  },
  packageOf(file): PackageInfo {
    return { package: tsModulePath(file.relPath) };
  },
  symbolKind: tsSymbolKind,
  declarations: withoutImportBindings,
  isExported: isTsExported,
  symbolDescriptor(ctx): SymbolDescriptor {
    const kind = tsSymbolKind(ctx);
    const d: SymbolDescriptor = { language: ctx.file.language, kind, name: ctx.symbol.name };
    const ns = tsNamespaceOf(ctx);
    if (ns) d.namespace = ns;
    d.package = tsModulePath(ctx.file.relPath);
    d.signature = ['function', 'method', 'constructor'].includes(kind)
      ? collapseWhitespace(stripComments(rangeText(ctx.file, ctx.symbol.range)))
          .replace(/^export\s+/, '')
          .replace(/\s*\{[\s\S]*$/, '')
          .replace(/;$/, '')
          .replace(/\(\s+/g, '(')
          .replace(/,?\s+\)/g, ')')
          .slice(0, 300)
      : declarationSignature(ctx).replace(/^export\s+/, '');
    d.location = symbolLocation(ctx.file, ctx.symbol.range);
    const tags: string[] = [];
    if (isTsExported(ctx)) tags.push('exported');
    if (overloadSiblings(ctx).length > 1 && ['function', 'method'].includes(kind)) tags.push('overloaded');
    if (tags.length) d.tags = tags;
    return d;
  },
  async classDescriptor(ctx): Promise<ClassDescriptor> {
    const { file, symbol } = ctx;
    const d: ClassDescriptor = { language: file.language, kind: classKindOf(ctx), name: symbol.name };
    const ns = tsNamespaceOf(ctx);
    if (ns) d.namespace = ns;
    d.package = tsModulePath(file.relPath);
    d.full_name = fullNameOf(file, qualifiedName(ctx));
    const header = typeHeaderOf(file, symbol);
    d.signature = declarationSignature(ctx, header);
    const hover = await tsHoverOf(file, symbol);
    if (hover?.description) d.description = hover.description;
    d.location = symbolLocation(file, symbol.range);
    const children = childContexts(ctx);
    const fieldJobs: Promise<FieldDescriptor>[] = [];
    const methodJobs: Promise<FunctionDescriptor>[] = [];
    const seenCallables = new Set<string>();
    const isNamespace = symbol.kind === Lsp.Namespace || symbol.kind === Lsp.Module;
    for (const child of children) {
      const kind = tsSymbolKind(child);
      const mods = modifiersOf(file, child.symbol);
      const accessor = mods.includes('get') || mods.includes('set');
      if ((kind === 'method' || kind === 'function' || kind === 'constructor') && !accessor) {
        // Overload signatures and their implementation are one method.
        const key = `${kind}\0${child.symbol.name}`;
        if (seenCallables.has(key)) continue;
        seenCallables.add(key);
        methodJobs.push(tsFunctionDescriptor(child, file.language, isNamespace ? isTsExported(child) : false));
      } else if (accessor) {
        if (mods.includes('set') && children.some((c) => c.symbol !== child.symbol && c.symbol.name === child.symbol.name)) continue;
        fieldJobs.push(tsFieldDescriptor(child));
      } else if (['property', 'field', 'constant', 'variable', 'enum_member'].includes(kind)) {
        fieldJobs.push(tsFieldDescriptor(child));
      }
    }
    const [fields, methods, rel] = await Promise.all([Promise.all(fieldJobs), Promise.all(methodJobs), relationsOf(ctx, header)]);
    if (fields.length) d.fields = fields;
    if (methods.length) d.methods = methods;
    if (rel.relations.length) d.relations = rel.relations;
    const mods = modifiersOf(file, symbol);
    const tags: string[] = [];
    if (mods.includes('abstract')) tags.push('abstract');
    if (mods.includes('declare')) tags.push('declare');
    if (isNamespace) tags.push('namespace');
    if (isTsExported(ctx)) tags.push('exported');
    if (tags.length) d.tags = tags;
    if (rel.typeParameters) d.metadata = { type_parameters: rel.typeParameters };
    return d;
  },
  async functionDescriptor(ctx): Promise<FunctionDescriptor> {
    return tsFunctionDescriptor(ctx, ctx.file.language, isTsExported(ctx));
  },
};
