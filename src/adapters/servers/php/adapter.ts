/**
 * PHP through intelephense 1.18. Its documentSymbol puts the namespace (kind Namespace) as a
 * sibling before the classes, reports traits as Module, names properties with their `$`, gives
 * modifiers in `detail` only sometimes, and starts a member's range at its PHPDoc block. So
 * modifiers, types, PHPDoc and Eloquent facts are read from the source; intelephense supplies the
 * symbols, their ranges, and definitions (to follow a model's extends chain to Eloquent's Model).
 */
import { closeSync, openSync, readSync } from 'node:fs';

import { type DocumentSymbol, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { fromLspSymbolKind } from '../../../schema/convert/lsp-kind.js';
import type {
  ClassDescriptor,
  FieldDescriptor,
  FunctionDescriptor,
  ParamDescriptor,
  RelationDescriptor,
  SymbolDescriptor,
  SymbolKind,
} from '../../../schema/descriptors.js';
import { decoratorNames, docCommentAt, typeHeaderOf } from '../../file-structure.js';
import { symbolLocation } from '../../generic.js';
import { phpProfile } from '../../php/profile.js';
import {
  modifiersBefore,
  parsePhpDoc,
  parsePhpFunctionHeader,
  phpNamespace,
  propertyInitialiser,
  resolveGenericArgs,
  stripPhpComments,
} from '../../php/source.js';
import type { FileContext, LanguageAdapter, PackageInfo, SymbolContext } from '../../types.js';
import { phpNameProblem } from './identifier.js';
import { declLine, fullName, modelInfo, ns, phpUses, resolver } from './model.js';

const TYPE_KINDS: number[] = [Lsp.Class, Lsp.Interface, Lsp.Enum, Lsp.Module, Lsp.Struct];

function bareName(s: DocumentSymbol): string {
  return s.name.replace(/^\$/, '');
}

function owner(ctx: SymbolContext): DocumentSymbol | undefined {
  return [...ctx.parents].reverse().find((p) => TYPE_KINDS.includes(p.kind));
}

function kindOf(ctx: SymbolContext): SymbolKind {
  const s = ctx.symbol;
  switch (s.kind) {
    case Lsp.Module:
      // intelephense reports `trait T` as Module.
      return 'trait';
    case Lsp.Method:
      return s.name === '__construct' ? 'constructor' : 'method';
    case Lsp.Property:
      return 'property';
    default:
      return fromLspSymbolKind(s.kind);
  }
}

// ---- Functions ----

async function functionDescriptor(ctx: SymbolContext): Promise<FunctionDescriptor> {
  const { file, symbol } = ctx;
  const line = symbol.selectionRange.start.line;
  const header = parsePhpFunctionHeader(file.lines, line);
  const doc = parsePhpDoc(docCommentAt(file, line));
  const cls = owner(ctx);
  const uses = phpUses(file);
  const namespace = ns(file);
  const model = cls ? await modelInfo(file, cls) : undefined;
  const params: ParamDescriptor[] = (header?.params ?? []).map((p) => {
    const d = doc.params.get(p.name);
    const type = p.type ?? d?.type;
    const out: ParamDescriptor = { name: p.name };
    if (type) out.type = type;
    if (p.default !== undefined) Object.assign(out, { default: p.default, optional: true });
    if (p.variadic) out.variadic = true;
    if (d?.description) out.description = d.description;
    return out;
  });
  let retType = header?.returnType;
  // PHPDoc refines a hint (`@return BelongsToMany<Role>` over `: BelongsToMany`) or stands in for a missing one.
  if (doc.returns && (!retType || /[<{[]/.test(doc.returns.type))) retType = resolveGenericArgs(doc.returns.type, uses, namespace);
  const relType = model?.relationTypes.get(symbol.name);
  if (relType) retType = relType;
  const mods = header?.modifiers ?? modifiersBefore(declLine(file, symbol), symbol.name);
  const isInterface = cls?.kind === Lsp.Interface;
  const special = model?.methodKinds.get(symbol.name);
  const kind: FunctionDescriptor['kind'] = symbol.name === '__construct' ? 'constructor' : (special ?? (cls ? 'method' : 'function'));
  const attrs = decoratorNames(file, symbol);
  const tags = [...attrs];
  if (relType) tags.push('relation');
  const d: FunctionDescriptor = {
    language: 'php',
    kind,
    name: symbol.name,
    ...(namespace ? { namespace } : {}),
    ...(cls ? { receiver: cls.name } : {}),
    signature: header?.text ?? declLine(file, symbol).replace(/\s*\{\s*$/, ''),
    ...(doc.summary ? { description: doc.summary } : {}),
    location: symbolLocation(file, symbol.range),
    ...(params.length ? { parameters: params } : {}),
    ...(retType ? { returns: [{ type: retType, ...(doc.returns?.description ? { description: doc.returns.description } : {}) }] } : {}),
    visibility: mods.find((m) => m === 'public' || m === 'protected' || m === 'private') ?? 'public',
    ...(mods.includes('static') ? { is_static: true } : {}),
    ...(mods.includes('abstract') || isInterface ? { is_abstract: true } : {}),
    ...(mods.includes('final') ? { is_final: true } : {}),
    ...(tags.length ? { tags } : {}),
    metadata: { full_name: cls ? `${fullName(file, cls.name)}::${symbol.name}` : fullName(file, symbol.name) },
  };
  return d;
}

// ---- Classes ----

function fieldOf(file: FileContext, s: DocumentSymbol): FieldDescriptor {
  const line = declLine(file, s);
  const name = bareName(s);
  const mods = modifiersBefore(line, s.kind === Lsp.Property ? `$${name}` : name);
  const doc = parsePhpDoc(docCommentAt(file, s.selectionRange.start.line));
  const tags: string[] = [];
  let type: string | undefined;
  let initAt: number;
  const text = file.lines.slice(s.selectionRange.start.line, s.range.end.line + 1).join('\n');
  if (s.kind === Lsp.Property) {
    const hint = new RegExp(String.raw`(?:public|protected|private|static|readonly|var)\s+([?\w\\|&]+)\s+\$${name}\b`).exec(line)?.[1];
    type = hint && !['public', 'protected', 'private', 'static', 'readonly', 'var'].includes(hint) ? hint : doc.var;
    initAt = propertyInitialiser(text, name);
  } else {
    tags.push(s.kind === Lsp.EnumMember ? 'case' : 'constant');
    const eq = text.indexOf('=');
    initAt = eq < 0 ? -1 : eq + 1;
  }
  const raw = initAt < 0 ? undefined : text.slice(initAt, text.indexOf(';', initAt) < 0 ? undefined : text.indexOf(';', initAt));
  const def = (raw === undefined ? undefined : stripPhpComments(raw))
    ?.replace(/\s+/g, ' ')
    .replace(/\[\s+/g, '[')
    .replace(/,?\s*\]/g, ']')
    .trim();
  const isConst = s.kind !== Lsp.Property;
  return {
    name,
    ...(type ? { type } : {}),
    ...(doc.summary ? { description: doc.summary } : {}),
    visibility: mods.find((m) => m === 'public' || m === 'protected' || m === 'private') ?? 'public',
    ...(mods.includes('static') || isConst ? { is_static: true } : {}),
    ...(mods.includes('readonly') || isConst ? { is_readonly: true } : {}),
    ...(def ? { default: def.length > 200 ? `${def.slice(0, 197)}...` : def } : {}),
    location: symbolLocation(file, s.range),
    ...(tags.length ? { tags } : {}),
  };
}

/**
 * Constructor property promotion (PHP 8.0: `public function __construct(private Formatter $f,
 * public readonly int $n = 0)`): each parameter with a visibility or `readonly` modifier declares a
 * property. `readonly` alone means public (PHP 8.1); a `readonly class` (8.2) makes them all readonly.
 */
function promotedFields(file: FileContext, ctor: DocumentSymbol, readonlyClass: boolean): FieldDescriptor[] {
  const line = ctor.selectionRange.start.line;
  const header = parsePhpFunctionHeader(file.lines, line);
  const doc = parsePhpDoc(docCommentAt(file, line));
  const out: FieldDescriptor[] = [];
  for (const p of header?.params ?? []) {
    if (!p.promoted) continue;
    const mods = p.promoted.split(/\s+/);
    const at = file.lines.slice(line, ctor.range.end.line + 1).findIndex((l) => new RegExp(String.raw`\$${p.name}\b`).test(l));
    const paramLine = at < 0 ? line : line + at;
    const type = p.type ?? doc.params.get(p.name)?.type;
    const description = doc.params.get(p.name)?.description;
    out.push({
      name: p.name,
      ...(type ? { type } : {}),
      ...(description ? { description } : {}),
      visibility: mods.find((m) => m === 'public' || m === 'protected' || m === 'private') ?? 'public',
      ...(mods.includes('readonly') || readonlyClass ? { is_readonly: true } : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      location: { file_path: file.relPath, uri: file.uri, start_line: paramLine + 1, end_line: paramLine + 1 },
      tags: ['promoted'],
    });
  }
  return out;
}

function within(inner: DocumentSymbol, outer: DocumentSymbol): boolean {
  const l = inner.selectionRange.start.line;
  return l >= outer.range.start.line && l <= outer.range.end.line;
}

function classKind(s: DocumentSymbol): ClassDescriptor['kind'] {
  switch (s.kind) {
    case Lsp.Interface:
      return 'interface';
    case Lsp.Module:
      return 'trait';
    case Lsp.Enum:
      return 'enum';
    default:
      return 'class';
  }
}

async function classDescriptor(ctx: SymbolContext): Promise<ClassDescriptor> {
  const { file, symbol } = ctx;
  const resolve = resolver(file);
  // extends / implements / modifiers from the parse tree, wherever a docblock and attributes put them
  const typeHeader = typeHeaderOf(file, symbol);
  const bases = (relation: string) => (typeHeader?.bases ?? []).filter((b) => b.relation === relation).map((b) => b.written);
  const header = typeHeader && { extends: bases('extends'), implements: bases('implements'), modifiers: [...typeHeader.modifiers] };
  const headerLine = typeHeader?.header ?? symbol.name;
  const doc = parsePhpDoc(docCommentAt(file, symbol.selectionRange.start.line));
  const namespace = ns(file);
  const fields: FieldDescriptor[] = [];
  const methods: FunctionDescriptor[] = [];
  const parents = [...ctx.parents, symbol];
  // intelephense 1.18 lists promoted parameters as Property children (ranges inside the
  // constructor's header), which fieldOf cannot read: the constructor's header describes them.
  const ctor = (symbol.children ?? []).find((c) => c.name === '__construct');
  const promoted = new Map(ctor ? promotedFields(file, ctor, !!header?.modifiers.includes('readonly')).map((f) => [f.name, f]) : []);
  for (const c of symbol.children ?? []) {
    if (c.kind === Lsp.Method || c.kind === Lsp.Constructor) methods.push(await functionDescriptor({ file, symbol: c, parents }));
    else if (c.kind === Lsp.Property && ctor && promoted.has(bareName(c)) && within(c, ctor)) {
      fields.push(promoted.get(bareName(c))!);
      promoted.delete(bareName(c));
    } else if (c.kind === Lsp.Property || c.kind === Lsp.Constant || c.kind === Lsp.EnumMember) fields.push(fieldOf(file, c));
  }
  fields.push(...promoted.values());
  const rel = (type: string, name: string): RelationDescriptor => ({ type, target: name.split('\\').pop()!, target_full_name: resolve(name) });
  const relations: RelationDescriptor[] = [
    ...(header?.extends ?? []).map((n) => rel('extends', n)),
    ...(header?.implements ?? []).map((n) => rel('implements', n)),
    ...(typeHeader?.traits ?? []).map((n) => rel('uses', n)),
  ];
  const model = await modelInfo(file, symbol);
  if (model) relations.push(...model.relations);
  const d: ClassDescriptor = {
    language: 'php',
    kind: model ? 'model' : classKind(symbol),
    name: symbol.name,
    ...(namespace ? { namespace } : {}),
    full_name: fullName(file, symbol.name),
    signature: headerLine,
    ...(doc.summary ? { description: doc.summary } : {}),
    location: symbolLocation(file, symbol.range),
    ...(fields.length ? { fields } : {}),
    ...(methods.length ? { methods } : {}),
    ...(relations.length ? { relations } : {}),
  };
  if (model) {
    d.table = model.table;
    for (const k of ['fillable', 'hidden', 'visible', 'appends', 'casts', 'scopes', 'attributes'] as const) {
      if (model[k] !== undefined) Object.assign(d, { [k]: model[k] });
    }
  }
  const tags = header?.modifiers ?? [];
  if (model) tags.push('eloquent');
  if (tags.length) d.tags = tags;
  return d;
}

function symbolDescriptor(ctx: SymbolContext): SymbolDescriptor {
  const { file, symbol } = ctx;
  const namespace = ns(file);
  const doc = parsePhpDoc(docCommentAt(file, symbol.selectionRange.start.line));
  const line = declLine(file, symbol).replace(/\s*\{.*$/, '');
  const mods = modifiersBefore(line, symbol.name).filter((m) => m !== 'const' && m !== 'var');
  return {
    language: 'php',
    kind: kindOf(ctx),
    name: bareName(symbol),
    ...(namespace ? { namespace } : {}),
    signature: line,
    ...(doc.summary ? { description: doc.summary } : {}),
    location: symbolLocation(file, symbol.range),
    ...(mods.length ? { tags: mods } : {}),
  };
}

function isExported(ctx: SymbolContext): boolean {
  if (ctx.symbol.kind === Lsp.Namespace) return false;
  // PHP has no module privacy: every top-level declaration of a namespace is part of it.
  return ctx.parents.every((p) => p.kind === Lsp.Namespace);
}

function namespaceOfFile(abs: string): string | undefined {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return phpNamespace(buf.subarray(0, n).toString('utf8').split('\n'));
  } finally {
    closeSync(fd);
  }
}

/** Files whose `namespace` clause is the one named (`App\Models`, `App/Models`, `\App\Models`). */
async function packageFiles(_root: string, name: string, candidates: string[]): Promise<string[] | undefined> {
  const wanted = name
    .trim()
    .replace(/[/.]/g, '\\')
    .replace(/^\\+|\\+$/g, '');
  const out = candidates.filter((abs) => /\.(php|phtml)$/.test(abs) && namespaceOfFile(abs) === wanted);
  return out.length ? out.sort() : undefined;
}

export const phpAdapter: LanguageAdapter = {
  name: 'php',
  languages: [phpProfile],
  language: () => phpProfile.name,
  newNameProblem: phpNameProblem,
  packageOf(file: FileContext): PackageInfo {
    const namespace = ns(file);
    return namespace ? { namespace } : {};
  },
  symbolKind: kindOf,
  symbolDescriptor,
  classDescriptor,
  functionDescriptor,
  isExported,
  packageFiles,
};

export default phpAdapter;
