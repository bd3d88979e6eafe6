/**
 * Target selection: `symbol` (name or qualified name),
 * `symbol_id`, or `file` + `line` (+ `column`), narrowed by kind / language / package / namespace /
 * class_name. Names go through the catalog and the resolution policy (resolution-policy.ts): a
 * clear leader is answered with the others in `_meta.alternatives`, a real tie is AMBIGUOUS_SYMBOL.
 */
import type { Position } from 'vscode-languageserver-protocol';
import { z } from 'zod';

import type { FileContext, SymbolContext } from '../../adapters/types.js';
import type { CatalogSymbol, SymbolFilter } from '../../core/catalog.js';
import { isErrorCode, LspgateError } from '../../errors/errors.js';
import { fromLspPosition, toLspPosition } from '../../lsp/positions.js';
import type { ServiceCall } from '../call.js';
import { raisePriority } from '../server-priority.js';
import { innermostContainingLine, symbolAtSelection, walkSymbols } from '../symbols.js';
import { withoutAliases } from './aliases.js';
import { alternativeOf, choose, compareKeys, type KindFit, rankCandidates, type RankedCandidate } from './resolution-policy.js';

/** Input fields every symbol-taking operation accepts. */
export const targetShape = {
  symbol: z.string().min(1).max(500).optional().describe('Name or qualified name (`Router.ServeHTTP`)'),
  symbol_id: z.string().min(1).max(1000).optional().describe('Id (`path::Type.name#kind`) from an answer'),
  file: z.string().min(1).max(4096).optional().describe('Workspace-relative; with `line`'),
  line: z.number().int().min(1).optional().describe('1-based'),
  column: z.number().int().min(1).optional().describe("1-based; default: the line's symbol"),
  ...filterShape(),
  strict: strictField(),
};

export function strictField() {
  return z.boolean().optional().describe('Never pick: AMBIGUOUS_SYMBOL');
}

export function filterShape() {
  return {
    // narrow a name; their names say to what
    kind: z.string().max(50).optional().describe('function, class, method, ...'),
    language: z.string().max(50).optional(),
    package: z.string().max(500).optional(),
    namespace: z.string().max(500).optional(),
    class_name: z.string().max(500).optional().describe('The type a member belongs to'),
  };
}

export interface TargetInput {
  symbol?: string | undefined;
  symbol_id?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  kind?: string | undefined;
  language?: string | undefined;
  package?: string | undefined;
  namespace?: string | undefined;
  class_name?: string | undefined;
  strict?: boolean | undefined;
}

export interface ResolvedTarget {
  file: FileContext;
  /** LSP position (server encoding) to ask at: the symbol's name, or the caller's exact position. */
  position: Position;
  /** The declaration at the target, when the target is a declaration (or encloses the line). */
  symbol?: SymbolContext;
  catalog?: CatalogSymbol;
  /** What the caller named, for answers: the qualified name or `file:line:column`. */
  label: string;
}

export function filterOf(input: TargetInput): SymbolFilter {
  const f: SymbolFilter = {};
  if (input.kind) f.kind = input.kind;
  if (input.language) f.language = input.language;
  if (input.package) f.package = input.package;
  if (input.namespace) f.namespace = input.namespace;
  if (input.class_name) f.class_name = input.class_name;
  return f;
}

/**
 * INVALID_INPUT unless exactly one way of naming the target is given: a symbol, a symbol_id, or a
 * file (with its line, and `column` where the operation takes one). A line or column without its
 * file is said as such.
 */
export function checkOneTarget(input: Pick<TargetInput, 'symbol' | 'symbol_id' | 'file' | 'line' | 'column'>, withColumn = true): void {
  const given = [input.symbol !== undefined, input.symbol_id !== undefined, input.file !== undefined].filter(Boolean).length;
  if (given === 1) return;
  if (given === 0 && (input.line !== undefined || input.column !== undefined))
    throw new LspgateError('INVALID_INPUT', '`line` and `column` go with `file`: give the file they are in, or a symbol or symbol_id instead');
  throw new LspgateError('INVALID_INPUT', `give exactly one of: symbol, symbol_id, or file + line${withColumn ? ' (+ column)' : ''}`);
}

/** `fit`: the kinds the operation is about (find_callers: callables), ranked first among same-named symbols. */
export async function resolveTarget(call: ServiceCall, input: TargetInput, fit: KindFit = 'any'): Promise<ResolvedTarget> {
  const r = await resolveTargetOrTie(call, input, fit);
  if (r.kind === 'tie') {
    // declarations of a language no server runs for: what to install, whichever of them is meant
    const files = call.workspace.catalog.files();
    if (r.leaders.every((s) => files.get(s.file)?.tier === 'syntax')) await fromCatalogSymbol(call, r.leaders[0]!);
    throw ambiguousError(input.symbol!, filterOf(input), r.ranked, false);
  }
  return r;
}

/** A name several declarations share equally: the tied leaders first, then the rest, ranked. */
export interface NameTie {
  kind: 'tie';
  leaders: CatalogSymbol[];
  ranked: RankedCandidate[];
}

/**
 * A declaration of the catalog asked for by name or symbol_id whose file no server can open (a
 * grammar-only language): an operation the catalog answers exactly (find_definition) answers from it.
 */
export interface ServerlessDeclaration {
  kind: 'serverless';
  symbol: CatalogSymbol;
  /** The SERVER_NOT_INSTALLED opening the file met (its details: the server and its install hint). */
  error: LspgateError;
}

/**
 * As resolveTarget, but a real tie among the declarations of a name (not under `strict`) comes back
 * instead of failing: an operation whose answer is a list (find_definition) answers every one; with
 * `serverless`, so does a declaration asked by name or id whose file has no server.
 */
export async function resolveTargetOrTie(call: ServiceCall, input: TargetInput, fit?: KindFit): Promise<(ResolvedTarget & { kind?: undefined }) | NameTie>;
export async function resolveTargetOrTie(
  call: ServiceCall,
  input: TargetInput,
  fit: KindFit,
  serverless: true,
): Promise<(ResolvedTarget & { kind?: undefined }) | NameTie | ServerlessDeclaration>;
export async function resolveTargetOrTie(
  call: ServiceCall,
  input: TargetInput,
  fit: KindFit = 'any',
  serverless = false,
): Promise<(ResolvedTarget & { kind?: undefined }) | NameTie | ServerlessDeclaration> {
  const fromCatalog = async (sym: CatalogSymbol) => {
    try {
      return await fromCatalogSymbol(call, sym);
    } catch (e) {
      if (serverless && e instanceof LspgateError && e.code === 'SERVER_NOT_INSTALLED') return { kind: 'serverless' as const, symbol: sym, error: e };
      throw e;
    }
  };
  checkOneTarget(input);
  if (input.file !== undefined) return resolvePosition(call, input.file, input.line, input.column);
  if (input.line !== undefined || input.column !== undefined) throw new LspgateError('INVALID_INPUT', '`line` and `column` go with `file`');
  if (input.symbol_id !== undefined) {
    const sym = await call.workspace.catalog.byId(input.symbol_id);
    if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no symbol with id ${input.symbol_id}`, { symbol_id: input.symbol_id });
    return fromCatalog(sym);
  }
  const r = await lookupRanked(call, input.symbol!, filterOf(input), undefined, { fit, strict: input.strict, serverNext: true });
  if (r.kind === 'tie') {
    if (input.strict) throw ambiguousError(input.symbol!, filterOf(input), r.ranked, true);
    return r;
  }
  return fromCatalog(r.symbol);
}

/**
 * "Not found" is only true when every file could be cataloged. When some could not (no server
 * installed, a server that failed), the answer is that failure, with what it cost, never a
 * SYMBOL_NOT_FOUND that reads as "this symbol does not exist".
 */
function failedFilesError(call: ServiceCall, name: string): void {
  const errors = call.workspace.catalog.status().errors;
  if (errors.length === 0) return;
  const byCode = new Map<string, typeof errors>();
  for (const e of errors) byCode.set(e.code, [...(byCode.get(e.code) ?? []), e]);
  const [code, failed] = [...byCode].sort((a, b) => b[1].length - a[1].length)[0]!;
  const first = failed[0]!;
  throw new LspgateError(
    isErrorCode(code) ? code : 'INTERNAL',
    `no symbol named ${name} among the files that could be cataloged; ${errors.length} file(s) could not be: ${first.message}`,
    {
      symbol: name,
      failed_files: errors.length,
      codes: Object.fromEntries([...byCode].map(([c, list]) => [c, list.length])),
      files: errors.slice(0, 10).map((e) => e.file),
    },
  );
}

export interface LookupPolicy {
  fit?: KindFit | undefined;
  strict?: boolean | undefined;
  /** The caller asks the declaration's server next: on a cold catalog it may start while the name resolves. */
  serverNext?: boolean;
}

/**
 * A name → one catalog symbol: the only one, or the policy's strict leader (the others reported in
 * `_meta.alternatives`); else SYMBOL_NOT_FOUND / AMBIGUOUS_SYMBOL with the candidates ranked.
 */
export async function lookupOne(
  call: ServiceCall,
  name: string,
  filter: SymbolFilter,
  accept?: (s: CatalogSymbol) => boolean,
  policy: LookupPolicy = {},
): Promise<CatalogSymbol> {
  const r = await lookupRanked(call, name, filter, accept, policy);
  if (r.kind === 'tie') throw ambiguousError(name, filter, r.ranked, policy.strict === true);
  return r.symbol;
}

const SYMBOL_ID = /^[^\s]+::.+#[A-Za-z_]+$/;

/** As lookupOne, but a tie (or several under `strict`) comes back ranked instead of failing. */
export async function lookupRanked(
  call: ServiceCall,
  name: string,
  filter: SymbolFilter,
  accept?: (s: CatalogSymbol) => boolean,
  policy: LookupPolicy = {},
): Promise<{ kind: 'chosen'; symbol: CatalogSymbol } | NameTie> {
  // an id (`path::Qualified.name#kind`) given where a name goes is the id: exactly that symbol
  if (SYMBOL_ID.test(name)) {
    const byId = await call.workspace.catalog.byId(name);
    if (byId && (!accept || accept(byId))) return { kind: 'chosen', symbol: byId };
  }
  let found = await call.workspace.catalog.lookup(name, filter, {
    onEarly: (e) => resolvedWhileBuilding(call, name, e),
    ...(policy.serverNext ? { onHolders: (files: string[]) => startServerFor(call, files) } : {}),
  });
  if (accept) found = found.filter(accept);
  found = collapseOverloads(found);
  if (found.length === 0) {
    failedFilesError(call, name);
    const details: Record<string, unknown> = { symbol: name, filter };
    const suggestions = await suggest(call, name, filter, accept);
    if (suggestions.length) details.suggestions = suggestions;
    throw new LspgateError('SYMBOL_NOT_FOUND', `no symbol named ${name}${describeFilter(filter)}`, details);
  }
  const catalog = call.workspace.catalog;
  const ranked = await withoutAliases(
    call,
    rankCandidates(found, name, policy.fit ?? 'any', (id) => catalog.cached(id)),
  );
  const r = choose(ranked, policy.strict === true);
  if (r.kind === 'chosen') {
    if (r.alternatives.length) call.meta.addAlternatives(r.alternatives.slice(0, 50).map(alternativeOf));
    if (r.alternatives.length > 50) call.meta.warn(`${r.alternatives.length} other declarations are named ${name}; 50 listed in _meta.alternatives`);
    return { kind: 'chosen', symbol: r.chosen.symbol };
  }
  const first = r.ranked[0]!;
  return { kind: 'tie', leaders: r.ranked.filter((c) => compareKeys(c.key, first.key) === 0).map((c) => c.symbol), ranked: r.ranked };
}

/** A name answered before the syntax pass ended says so: a declaration in a language without a grammar may be missing. */
function resolvedWhileBuilding(call: ServiceCall, name: string, e: { unparsed: number; parsedAhead: number }): void {
  call.meta.setIndexState('indexing');
  call.meta.warn(
    `the catalog was still building (${e.unparsed} file(s) not yet parsed): ${name} was resolved after parsing first the ${e.parsedAhead} of them that mention it; ask again when index_state is ready`,
  );
}

/**
 * While the files that can declare a name are parsed, their server starts loading its project
 * (opening a file is what makes tsserver load one): a name asked on a cold workspace does not start
 * its server much later than the same question by position. Only when the first 20 have one server
 * and root: another language's file that mentions the name must not start a server nobody needs.
 */
function startServerFor(call: ServiceCall, files: string[]): void {
  const routes = new Set(
    files.slice(0, 20).map((f) => {
      const r = call.env.broker.route(f, call.workspace.root);
      return r ? `${r.entry.id}@${r.root}` : '';
    }),
  );
  if (routes.size !== 1 || routes.has('')) return;
  const abs = files[0]!;
  call.env.broker
    .sessionFor(abs, call.workspace.root)
    .then((session) => {
      raisePriority(call.env, session);
      return session.syncDocument(abs);
    })
    .catch((e: unknown) => call.env.logger.debug(`early start of the server for ${abs} failed`, e));
}

function ambiguousError(name: string, filter: SymbolFilter, ranked: RankedCandidate[], strict: boolean): LspgateError {
  const why = strict ? 'strict: true never picks' : 'the leaders tie on kind, scope, file role and case';
  return new LspgateError(
    'AMBIGUOUS_SYMBOL',
    `${ranked.length} symbols are named ${name}${describeFilter(filter)} (${why}): ask again with symbol_id (or narrow with kind, package, class_name)`,
    {
      symbol: name,
      candidates: ranked.slice(0, 50).map((c) => ({
        symbol_id: c.symbol.symbol_id,
        kind: c.symbol.kind,
        name: c.symbol.name,
        qualified_name: c.symbol.qualified_name,
        file: c.symbol.file,
        line: c.symbol.selection_line,
        scope: c.scope,
        role: c.role,
      })),
    },
  );
}

function describeFilter(f: SymbolFilter): string {
  const parts = Object.entries(f).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * TypeScript overloads are several declarations of one function (documentSymbol lists each
 * signature and the implementation): same file, same qualified name, same callable kind → one
 * symbol, the first declaration (it carries the JSDoc and the hover `(+N overloads)`).
 */
export function collapseOverloads(list: CatalogSymbol[]): CatalogSymbol[] {
  const seen = new Set<string>();
  const out: CatalogSymbol[] = [];
  for (const s of [...list].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    const callable = s.kind === 'function' || s.kind === 'method';
    const key = `${s.file}\0${s.qualified_name}\0${s.kind}`;
    if (callable && seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

/** Close names, when cheap: the last segment of a qualified name that was not found. */
async function suggest(call: ServiceCall, name: string, filter: SymbolFilter, accept?: (s: CatalogSymbol) => boolean): Promise<string[]> {
  const last = name
    .split(/::|\\|\.|#/)
    .filter(Boolean)
    .pop();
  const tries = new Set<string>();
  if (last && last !== name) tries.add(last);
  if (name.toLowerCase() !== name) tries.add(name.toLowerCase());
  const out = new Set<string>();
  for (const t of tries) {
    let hits = await call.workspace.catalog.lookup(t, { ...filter, kind: undefined, class_name: undefined });
    if (accept) hits = hits.filter(accept);
    for (const h of hits.slice(0, 10)) out.add(h.qualified_name);
  }
  return [...out].slice(0, 10);
}

export async function fromCatalogSymbol(call: ServiceCall, sym: CatalogSymbol): Promise<ResolvedTarget> {
  const abs = call.resolvePath(sym.file, { expect: 'file' });
  const file = await call.file(abs);
  const position = toLspPosition(file.text, sym.selection_line, sym.selection_column, file.session.positionEncoding);
  const symbol = symbolAtSelection(file, position);
  const t: ResolvedTarget = { file, position, catalog: sym, label: sym.qualified_name };
  if (symbol) t.symbol = symbol;
  return t;
}

/** `file` + `line` (+ `column`) → a position; lines out of range are INVALID_INPUT, never clamped silently. */
export async function resolvePosition(call: ServiceCall, fileInput: string, line: number | undefined, column: number | undefined): Promise<ResolvedTarget> {
  if (line === undefined) throw new LspgateError('INVALID_INPUT', '`file` needs `line` (1-based)');
  const abs = call.resolvePath(fileInput, { expect: 'file' });
  const file = await call.file(abs);
  if (line < 1 || line > file.lines.length) {
    throw new LspgateError('INVALID_INPUT', `line ${line} is outside ${file.relPath} (1..${file.lines.length})`, { line, lines: file.lines.length });
  }
  const text = file.lines[line - 1]!;
  if (column !== undefined) {
    if (column < 1 || column > text.length + 1) {
      throw new LspgateError('INVALID_INPUT', `column ${column} is outside line ${line} of ${file.relPath} (1..${text.length + 1})`, { line, column });
    }
    // A column on a keyword or blank (`export function scale`, column 1: where tsserver's
    // overload ranges start) asks the server about nothing; the name that follows is meant.
    const snapped = snapToIdentifier(text, column);
    const position = toLspPosition(file.text, line, snapped, file.session.positionEncoding);
    const t: ResolvedTarget = { file, position, label: `${file.relPath}:${line}:${column}` };
    const declared = symbolAtSelection(file, position);
    if (declared && declared.symbol.selectionRange.start.line === position.line) t.symbol = declared;
    return t;
  }
  // Without a column: the outermost declaration named on this line (the function, not its
  // parameters — pyright lists parameters as child symbols on the `def` line), else the innermost
  // symbol enclosing the line, else the first identifier on the line.
  const chosen = outermostDeclaredOn(file, line - 1) ?? innermostContainingLine(file, line - 1);
  if (chosen) {
    const p = fromLspPosition(file.text, chosen.symbol.selectionRange.start, file.session.positionEncoding);
    return { file, position: chosen.symbol.selectionRange.start, symbol: chosen, label: `${file.relPath}:${p.line}:${p.column}` };
  }
  const ident = firstIdentifier(text);
  if (ident < 0) throw new LspgateError('SYMBOL_NOT_FOUND', `no symbol or identifier on line ${line} of ${file.relPath}`, { file: file.relPath, line });
  return { file, position: toLspPosition(file.text, line, ident + 1, file.session.positionEncoding), label: `${file.relPath}:${line}:${ident + 1}` };
}

/** The first symbol, parents before children and in source order, whose name is on `line0`. */
export function outermostDeclaredOn(file: FileContext, line0: number): SymbolContext | undefined {
  for (const ctx of walkSymbols(file)) if (ctx.symbol.selectionRange.start.line === line0) return ctx;
  return undefined;
}

const KEYWORDS = new Set(
  'import export from as default const let var function class interface type enum namespace module return new await async if else for while do switch case break continue throw try catch finally public private protected static readonly abstract def func package use fn pub struct impl self this'.split(
    ' ',
  ),
);

/**
 * The 1-based column itself when it is on a non-keyword identifier, else the column of the first
 * non-keyword identifier after it on the line, else the column unchanged.
 */
export function snapToIdentifier(text: string, column: number): number {
  const re = /[A-Za-z_$][\w$]*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end < column - 1) continue; // before the column (a column right after a word still counts as on it)
    if (KEYWORDS.has(m[0])) continue;
    return start < column - 1 ? column : start + 1;
  }
  return column;
}

/** String index of the first non-keyword identifier on a line, or -1. */
export function firstIdentifier(text: string): number {
  const re = /[A-Za-z_$][\w$]*/g;
  const code = text.replace(/\/\/.*$/, '');
  for (let m = re.exec(code); m; m = re.exec(code)) if (!KEYWORDS.has(m[0])) return m.index;
  return -1;
}
