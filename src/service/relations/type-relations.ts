/**
 * Type relations built from the catalog where a server has no implementation or type-hierarchy
 * provider (pyright; intelephense without a licence). A relation is never a name match: a name in
 * a type's declaration header (`class Dog(Animal)`, `class Dog extends Animal implements Pet`,
 * `type Puppy struct{ Dog }`) counts only when the server's own definition of that name is the
 * other type's declaration.
 */
import path from 'node:path';
import { DefinitionRequest } from 'vscode-languageserver-protocol';
import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../call.js';
import { locate, toLocations, type Located } from '../locations.js';

export const TYPE_KINDS = new Set(['class', 'interface', 'trait', 'struct', 'type', 'model', 'enum']);
/** Lines of a declaration searched for its header (decorators, multi-line extends lists). */
const HEADER_LINES = 6;
const HEADER_KEYWORDS = new Set(['class', 'interface', 'trait', 'struct', 'type', 'enum', 'extends', 'implements', 'abstract', 'final', 'readonly', 'export', 'default', 'declare', 'public', 'metaclass', 'object', 'def']);

/** A name in a declaration header, resolved by the server. */
export interface HeaderReference {
  name: string;
  /** The catalog type it resolves to, when it is one of the workspace's types. */
  target?: CatalogSymbol;
  /** Where it resolves outside the workspace (standard library, dependencies): path and 1-based line. */
  external?: string;
  externalLine?: number;
}

/**
 * The declaration header of a type: its first lines, up to the one that opens the body (`{`, or a
 * Python header's closing `:`). A one-line Go struct keeps its embedded fields (`struct{ Dog }`);
 * embedded fields on later lines of a multi-line struct are not part of the header.
 */
function headerLines(lines: string[], sym: CatalogSymbol): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const last = Math.min(sym.end_line, sym.line + HEADER_LINES - 1, lines.length);
  for (let l = sym.line; l <= last; l++) {
    const text = lines[l - 1] ?? '';
    const brace = text.indexOf('{');
    // the body of a one-line class is not its header; Go's `struct{ Dog }` braces hold embeddings
    out.push({ line: l, text: brace >= 0 && !embeddedNamesOf(sym) ? text.slice(0, brace) : text });
    if (l >= sym.selection_line && (text.includes('{') || /:\s*(#.*)?$/.test(text))) break;
  }
  return out;
}

/**
 * Where only embedded fields relate types (Go: `struct{ Dog }`, an interface embedding another; the
 * braces of a header hold them), the language's reader of those names.
 */
function embeddedNamesOf(sym: CatalogSymbol): ((line: string) => { 0: string; index: number }[]) | undefined {
  return languageProfile(sym.language)?.types.embeddedNames;
}

/** Identifiers of the header other than the type's own name and keywords, with 1-based positions. */
function headerNames(lines: string[], sym: CatalogSymbol, only?: string): { name: string; line: number; column: number }[] {
  const out: { name: string; line: number; column: number }[] = [];
  for (const h of headerLines(lines, sym)) {
    const embedded = embeddedNamesOf(sym);
    const names = embedded ? embedded(h.text) : h.text.matchAll(/[A-Za-z_$][\w$]*/g);
    for (const m of names) {
      const column = m.index + 1;
      if (h.line === sym.selection_line && column === sym.selection_column) continue;
      if (only ? m[0] !== only : HEADER_KEYWORDS.has(m[0])) continue;
      // a name after '@' is a decorator, not a base
      if (h.text.slice(0, m.index).trimEnd().endsWith('@')) continue;
      out.push({ name: m[0], line: h.line, column });
    }
  }
  return out;
}

/** The workspace type declared at a 0-based line of a located file (its name's line, else the enclosing top-level type). */
export async function typeAt(call: ServiceCall, where: Located, line0: number): Promise<CatalogSymbol | undefined> {
  if (where.where !== 'inside') return undefined;
  const list = await call.workspace.catalog.fileSymbols(where.file);
  return list.find((s) => TYPE_KINDS.has(s.kind) && s.selection_line === line0 + 1) ?? list.find((s) => TYPE_KINDS.has(s.kind) && s.line <= line0 + 1 && line0 + 1 <= s.end_line && !s.parent);
}

/** The server's definition of each name in `sym`'s header (optionally only names equal to `only`). */
export async function headerReferences(call: ServiceCall, sym: CatalogSymbol, only?: string): Promise<HeaderReference[]> {
  const file = await call.file(path.join(call.root, sym.file));
  const out: HeaderReference[] = [];
  const seen = new Set<string>();
  for (const n of headerNames(file.lines, sym, only)) {
    const pos = toLspPosition(file.text, n.line, n.column, file.session.positionEncoding);
    const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position: pos }, { signal: call.signal });
    for (const loc of toLocations(answer)) {
      const where = locate(call.root, loc.uri);
      // a secret file or a virtual document names no base anyone may see
      if (where.where === 'refused') continue;
      const abs = where.abs;
      const target = await typeAt(call, where, loc.range.start.line);
      const key = target ? target.symbol_id : abs;
      if (seen.has(key) || target?.symbol_id === sym.symbol_id) continue;
      seen.add(key);
      out.push(target ? { name: n.name, target } : { name: n.name, external: abs, externalLine: loc.range.start.line + 1 });
    }
  }
  return out;
}

/** Types of the same language whose header names `sym` and whose server resolves that name to it. */
export async function directSubtypes(call: ServiceCall, sym: CatalogSymbol): Promise<CatalogSymbol[]> {
  const all = (await call.workspace.catalog.all?.()) ?? [];
  const word = new RegExp(`\\b${sym.name.replace(/[$]/g, '\\$')}\\b`);
  const candidates = all.filter((s) => TYPE_KINDS.has(s.kind) && s.language === sym.language && s.symbol_id !== sym.symbol_id && word.test(s.signature));
  const out: CatalogSymbol[] = [];
  for (const c of candidates) {
    const refs = await headerReferences(call, c, sym.name);
    if (refs.some((r) => r.target?.symbol_id === sym.symbol_id)) out.push(c);
  }
  return out;
}

/** Members named `name` declared directly in `type`. */
export async function membersNamed(call: ServiceCall, type: CatalogSymbol, name: string): Promise<CatalogSymbol[]> {
  const list = await call.workspace.catalog.fileSymbols(type.file);
  return list.filter((s) => s.parent === type.symbol_id && s.name === name);
}
