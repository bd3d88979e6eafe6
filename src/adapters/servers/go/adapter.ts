/**
 * Go through gopls 0.16–0.22. What gopls sends: documentSymbol lists methods at the top level as
 * `(*Router).Handle` / `(Router).Count` (not inside their type), struct fields as Field children
 * with the type in `detail`, interface methods as Method children; hover gives the declaration in
 * a ```go block, the doc comment, and for types the full method set (promoted methods included).
 * A type's own methods may live in any file of its package, so they are collected from the
 * sibling files' documentSymbol answers.
 */
import path from 'node:path';

import { type DocumentSymbol, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { fromLspSymbolKind } from '../../../schema/convert/lsp-kind.js';
import type { ClassDescriptor, FieldDescriptor, FunctionDescriptor, RelationDescriptor, SymbolDescriptor, SymbolKind } from '../../../schema/descriptors.js';
import { toRelative } from '../../../util/paths.js';
import { typeHeaderOf } from '../../file-structure.js';
import { symbolLocation } from '../../generic.js';
import { fileImports, goDocAbove, importPathOf, packageClause, packageDirFiles, trailingComment } from '../../go/package.js';
import { goProfile } from '../../go/profile.js';
import { isGoTestFile } from '../../go/tests.js';
import type { FileContext, LanguageAdapter, PackageInfo, SymbolContext } from '../../types.js';
import { goNameProblem } from './identifier.js';
import { firstParagraph, type GoFuncSignature, parseGoFuncSignature, parseGoHover, parseGoStructLine } from './signature.js';
import { explainGoFailure, goWorkspaceEnv } from './workspace.js';

/** gopls names methods `(*Router).ServeHTTP` / `(Router).Len` / `(*Stack[T]).Push`. */
const GO_METHOD = /^\((\*?)([\w.]+)(\[[^\]]*\])?\)\.(\w+)$/;

export function splitGoMethodName(name: string): { receiverType: string; pointer: boolean; method: string } | undefined {
  const m = GO_METHOD.exec(name);
  return m ? { receiverType: m[2]!, pointer: m[1] === '*', method: m[4]! } : undefined;
}

function plainName(s: DocumentSymbol): string {
  return splitGoMethodName(s.name)?.method ?? s.name;
}

function isExportedName(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** The declaration's own source line, without the opening brace: `func (r *Router) Handle(...) error`. */
function sourceSignature(file: FileContext, s: DocumentSymbol): string {
  const line = (file.lines[s.selectionRange.start.line] ?? '').trim();
  return line
    .replace(/\s*\{\s*(\}\s*)?$/, '')
    .replace(/\s*\/\/.*$/, '')
    .trim();
}

function kindOf(s: DocumentSymbol): SymbolKind {
  switch (s.kind) {
    case Lsp.Struct:
      return 'struct';
    case Lsp.Class:
    case Lsp.TypeParameter:
      // gopls reports named non-struct, non-interface types (`type Celsius float64`) as Class.
      return 'type';
    default:
      return fromLspSymbolKind(s.kind);
  }
}

function packageName(file: FileContext): string | undefined {
  return packageClause(file.lines);
}

function importPath(file: FileContext): string | undefined {
  return importPathOf(path.dirname(file.absPath));
}

/**
 * The doc comment as written, paragraphs kept, lines of a paragraph joined. Preferred over the
 * hover's: gopls renders doc links (`[io.EOF]`) as pkg.go.dev URLs and escapes brackets (`\[`).
 */
function sourceDoc(file: FileContext, s: DocumentSymbol): string | undefined {
  const raw = goDocAbove(file.lines, s.range.start.line);
  if (!raw) return undefined;
  const text = raw
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
  return text || undefined;
}

async function hoverAt(file: FileContext, s: DocumentSymbol) {
  return parseGoHover(await file.hover(s.selectionRange.start));
}

function funcDescriptor(
  file: FileContext,
  s: DocumentSymbol,
  sig: GoFuncSignature | undefined,
  signature: string,
  doc: string | undefined,
  ownerFallback?: string,
): FunctionDescriptor {
  const name = plainName(s);
  const split = splitGoMethodName(s.name);
  const receiver = sig?.receiver ?? (split ? `${split.pointer ? '*' : ''}${split.receiverType}` : ownerFallback);
  const pkg = packageName(file);
  const d: FunctionDescriptor = {
    language: 'go',
    kind: receiver ? 'method' : 'function',
    name,
    ...(pkg ? { namespace: pkg } : {}),
    ...(receiver ? { receiver } : {}),
    signature,
    ...(doc ? { description: doc } : {}),
    location: symbolLocation(file, s.range),
    visibility: isExportedName(name) ? 'public' : 'private',
  };
  if (sig?.parameters.length) d.parameters = sig.parameters;
  if (sig?.returns.length) d.returns = sig.returns;
  const tags: string[] = [];
  if (sig?.typeParams) tags.push('generic');
  if (tags.length) d.tags = tags;
  const ip = importPath(file);
  const metadata: Record<string, unknown> = {};
  if (sig?.typeParams) metadata.type_params = sig.typeParams;
  if (ip) metadata.import_path = ip;
  if (Object.keys(metadata).length) d.metadata = metadata;
  return d;
}

async function functionDescriptor(ctx: SymbolContext): Promise<FunctionDescriptor> {
  const { file, symbol } = ctx;
  const hover = await hoverAt(file, symbol);
  const decl = hover.declaration?.startsWith('func') ? hover.declaration : undefined;
  const signature = decl ?? sourceSignature(file, symbol);
  const sig = parseGoFuncSignature(signature) ?? detailSignature(symbol);
  const doc = sourceDoc(file, symbol) ?? hover.doc;
  const owner = ctx.parents.length ? plainName(ctx.parents[ctx.parents.length - 1]!) : undefined;
  const d = funcDescriptor(file, symbol, sig, signature, doc, owner);
  // Interface methods have no body: the type that satisfies the interface provides it.
  if (owner && ctx.parents[ctx.parents.length - 1]!.kind === Lsp.Interface) d.is_abstract = true;
  return d;
}

/** gopls's documentSymbol detail is `func(path string, h Handler) error`. */
function detailSignature(s: DocumentSymbol): GoFuncSignature | undefined {
  return s.detail?.startsWith('func') ? parseGoFuncSignature(s.detail) : undefined;
}

function fieldsOf(file: FileContext, s: DocumentSymbol): FieldDescriptor[] {
  const out: FieldDescriptor[] = [];
  // which fields are embedded is the parse tree's answer (an embedded field is named by its type's last identifier)
  const embedded = new Set((typeHeaderOf(file, s)?.bases ?? []).filter((b) => b.relation === 'embeds').map((b) => b.name));
  for (const c of s.children ?? []) {
    if (c.kind !== Lsp.Field) continue;
    const line = file.lines[c.selectionRange.start.line] ?? '';
    const parsed = parseGoStructLine(line).find((f) => f.name === c.name);
    const doc = goDocAbove(file.lines, c.range.start.line) ?? trailingComment(line);
    const f: FieldDescriptor = {
      name: c.name,
      type: parsed?.type ?? c.detail ?? '',
      ...(doc ? { description: doc } : {}),
      visibility: isExportedName(c.name) ? 'public' : 'private',
      ...(parsed?.tag ? { tag: parsed.tag } : {}),
      ...(embedded.has(c.name) ? { embedded: true } : {}),
      location: symbolLocation(file, c.range),
    };
    if (!f.type) delete f.type;
    out.push(f);
  }
  return out;
}

/**
 * The types a struct or interface embeds, as written (`base.Base`, `Local` of `*Local`,
 * `Inner[T]`), from the parse tree: wherever they are written, the declaration's own line included.
 */
function embeddedTypes(file: FileContext, s: DocumentSymbol): string[] {
  return (typeHeaderOf(file, s)?.bases ?? []).filter((b) => b.relation === 'embeds').map((b) => b.written);
}

function resolveTypeName(file: FileContext, typeName: string): string | undefined {
  const bare = typeName.replace(/^\*/, '').replace(/\[.*\]$/, '');
  const dot = bare.indexOf('.');
  if (dot < 0) {
    const ip = importPath(file);
    return ip ? `${ip}.${bare}` : undefined;
  }
  const imp = fileImports(file.lines).get(bare.slice(0, dot));
  return imp ? `${imp}.${bare.slice(dot + 1)}` : undefined;
}

function relation(file: FileContext, type: string, target: string): RelationDescriptor {
  const full = resolveTypeName(file, target);
  return { type, target: target.replace(/^\*/, ''), ...(full ? { target_full_name: full } : {}) };
}

/** Methods of `typeName` declared anywhere in the package directory, in file order. */
async function ownMethods(file: FileContext, typeName: string): Promise<FunctionDescriptor[]> {
  const out: FunctionDescriptor[] = [];
  const pkg = packageName(file);
  const files = packageDirFiles(path.dirname(file.absPath));
  if (!files.includes(file.absPath)) files.unshift(file.absPath);
  for (const abs of files) {
    const f = abs === file.absPath ? file : await file.loadFile(abs);
    if (packageName(f) !== pkg) continue;
    for (const s of f.symbols) {
      if (splitGoMethodName(s.name)?.receiverType !== typeName) continue;
      out.push(await functionDescriptor({ file: f, symbol: s, parents: [] }));
    }
  }
  return out;
}

/** Promoted methods from hover's method set: receivers that are not the type itself. */
function promotedMethods(methodSet: string[], typeName: string): FunctionDescriptor[] {
  const out: FunctionDescriptor[] = [];
  for (const line of methodSet) {
    const sig = parseGoFuncSignature(line);
    if (!sig?.receiver) continue;
    const recvBase = sig.receiver.replace(/^\*/, '').replace(/\[.*\]$/, '');
    if (recvBase === typeName) continue;
    out.push({
      language: 'go',
      kind: 'method',
      name: sig.name,
      receiver: sig.receiver,
      signature: line,
      ...(sig.parameters.length ? { parameters: sig.parameters } : {}),
      ...(sig.returns.length ? { returns: sig.returns } : {}),
      visibility: isExportedName(sig.name) ? 'public' : 'private',
      tags: ['promoted'],
      metadata: { promoted_from: recvBase },
    });
  }
  return out;
}

async function classDescriptor(ctx: SymbolContext): Promise<ClassDescriptor> {
  const { file, symbol } = ctx;
  const hover = await hoverAt(file, symbol);
  const name = plainName(symbol);
  const kind = kindOf(symbol);
  const pkg = packageName(file);
  const ip = importPath(file);
  const header = (hover.declaration ?? sourceSignature(file, symbol))
    .split('\n')[0]!
    .replace(/\s*\{.*$/, '')
    .trim();
  const doc = sourceDoc(file, symbol) ?? hover.doc;
  const d: ClassDescriptor = {
    language: 'go',
    kind: kind === 'struct' || kind === 'interface' ? kind : 'type',
    name,
    ...(pkg ? { package: pkg } : {}),
    full_name: `${ip ?? pkg ?? ''}${ip || pkg ? '.' : ''}${name}`,
    signature: header,
    ...(doc ? { description: doc } : {}),
    location: symbolLocation(file, symbol.range),
  };
  const relations: RelationDescriptor[] = [];
  if (symbol.kind === Lsp.Interface) {
    const methods: FunctionDescriptor[] = [];
    for (const c of symbol.children ?? []) {
      if (c.kind === Lsp.Method) methods.push(await functionDescriptor({ file, symbol: c, parents: [...ctx.parents, symbol] }));
    }
    if (methods.length) d.methods = methods;
    for (const e of embeddedTypes(file, symbol)) relations.push(relation(file, 'embeds', e));
  } else {
    const fields = fieldsOf(file, symbol);
    if (fields.length) d.fields = fields;
    for (const e of embeddedTypes(file, symbol)) relations.push(relation(file, 'embeds', e));
    const methods = [...(await ownMethods(file, name)), ...promotedMethods(hover.methodSet, name)];
    if (methods.length) d.methods = methods;
  }
  if (relations.length) d.relations = relations;
  d.tags = [isExportedName(name) ? 'exported' : 'unexported'];
  const typeParams = /^type\s+\w+\[([^\]]*)\]/.exec(header)?.[1];
  if (typeParams) d.tags.push('generic');
  const metadata: Record<string, unknown> = {};
  if (ip) metadata.import_path = ip;
  if (typeParams) metadata.type_params = typeParams;
  if (Object.keys(metadata).length) d.metadata = metadata;
  return d;
}

function symbolDescriptor(ctx: SymbolContext): SymbolDescriptor {
  const { file, symbol } = ctx;
  const pkg = packageName(file);
  const doc = firstParagraph(goDocAbove(file.lines, symbol.range.start.line));
  const split = splitGoMethodName(symbol.name);
  const d: SymbolDescriptor = {
    language: 'go',
    kind: kindOf(symbol),
    name: plainName(symbol),
    ...(pkg ? { package: pkg } : {}),
    signature: sourceSignature(file, symbol),
    ...(doc ? { description: doc } : {}),
    location: symbolLocation(file, symbol.range),
  };
  if (split) d.metadata = { receiver: `${split.pointer ? '*' : ''}${split.receiverType}` };
  return d;
}

function isExported(ctx: SymbolContext): boolean {
  const split = splitGoMethodName(ctx.symbol.name);
  if (split) return isExportedName(split.method) && isExportedName(split.receiverType);
  // Members (fields, interface methods) belong to their type's surface, not the package's.
  if (ctx.parents.length > 0) return false;
  return isExportedName(ctx.symbol.name);
}

/**
 * A Go package named by import path (`example.com/goapp/router`), by directory relative to the
 * workspace (`router`, `./fixtures/go-app/router`), or by the directory below its module root.
 * Undefined when nothing matches that way (the service then matches the package clause name).
 */
async function packageFiles(root: string, name: string, candidates: string[]): Promise<string[] | undefined> {
  const wanted = name.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  const byDir = new Map<string, string[]>();
  for (const abs of candidates) {
    if (!abs.endsWith('.go') || isGoTestFile(abs)) continue;
    const dir = path.dirname(abs);
    (byDir.get(dir) ?? byDir.set(dir, []).get(dir)!).push(abs);
  }
  const out: string[] = [];
  for (const [dir, files] of byDir) {
    const rel = toRelative(root, dir);
    const ip = importPathOf(dir);
    if (wanted === ip || wanted === rel || (rel !== '' && ip?.endsWith(`/${wanted}`) && wanted.includes('/'))) out.push(...files);
  }
  return out.length ? out.sort() : undefined;
}

export const goAdapter: LanguageAdapter = {
  name: 'go',
  languages: [goProfile],
  language: () => goProfile.name,
  newNameProblem: goNameProblem,
  serverEnv: goWorkspaceEnv,
  explainFailure: explainGoFailure,
  packageOf(file: FileContext): PackageInfo {
    const pkg = packageName(file);
    return pkg ? { package: pkg } : {};
  },
  symbolKind: (ctx) => kindOf(ctx.symbol),
  symbolDescriptor,
  classDescriptor,
  functionDescriptor,
  isExported,
  packageFiles,
};

export default goAdapter;
