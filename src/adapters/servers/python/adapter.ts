/**
 * Python through pyright 1.1. pyright's documentSymbol nests methods in classes, lists class
 * attributes and `self.x` instance attributes as Variable children of the class, and parameters
 * and locals as children of functions; ranges start at `def`/`class`, not at the decorators.
 * Hover gives inferred types (`(variable) level: Literal[1]`, `self: Self@User`), so annotations,
 * defaults, decorators and docstrings are read from the source as written.
 */
import path from 'node:path';

import { type DocumentSymbol, SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import type {
  ClassDescriptor,
  FieldDescriptor,
  FunctionDescriptor,
  ParamDescriptor,
  RelationDescriptor,
  ReturnDescriptor,
  SymbolDescriptor,
  SymbolKind,
} from '../../../schema/descriptors.js';
import { matchingBracket } from '../../brackets.js';
import { decoratorNames, typeHeaderOf } from '../../file-structure.js';
import { symbolLocation } from '../../generic.js';
import { pythonKind } from '../../python/kinds.js';
import { modulePath } from '../../python/module.js';
import { pythonProfile } from '../../python/profile.js';
import {
  bareParamName,
  docSections,
  docstringAfter,
  dunderAll,
  firstParagraphPy,
  headerAt,
  parseAssignment,
  parsePyDef,
  parsePyHover,
  pyVisibility,
} from '../../python/signature.js';
import type { FileContext, LanguageAdapter, PackageInfo, SymbolContext } from '../../types.js';
import { pythonNameProblem } from './identifier.js';
import { pythonDeclarations } from './parameters.js';

function parentOf(ctx: SymbolContext): DocumentSymbol | undefined {
  return ctx.parents[ctx.parents.length - 1];
}

function inClass(ctx: SymbolContext): boolean {
  return parentOf(ctx)?.kind === Lsp.Class;
}

/** `@staticmethod`, `@functools.cache`, `@app.route("/x")` → `staticmethod`, `functools.cache`, `app.route` (from the parse tree). */
function decorators(file: FileContext, s: DocumentSymbol): string[] {
  return decoratorNames(file, s);
}

function kindOf(ctx: SymbolContext): SymbolKind {
  const { symbol, file } = ctx;
  return pythonKind(symbol.kind, symbol.name, { inClass: inClass(ctx), topLevel: ctx.parents.length === 0, decorators: () => decorators(file, symbol) });
}

function moduleOf(file: FileContext): string {
  return modulePath(file.absPath, file.root);
}

function qualifiedName(ctx: SymbolContext): string {
  const mod = moduleOf(ctx.file);
  return [mod, ...ctx.parents.map((p) => p.name), ctx.symbol.name].filter((x) => x !== '').join('.');
}

function docOf(file: FileContext, s: DocumentSymbol): string | undefined {
  const [, headerEnd] = headerAt(file.lines, s.selectionRange.start.line);
  return docstringAfter(file.lines, headerEnd, s.range.end.line);
}

function headerText(file: FileContext, s: DocumentSymbol): string {
  return headerAt(file.lines, s.selectionRange.start.line)[0].replace(/:\s*$/, '').trim();
}

/**
 * Inferred types pyright shows for `self`/`cls` (`Self@User`, `type[Self@User]`) say nothing, and
 * `Unknown` (what pyright could not infer: `cls=None` shows `Unknown | None`) is pyright's word,
 * not a Python type: such a partial type would read as a declared one. Inferred unions come in
 * parentheses (`(str | LiteralString)`), which are dropped.
 */
function usefulType(t: string | undefined): string | undefined {
  if (!t || /Self@/.test(t) || /\bUnknown\b/.test(t)) return undefined;
  const bare = /^\((.*)\)$/.exec(t)?.[1];
  return bare !== undefined && matchingBracket(t, 0) === t.length - 1 ? bare : t;
}

async function functionDescriptor(ctx: SymbolContext): Promise<FunctionDescriptor> {
  const { file, symbol } = ctx;
  const header = headerText(file, symbol);
  const src = parsePyDef(header);
  const hover = parsePyHover(await file.hover(symbol.selectionRange.start));
  const inferred = hover.code && hover.label !== 'property' ? parsePyDef(hover.code) : undefined;
  const decos = decorators(file, symbol);
  const isStaticDeco = decos.includes('staticmethod');
  const isClassDeco = decos.includes('classmethod');
  const method = inClass(ctx);
  let params: ParamDescriptor[] = src?.params ?? inferred?.params ?? [];
  // `self` / `cls` are bound by Python, not passed by the caller.
  if (method && !isStaticDeco && params.length && (params[0]!.name === 'self' || params[0]!.name === 'cls')) params = params.slice(1);
  const doc = docOf(file, symbol);
  const sections = docSections(doc);
  params = params.map((p) => {
    const q: ParamDescriptor = { ...p };
    const t = q.type ?? usefulType(inferred?.params.find((x) => bareParamName(x.name) === bareParamName(p.name))?.type);
    if (t) q.type = t;
    const desc = sections.params.get(bareParamName(p.name));
    if (desc) q.description = desc;
    return reorder(q);
  });
  const retType = src?.returns ?? usefulType(inferred?.returns) ?? usefulType(propertyReturn(hover.code));
  const returns: ReturnDescriptor[] = retType ? [{ type: retType, ...(sections.returns ? { description: sections.returns } : {}) }] : [];
  const { visibility, dunder } = pyVisibility(symbol.name);
  const kind = kindOf(ctx);
  const tags = [...decos];
  if (dunder) tags.push('dunder');
  if (src?.isAsync) tags.push('async');
  if (kind === 'property') tags.push('property');
  const description = firstParagraphPy(doc);
  const d: FunctionDescriptor = {
    language: 'python',
    kind: kind === 'constructor' ? 'constructor' : method ? 'method' : 'function',
    name: symbol.name,
    namespace: moduleOf(file),
    ...(method ? { receiver: parentOf(ctx)!.name } : {}),
    signature: header,
    ...(description ? { description } : {}),
    location: symbolLocation(file, symbol.range),
    ...(params.length ? { parameters: params } : {}),
    ...(returns.length ? { returns } : {}),
    visibility,
    ...(isStaticDeco || isClassDeco ? { is_static: true } : {}),
    ...(decos.some((x) => /(^|\.)abstractmethod$/.test(x)) ? { is_abstract: true } : {}),
    ...(decos.some((x) => /(^|\.)final$/.test(x)) ? { is_final: true } : {}),
    ...(tags.length ? { tags: [...new Set(tags)] } : {}),
    metadata: { qualified_name: qualifiedName(ctx) },
  };
  return d;
}

/** `display_name: (self: Self@User) -> str` (pyright's property hover) → `str`. */
function propertyReturn(code: string | undefined): string | undefined {
  return code ? /->\s*(.+)$/.exec(code)?.[1]?.trim() : undefined;
}

function reorder(p: ParamDescriptor): ParamDescriptor {
  const o: ParamDescriptor = { name: p.name };
  for (const k of ['type', 'default', 'optional', 'variadic', 'description'] as const) if (p[k] !== undefined) Object.assign(o, { [k]: p[k] });
  return o;
}

/** `@dataclass`, `@dataclasses.dataclass(frozen=True)`, attrs' `@define` / `@attr.s` family. */
const DATACLASS_DECORATOR = /^(dataclasses\.)?dataclass$|^(attrs?\.)?(define|frozen|mutable)$|^attr\.(s|attrs)$/;

/**
 * What a class-level assignment is. In a dataclass an annotated class-level name is an instance
 * field the generated `__init__` takes (PEP 557), except `ClassVar[...]` (a real class attribute),
 * `InitVar[...]` (an `__init__`/`__post_init__` argument only) and the `_: KW_ONLY` marker.
 */
function attributeRole(
  a: ReturnType<typeof parseAssignment>,
  type: string | undefined,
  dataclass: boolean,
): 'instance_attribute' | 'class_attribute' | 'dataclass_field' | 'init_var' | 'kw_only_marker' {
  if (a?.self) return 'instance_attribute';
  if (!dataclass || !a?.type) return 'class_attribute';
  if (/^(dataclasses\.)?KW_ONLY$/.test(a.type)) return 'kw_only_marker';
  if (/^(typing\.)?ClassVar\b/.test(type ?? '')) return 'class_attribute';
  if (/^(dataclasses\.)?InitVar\b/.test(a.type)) return 'init_var';
  return 'dataclass_field';
}

async function fieldDescriptor(file: FileContext, s: DocumentSymbol, dataclass = false): Promise<FieldDescriptor | undefined> {
  const line = file.lines[s.selectionRange.start.line] ?? '';
  const a = parseAssignment(line);
  let type = a?.type;
  if (!type) {
    const h = parsePyHover(await file.hover(s.selectionRange.start));
    type = usefulType(h.code ? /^[\w.]+\s*:\s*(.+)$/.exec(h.code)?.[1]?.trim() : undefined);
  }
  const { visibility, dunder } = pyVisibility(s.name);
  const role = attributeRole(a, type, dataclass);
  if (role === 'kw_only_marker') return undefined;
  const classVar = !!type && /^(typing\.)?ClassVar\b/.test(type);
  const tags: string[] = [role];
  if (dunder) tags.push('dunder');
  return {
    name: s.name,
    ...(type ? { type } : {}),
    visibility,
    ...(classVar ? { is_static: true } : {}),
    ...(a?.default !== undefined && !a.self ? { default: a.default } : {}),
    location: symbolLocation(file, s.range),
    tags,
  };
}

async function propertyField(ctx: SymbolContext, fn: FunctionDescriptor, hasSetter: boolean): Promise<FieldDescriptor> {
  return {
    name: fn.name,
    ...(fn.returns?.[0] ? { type: fn.returns[0].type } : {}),
    ...(fn.description ? { description: fn.description } : {}),
    visibility: fn.visibility ?? 'public',
    ...(hasSetter ? {} : { is_readonly: true }),
    location: symbolLocation(ctx.file, ctx.symbol.range),
    tags: ['property'],
  };
}

/**
 * Resolves a name used in this module through its imports (`from a.b import C as D`, over several
 * lines or not, relative ones from this module), read from its parse tree.
 */
function resolveName(file: FileContext, name: string): string | undefined {
  const [head, ...rest] = name.split('.');
  const mod = moduleOf(file);
  const full = file.structure()?.aliases.find((a) => a.local === head && a.full !== undefined)?.full;
  if (full !== undefined) {
    let dots = 0;
    while (full[dots] === '.') dots++;
    const absolute = dots ? [...mod.split('.').slice(0, -dots), full.slice(dots)].filter(Boolean).join('.') : full;
    return [absolute, ...rest].join('.');
  }
  if (file.symbols.some((s) => s.name === head && s.kind === Lsp.Class)) return `${mod}.${name}`;
  return undefined;
}

async function classDescriptor(ctx: SymbolContext): Promise<ClassDescriptor> {
  const { file, symbol } = ctx;
  const header = headerText(file, symbol);
  // as written, generic arguments included (`Generic[T]`); keyword arguments (`metaclass=`) are no bases
  const bases = (typeHeaderOf(file, symbol)?.bases ?? []).map((b) => b.written);
  const decos = decorators(file, symbol);
  const description = firstParagraphPy(docOf(file, symbol));
  const kind = bases.some((b) => /(^|\.)(Enum|IntEnum|StrEnum|Flag|IntFlag)$/.test(b))
    ? 'enum'
    : bases.some((b) => /(^|\.)Protocol(\[.*\])?$/.test(b))
      ? 'interface'
      : 'class';
  const fields: FieldDescriptor[] = [];
  const methods: FunctionDescriptor[] = [];
  const seen = new Set<string>();
  const children = symbol.children ?? [];
  const memberParents = [...ctx.parents, symbol];
  const dataclass = decos.some((d) => DATACLASS_DECORATOR.test(d));
  for (const c of children) {
    const cctx: SymbolContext = { file, symbol: c, parents: memberParents };
    const ck = kindOf(cctx);
    if (ck === 'property') {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      const setter = children.some((o) => o !== c && o.name === c.name && decorators(file, o).includes(`${c.name}.setter`));
      fields.push(await propertyField(cctx, await functionDescriptor(cctx), setter));
    } else if (ck === 'method' || ck === 'constructor') {
      methods.push(await functionDescriptor(cctx));
    } else if (ck === 'field' && !seen.has(c.name)) {
      seen.add(c.name);
      const f = await fieldDescriptor(file, c, dataclass);
      if (f) fields.push(f);
    }
  }
  const relations: RelationDescriptor[] = bases
    .filter((b) => !/^(object|Generic\[.*\]|Protocol)$/.test(b))
    .map((b) => {
      const full = resolveName(file, b.replace(/\[.*\]$/, ''));
      return { type: 'extends', target: b, ...(full ? { target_full_name: full } : {}) };
    });
  const tags = [...decos];
  if (bases.some((b) => /(^|\.)ABC$/.test(b))) tags.push('abstract');
  const { visibility } = pyVisibility(symbol.name);
  if (visibility !== 'public') tags.push(visibility);
  const mod = moduleOf(file);
  const d: ClassDescriptor = {
    language: 'python',
    kind,
    name: symbol.name,
    package: mod,
    full_name: qualifiedName(ctx),
    signature: header,
    ...(description ? { description } : {}),
    location: symbolLocation(file, symbol.range),
    ...(fields.length ? { fields } : {}),
    ...(methods.length ? { methods } : {}),
    ...(relations.length ? { relations } : {}),
    ...(tags.length ? { tags } : {}),
  };
  return d;
}

function symbolDescriptor(ctx: SymbolContext): SymbolDescriptor {
  const { file, symbol } = ctx;
  const kind = kindOf(ctx);
  const isDecl = symbol.kind === Lsp.Class || symbol.kind === Lsp.Method || symbol.kind === Lsp.Function || symbol.kind === Lsp.Constructor;
  const signature = isDecl ? headerText(file, symbol) : (file.lines[symbol.selectionRange.start.line] ?? '').trim();
  const description = isDecl ? firstParagraphPy(docOf(file, symbol)) : undefined;
  const tags = isDecl ? decorators(file, symbol) : [];
  const { dunder } = pyVisibility(symbol.name);
  if (dunder) tags.push('dunder');
  return {
    language: 'python',
    kind,
    name: symbol.name,
    package: moduleOf(file),
    signature,
    ...(description ? { description } : {}),
    location: symbolLocation(file, symbol.range),
    ...(tags.length ? { tags } : {}),
  };
}

function isExported(ctx: SymbolContext): boolean {
  if (ctx.parents.length > 0) return false;
  const all = dunderAll(ctx.file.text);
  if (all) return all.includes(ctx.symbol.name);
  return !ctx.symbol.name.startsWith('_');
}

/**
 * `app.models` (or `app/models`, `app/models.py`): the module itself, or a package's `__init__`
 * plus its direct submodules. Undefined when no file has that module path.
 */
async function packageFiles(root: string, name: string, candidates: string[]): Promise<string[] | undefined> {
  const wanted = name
    .trim()
    .replace(/\.pyi?$/, '')
    .replace(/\/__init__$/, '')
    .replace(/[/\\]/g, '.')
    .replace(/^\.+|\.+$/g, '');
  const out: string[] = [];
  for (const abs of candidates) {
    if (!/\.pyi?$/.test(abs)) continue;
    const mod = modulePath(abs, root);
    const relDotted = path
      .relative(root, abs)
      .replace(/\.pyi?$/, '')
      .replace(/[/\\]__init__$/, '')
      .split(path.sep)
      .join('.');
    if (mod === wanted || relDotted === wanted) out.push(abs);
    else if (mod.startsWith(`${wanted}.`) && !mod.slice(wanted.length + 1).includes('.')) out.push(abs);
  }
  return out.length ? out.sort() : undefined;
}

export const pythonAdapter: LanguageAdapter = {
  name: 'python',
  languages: [pythonProfile],
  language: () => pythonProfile.name,
  newNameProblem: pythonNameProblem,
  packageOf(file: FileContext): PackageInfo {
    const mod = moduleOf(file);
    return mod ? { package: mod } : {};
  },
  declarations: pythonDeclarations,
  symbolKind: kindOf,
  symbolDescriptor,
  classDescriptor,
  functionDescriptor,
  isExported,
  packageFiles,
};

export default pythonAdapter;
