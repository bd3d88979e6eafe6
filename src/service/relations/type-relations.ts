/**
 * Type relations where a server has no implementation or type-hierarchy provider (pyright;
 * intelephense without a licence; typescript-language-server and gopls for type hierarchy): the
 * bases a type's header names are read from its parse tree (the profile's `typeHeaders` hook:
 * `class Dog(Animal)`, `class Dog extends Animal implements Pet`, a Go struct's embedded fields),
 * and a relation counts only when the server's own definition of that base is the other type's
 * declaration — never a name match. Answers built this way say `source: syntax+server`.
 */
import path from 'node:path';

import { DefinitionRequest, type Location, TypeDefinitionRequest } from 'vscode-languageserver-protocol';

import type { BaseRelation, DeclaredBase, TypeHeader } from '../../adapters/file-structure.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../call.js';
import { locate, type Located, toLocations } from '../locations.js';
import { structureOfText, syncedStructures } from '../structure-index.js';

export const TYPE_KINDS = new Set(['class', 'interface', 'trait', 'struct', 'type', 'model', 'enum']);

/** Where a relation built from a parse tree comes from: the header's syntax, resolved by the server. */
export const SYNTAX_SOURCE = 'syntax+server';

/** A base in a declaration header, resolved by the server. */
export interface HeaderReference {
  name: string;
  relation: BaseRelation;
  /** The catalog type it resolves to, when it is one of the workspace's types. */
  target?: CatalogSymbol;
  /** Where it resolves outside the workspace (standard library, dependencies): path and 1-based line. */
  external?: string;
  externalLine?: number;
}

/** The header of a catalog type in a parsed file: the declaration whose name sits at the symbol's selection. */
function headerIn(types: readonly TypeHeader[], sym: Pick<CatalogSymbol, 'name' | 'selection_line' | 'line' | 'end_line'>): TypeHeader | undefined {
  return (
    types.find((t) => t.name === sym.name && t.at.line === sym.selection_line) ??
    types.find((t) => t.name === sym.name && sym.line <= t.at.line && t.at.line <= sym.end_line)
  );
}

/** The workspace type declared at a 0-based line of a located file (its name's line, else the enclosing top-level type). */
export async function typeAt(call: ServiceCall, where: Located, line0: number): Promise<CatalogSymbol | undefined> {
  if (where.where !== 'inside') return undefined;
  const list = await call.workspace.catalog.fileSymbols(where.file);
  return (
    list.find((s) => TYPE_KINDS.has(s.kind) && s.selection_line === line0 + 1) ??
    list.find((s) => TYPE_KINDS.has(s.kind) && s.line <= line0 + 1 && line0 + 1 <= s.end_line && !s.parent)
  );
}

/** The bases `sym`'s header names (all of them, or those `keep` keeps), read from the file the server has open. */
export async function declaredBases(call: ServiceCall, sym: CatalogSymbol, keep?: (b: DeclaredBase) => boolean): Promise<DeclaredBase[]> {
  const file = await call.file(path.join(call.root, sym.file));
  const structure = await structureOfText(call.workspace, sym.file, file.text, { bounds: call.env.limits, signal: call.signal });
  const header = structure && headerIn(structure.types, sym);
  return (header?.bases ?? []).filter((b) => !keep || keep(b));
}

/** Where a base resolves: workspace types, and places outside the workspace (each a 0-based line). */
interface Resolved {
  targets: CatalogSymbol[];
  outside: { abs: string; line: number }[];
  /** A location inside the workspace that is no type (an alias assignment `_PyFuture = Future`, an import binding). */
  other: boolean;
}

async function resolvedAt(call: ServiceCall, locations: Location[]): Promise<Resolved> {
  const r: Resolved = { targets: [], outside: [], other: false };
  for (const loc of locations) {
    const where = locate(call.root, loc.uri);
    // a secret file or a virtual document names no base anyone may see
    if (where.where === 'refused') continue;
    const target = await typeAt(call, where, loc.range.start.line);
    if (target) r.targets.push(target);
    else if (where.where === 'inside') r.other = true;
    else r.outside.push({ abs: where.abs, line: loc.range.start.line });
  }
  return r;
}

/**
 * The server's definition of a base; where it lands only on something in the workspace that is no
 * type (a name assigned a class, `_PyFuture = Future`), the server's type definition of the same
 * name, which goes through the assignment to the class. A definition that also lands on a type
 * (zod's `const $ZodType` merged with `interface $ZodType`) is the type.
 */
async function resolveBase(call: ServiceCall, file: Awaited<ReturnType<ServiceCall['file']>>, b: DeclaredBase): Promise<Resolved> {
  const position = toLspPosition(file.text, b.at.line, b.at.column, file.session.positionEncoding);
  const params = { textDocument: { uri: file.uri }, position };
  const found = await resolvedAt(call, toLocations(await file.session.request(DefinitionRequest.type, params, { signal: call.signal })));
  if (found.targets.length || found.outside.length || !found.other || !file.session.hasCapability('typeDefinitionProvider')) return found;
  return resolvedAt(call, toLocations(await file.session.request(TypeDefinitionRequest.type, params, { signal: call.signal })));
}

/** The server's definition of each base in `sym`'s header (optionally only the bases `keep` keeps). */
export async function headerReferences(call: ServiceCall, sym: CatalogSymbol, keep?: (b: DeclaredBase) => boolean): Promise<HeaderReference[]> {
  const bases = await declaredBases(call, sym, keep);
  if (!bases.length) return [];
  const file = await call.file(path.join(call.root, sym.file));
  const out: HeaderReference[] = [];
  const seen = new Set<string>();
  for (const b of bases) {
    const { targets, outside } = await resolveBase(call, file, b);
    for (const target of targets) {
      if (seen.has(target.symbol_id) || target.symbol_id === sym.symbol_id) continue;
      seen.add(target.symbol_id);
      out.push({ name: b.name, relation: b.relation, target });
    }
    for (const o of outside) {
      if (seen.has(`${o.abs}:${o.line}`) || copyOfTarget(o.abs, targets)) continue;
      seen.add(`${o.abs}:${o.line}`);
      out.push({ name: b.name, relation: b.relation, external: o.abs, externalLine: o.line + 1 });
    }
  }
  return out;
}

/**
 * Whether an outside definition is another copy of a module a workspace target is in: a workspace
 * holding `concurrent/futures/_base.py` (a vendored or copied standard library) makes pyright answer
 * both it and the interpreter's `…/lib/python3.11/concurrent/futures/_base.py` (or typeshed's stub
 * of it). The base is the workspace's class, named once; an outside place of another path stays.
 */
function copyOfTarget(abs: string, targets: readonly CatalogSymbol[]): boolean {
  // the module's path without its extension: a declaration file (a stub) of the same module is a copy too
  const module = (f: string) => f.slice(0, f.length - path.posix.extname(f).length);
  const file = module(abs.split(path.sep).join('/'));
  return targets.some((t) => file.endsWith(`/${module(t.file)}`));
}

/**
 * Whether a base may name `name`: written as it (`Base`, `core.Base`), through an import that binds
 * it under another name (`import { Base as Root }`, a default import, `use A\Base as Root`), or as a
 * name some module assigns it to (`futures._PyFuture` where futures.py says `_PyFuture = Future`).
 * The server decides; this only spares asking about bases that cannot be it.
 */
function mayName(b: DeclaredBase, name: string, aliases: ReadonlyMap<string, string | undefined>, assigned: ReadonlySet<string>): boolean {
  if (b.name === name || assigned.has(b.name)) return true;
  if (b.head !== b.name || !aliases.has(b.name)) return false;
  const imported = aliases.get(b.name);
  return imported === undefined || imported === name;
}

/** Types of the same language whose header names a base the server resolves to `sym`, with how they relate. */
export async function directSubtypes(call: ServiceCall, sym: CatalogSymbol): Promise<{ sub: CatalogSymbol; relation: BaseRelation }[]> {
  const out: { sub: CatalogSymbol; relation: BaseRelation }[] = [];
  await call.workspace.catalog.ready();
  const structures = await syncedStructures(call.workspace, sym.language, { bounds: call.env.limits, signal: call.signal, unread: (m) => call.meta.warn(m) });
  const assigned = new Set<string>();
  for (const { structure } of structures.values()) for (const a of structure.aliases) if (a.assigned && a.imported === sym.name) assigned.add(a.local);
  for (const [rel, { structure }] of structures) {
    const aliases = new Map(structure.aliases.map((a) => [a.local, a.imported] as const));
    const naming = structure.types.filter((t) => t.bases.some((b) => mayName(b, sym.name, aliases, assigned)));
    if (!naming.length) continue;
    const symbols = (await call.workspace.catalog.fileSymbols(rel)).filter((s) => TYPE_KINDS.has(s.kind));
    for (const t of naming) {
      const c = symbols.find((s) => s.name === t.name && s.selection_line === t.at.line);
      if (!c || c.symbol_id === sym.symbol_id) continue;
      const ref = (await headerReferences(call, c, (b) => mayName(b, sym.name, aliases, assigned))).find((r) => r.target?.symbol_id === sym.symbol_id);
      if (ref) out.push({ sub: c, relation: ref.relation });
    }
  }
  return out.sort((a, b) => a.sub.file.localeCompare(b.sub.file) || a.sub.line - b.sub.line);
}

/** Members named `name` declared directly in `type`. */
export async function membersNamed(call: ServiceCall, type: CatalogSymbol, name: string): Promise<CatalogSymbol[]> {
  const list = await call.workspace.catalog.fileSymbols(type.file);
  return list.filter((s) => s.parent === type.symbol_id && s.name === name);
}
