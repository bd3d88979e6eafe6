/**
 * find_definition and find_references: typed LSP requests at the resolved target, locations
 * de-duplicated and sorted, each with a preview and the enclosing symbol.
 */
import { DefinitionRequest, DocumentHighlightKind, DocumentHighlightRequest, type Location, ReferencesRequest } from 'vscode-languageserver-protocol';

import type { FileContext } from '../../adapters/types.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { LineSource, type ResolvedLocation, resolveLocations, toLocations } from '../locations.js';
import { type Preview, preview } from '../previews.js';
import { catalogFileSymbols, containerIn, symbolIdFor } from '../symbol-ids.js';
import { symbolAtSelection } from '../symbols.js';
import { resolveTarget, resolveTargetOrTie, type ServerlessDeclaration, type TargetInput } from './resolve.js';
import { tiedDefinitions } from './tied-definitions.js';
import { type UnreachableUse, unreachableUses, unreachableWarning } from './unreachable-uses.js';
import { unseenFolders, unseenWarning } from './unseen-scope.js';

export type { DefinitionEntry } from './definition-entry.js';
import type { DefinitionEntry } from './definition-entry.js';

/** A preview when the location's text may be quoted (resolveLocations leaves `lines` empty otherwise). */
function previewOf(loc: ResolvedLocation): { preview?: Preview } {
  return loc.lines.length > 0 ? { preview: preview(loc.lines, loc.line) } : {};
}

export async function findDefinition(
  call: ServiceCall,
  input: TargetInput,
): Promise<{ symbol: string; found: boolean; total: number; definitions: DefinitionEntry[]; tied?: true }> {
  const target = await resolveTargetOrTie(call, input, 'any', true);
  if (target.kind === 'tie') return { symbol: input.symbol!, found: true, ...(await tiedDefinitions(call, input.symbol!, target)), tied: true };
  if (target.kind === 'serverless') return serverlessDefinition(call, target);
  const { file } = target;
  const answer = await file.session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position: target.position }, { signal: call.signal });
  const src = new LineSource(call);
  const locs = resolveLocations(call, src, file.session, toLocations(answer));
  const definitions: DefinitionEntry[] = [];
  for (const loc of locs) definitions.push(await definitionEntry(call, loc));
  return { symbol: target.label, found: definitions.length > 0, total: definitions.length, definitions };
}

/**
 * A declaration asked for by name or id in a language no server runs for: it is its own definition, as
 * the catalog lists it (the answer is labelled `syntax`), with the server to install for what only a
 * server resolves (a definition asked at a usage, references, callers).
 */
async function serverlessDefinition(
  call: ServiceCall,
  target: ServerlessDeclaration,
): Promise<{ symbol: string; found: boolean; total: number; definitions: DefinitionEntry[] }> {
  const { definitions } = await tiedDefinitions(call, target.symbol.name, { kind: 'tie', leaders: [target.symbol], ranked: [] }, false);
  const details = (target.error.details ?? {}) as { server?: string; install?: string; language?: string };
  // labelled here too: a configured server whose command is missing (gopls) leaves its files no syntax label of their own
  call.meta.setIndexState('syntax');
  call.meta.warn(
    `no language server for ${details.language ?? target.symbol.language} here: its declaration in the catalog answers (syntax); a definition asked at a usage, references and callers answer SERVER_NOT_INSTALLED until ${
      details.server ?? 'its server'
    } is installed: ${details.install ?? target.error.message}`,
  );
  return { symbol: target.symbol.qualified_name, found: true, total: 1, definitions };
}

export async function definitionEntry(call: ServiceCall, loc: ResolvedLocation): Promise<DefinitionEntry> {
  const base = { file: loc.file, line: loc.line, column: loc.column, end_line: loc.end_line, ...previewOf(loc) };
  const word = identifierAt(loc.lines[loc.line - 1] ?? '', loc.column - 1);
  if (loc.external) return { ...base, name: word, kind: 'external', external: true };
  call.meta.addSourceFile(loc.absPath);
  let file: FileContext;
  try {
    file = await call.file(loc.absPath);
  } catch (e) {
    // A definition in a file no server may open (over maxFileBytes, no server for it) is still a
    // definition: kept with what its text shows.
    if (!(e instanceof LspgateError) || (e.code !== 'LIMIT_EXCEEDED' && e.code !== 'UNSUPPORTED_LANGUAGE')) throw e;
    call.meta.warn(`${loc.file} not opened (${e.code}): its definition has no kind or symbol_id`);
    return { ...base, name: word, kind: 'unknown' };
  }
  const ctx = symbolAtSelection(file, loc.range.start);
  if (!ctx) return { ...base, name: word, kind: 'unknown' };
  const adapter = call.adapter(file);
  const entry: DefinitionEntry = {
    ...base,
    name: ctx.symbol.name,
    kind: adapter.symbolKind(ctx),
    end_line: ctx.symbol.range.end.line + 1,
  };
  const id = await symbolIdFor(call, ctx);
  if (id) entry.symbol_id = id;
  if (ctx.parents.length) entry.container = ctx.parents.map((p) => p.name).join('.');
  return entry;
}

function identifierAt(line: string, index: number): string {
  const m = /^[\w$#]+/.exec(line.slice(index));
  return m ? m[0] : line.slice(index, index + 40).trim();
}

export interface ReferenceEntry {
  file: string;
  line: number;
  column: number;
  preview?: Preview;
  isWrite: boolean;
  container?: string;
  external?: boolean;
}

export async function findReferences(
  call: ServiceCall,
  input: TargetInput & { include_declaration?: boolean | undefined; max_results?: number | undefined },
): Promise<{ symbol: string; total: number; references: ReferenceEntry[]; unreachable?: UnreachableUse[] }> {
  const target = await resolveTarget(call, input);
  const { file } = target;
  const answer = await file.session.request(
    ReferencesRequest.type,
    { textDocument: { uri: file.uri }, position: target.position, context: { includeDeclaration: input.include_declaration ?? true } },
    { signal: call.signal },
  );
  const locs = resolveLocations(call, new LineSource(call), file.session, answer ?? []);
  // a config that leaves folders out of the server's project: their references are not in the answer
  const unseen = unseenFolders(call, file.language);
  if (unseen.folders.length) call.meta.warn(unseenWarning(unseen.folders, unseen.config));
  // uses inside code the server reads as unreachable here: not in its answer, said
  const name = target.catalog?.name ?? target.symbol?.symbol.name ?? wordAt(file, target.position);
  const unreachable = await unreachableUses(call, file.language, name, new Set(locs.map((l) => `${l.file}:${l.line}:${l.column}`)));
  if (unreachable) call.meta.warn(unreachableWarning(file.session.serverId, name, unreachable));
  const max = Math.min(input.max_results ?? 100, call.env.limits.maxResults * 5);
  const shown = locs.slice(0, max);
  if (locs.length > max) {
    call.meta.truncate();
    call.meta.limit({ limit: 'max_results', value: max, detail: `${locs.length} references, ${max} shown` });
  }
  const writes = await writeAccess(call, file, shown);
  const references: ReferenceEntry[] = [];
  for (const loc of shown) {
    const entry: ReferenceEntry = { file: loc.file, line: loc.line, column: loc.column, ...previewOf(loc), isWrite: writes.has(locKey(loc)) };
    if (loc.external) entry.external = true;
    else {
      call.meta.addSourceFile(loc.absPath);
      const container = await containerOf(call, loc);
      if (container) entry.container = container;
    }
    references.push(entry);
  }
  return { symbol: target.label, total: locs.length, references, ...(unreachable?.uses.length ? { unreachable: unreachable.uses } : {}) };
}

/** The identifier around an LSP position of the file (a target given by a position inside a name). */
function wordAt(file: FileContext, pos: { line: number; character: number }): string {
  const line = file.lines[pos.line] ?? '';
  let start = pos.character;
  while (start > 0 && /[\w$]/.test(line[start - 1]!)) start--;
  return identifierAt(line, start);
}

/**
 * The enclosing symbol's qualified name, from the catalog. A file it does not hold (over
 * maxFileBytes, no server) could not be opened in a server either: no container there (warned),
 * the reference itself is kept.
 */
async function containerOf(call: ServiceCall, loc: ResolvedLocation): Promise<string | undefined> {
  const cataloged = await catalogFileSymbols(call, loc.file);
  return cataloged ? containerIn(cataloged, loc.line, loc.column) : undefined;
}

function locKey(loc: { absPath: string; range: Location['range'] }): string {
  return `${loc.absPath}\0${loc.range.start.line}:${loc.range.start.character}`;
}

/**
 * Writes among the references: documentHighlight kinds when the server has the provider and its
 * adapter trusts them, else a lexical check of the text after (or before) the name on its line.
 */
async function writeAccess(call: ServiceCall, file: FileContext, locs: ResolvedLocation[]): Promise<Set<string>> {
  const writes = new Set<string>();
  const useHighlight = call.adapter(file).writeAccess !== 'lexical' && file.session.hasCapability('documentHighlightProvider');
  if (!useHighlight) {
    for (const loc of locs)
      if (isLexicalWrite(loc.lines[loc.line - 1] ?? '', loc.column - 1, loc.end_line === loc.line ? loc.end_column - 1 : undefined)) writes.add(locKey(loc));
    return writes;
  }
  const byFile = new Map<string, ResolvedLocation>();
  for (const loc of locs) if (!loc.external && !byFile.has(loc.absPath)) byFile.set(loc.absPath, loc);
  for (const loc of byFile.values()) {
    const f = await call.file(loc.absPath);
    const hl = await f.session.request(DocumentHighlightRequest.type, { textDocument: { uri: f.uri }, position: loc.range.start }, { signal: call.signal });
    for (const h of hl ?? []) if (h.kind === DocumentHighlightKind.Write) writes.add(`${loc.absPath}\0${h.range.start.line}:${h.range.start.character}`);
  }
  return writes;
}

const ASSIGN_AFTER = /^\s*(?:=(?![=>])|\+=|-=|\*\*=|\*=|\/=|%=|<<=|>>>=|>>=|&&=|\|\|=|\?\?=|&=|\|=|\^=|\.=|\+\+|--|:=)/;
const INCDEC_BEFORE = /(?:\+\+|--)\s*$/;

/** `x = …`, `x += …`, `x++`, `++x` (and `:=`, `.=` for Go/PHP) on the line. */
export function isLexicalWrite(line: string, start: number, end?: number): boolean {
  const m = /^[\w$#]+/.exec(line.slice(start));
  const stop = end ?? start + (m ? m[0].length : 0);
  return ASSIGN_AFTER.test(line.slice(stop)) || INCDEC_BEFORE.test(line.slice(0, start).replace(/(this|self)\.$|\$$/, ''));
}
