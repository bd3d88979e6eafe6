/**
 * Call trees for servers without callHierarchyProvider (intelephense 1.18 answers -32601), built
 * from requests they do have, in the call-hierarchy shape call-tree.ts walks (CallEdge):
 * - callers: textDocument/references at the target; each reference followed by `(` is a call
 *   site, attributed to the innermost function/method around it (documentSymbol of its file);
 *   references outside any function are attributed to the file itself.
 * - callees: the identifiers followed by `(` in the target's body (comments and strings masked),
 *   each resolved with textDocument/definition and kept when it lands on a function, method or
 *   constructor. Definitions outside the workspace are returned as they are; the tree counts them.
 */
import path from 'node:path';

import {
  type CallHierarchyItem,
  DefinitionRequest,
  type DocumentSymbol,
  type Location,
  type Position,
  type Range,
  ReferencesRequest,
  SymbolKind as Lsp,
} from 'vscode-languageserver-protocol';

import type { FileContext } from '../../adapters/types.js';
import { offsetAt } from '../../lsp/positions.js';
import { locate, toLocations } from '../locations.js';
import { comparePositions, innermostAt, rangeContains, walkSymbols } from '../symbols.js';
import type { CallEdge, CallFallbackContext } from './call-fallback-types.js';

const CALLABLE_KINDS: number[] = [Lsp.Function, Lsp.Method, Lsp.Constructor];
/** Bounds the definition round trips one body costs. */
const MAX_CALLS_PER_BODY = 200;
/** Words followed by `(` that are syntax, not calls (PHP, and the C-like languages generally). */
const KEYWORDS = new Set([
  'if',
  'elseif',
  'else',
  'for',
  'foreach',
  'while',
  'do',
  'switch',
  'case',
  'catch',
  'match',
  'function',
  'fn',
  'return',
  'array',
  'list',
  'isset',
  'unset',
  'empty',
  'echo',
  'print',
  'exit',
  'die',
  'include',
  'include_once',
  'require',
  'require_once',
  'declare',
  'use',
  'new',
  'clone',
  'instanceof',
  'and',
  'or',
  'xor',
  'not',
  'eval',
  'sizeof',
  'typeof',
  'yield',
  'await',
  'throw',
]);

async function fileAt(ctx: CallFallbackContext, uri: string): Promise<FileContext | undefined> {
  const where = locate(ctx.call.root, uri);
  if (where.where !== 'inside') return undefined;
  return ctx.call.file(where.abs);
}

function itemOf(file: FileContext, s: DocumentSymbol): CallHierarchyItem {
  return { name: s.name, kind: s.kind, uri: file.uri, range: s.range, selectionRange: s.selectionRange, ...(s.detail ? { detail: s.detail } : {}) };
}

/** Code outside any function (PHP script files) is attributed to the file. */
function fileItem(file: FileContext): CallHierarchyItem {
  const start = { line: 0, character: 0 };
  const end = { line: Math.max(0, file.lines.length - 1), character: 0 };
  return { name: path.basename(file.absPath), kind: Lsp.File, uri: file.uri, range: { start, end }, selectionRange: { start, end: start } };
}

/** True when the text right after `range` (spaces skipped) opens an argument list. */
function followedByParen(file: FileContext, range: Range): boolean {
  const text = file.text;
  let i = offsetAt(text, range.end, file.session.positionEncoding);
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return text[i] === '(';
}

/** A symbol of the file is named at `pos` (a declaration, not a use). */
function declaresAt(file: FileContext, pos: Position): boolean {
  for (const s of walkSymbols(file)) if (comparePositions(s.symbol.selectionRange.start, pos) === 0) return true;
  return false;
}

function sameRange(a: Range, b: Range): boolean {
  return comparePositions(a.start, b.start) === 0 && comparePositions(a.end, b.end) === 0;
}

/**
 * `callsOnly` (a call hierarchy's complement): a class counts only where it is called (`new C(`), and
 * a reference that is itself a declaration's name (an override some servers list) is no call.
 */
export async function incomingCallsFromReferences(
  ctx: CallFallbackContext,
  target: CallHierarchyItem,
  opts: { callsOnly?: boolean } = {},
): Promise<CallEdge[]> {
  const { call, session } = ctx;
  const refs: Location[] =
    (await session.request(
      ReferencesRequest.type,
      { textDocument: { uri: target.uri }, position: target.selectionRange.start, context: { includeDeclaration: false } },
      { signal: call.signal },
    )) ?? [];
  const groups = new Map<string, CallEdge>();
  for (const ref of refs) {
    // Some servers list the declaration even with includeDeclaration: false.
    if (ref.uri === target.uri && sameRange(ref.range, target.selectionRange)) continue;
    const file = await fileAt(ctx, ref.uri);
    if (!file) continue;
    const isClass = target.kind === Lsp.Class && !opts.callsOnly;
    if (!isClass && !followedByParen(file, ref.range)) continue;
    if (opts.callsOnly && declaresAt(file, ref.range.start)) continue;
    // intelephense lists closures and arrow functions as Function symbols named `Closure`: the
    // caller a reader wants is the named function or method around them.
    const encl = innermostAt(file, ref.range.start, (s) => CALLABLE_KINDS.includes(s.symbol.kind) && s.symbol.name !== 'Closure');
    const item = encl ? itemOf(file, encl.symbol) : fileItem(file);
    const key = `${item.uri}\0${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
    let edge = groups.get(key);
    if (!edge) groups.set(key, (edge = { item, sites: [], sitesUri: file.uri }));
    edge.sites.push(ref.range);
  }
  return [...groups.values()];
}

/** Replaces comments and string literals with spaces (same length, newlines kept). */
export function maskCommentsAndStrings(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    const two = text.slice(i, i + 2);
    let end: number | undefined;
    if (two === '//' || (c === '#' && text[i + 1] !== '[')) {
      const nl = text.indexOf('\n', i);
      end = nl < 0 ? text.length : nl;
    } else if (two === '/*') {
      const close = text.indexOf('*/', i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      end = Math.min(text.length, j + 1);
    }
    if (end === undefined) {
      out += c;
      i++;
      continue;
    }
    out += blank(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Call sites in a body: identifiers followed by `(`, not keywords, not `$variable(` calls. */
export function callSitesIn(body: string): { name: string; offset: number }[] {
  const masked = maskCommentsAndStrings(body);
  const out: { name: string; offset: number }[] = [];
  for (const m of masked.matchAll(/([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)\s*\(/g)) {
    const name = m[1]!;
    const before = masked[m.index - 1];
    if (before === '$' || KEYWORDS.has(name.toLowerCase())) continue;
    // `function name(` and `fn(` declare; `new Foo(` constructs a class, not a call of a function.
    const prefix = masked.slice(Math.max(0, m.index - 12), m.index);
    if (/\b(function|new)\s+$/.test(prefix)) continue;
    out.push({ name, offset: m.index });
  }
  return out;
}

function positionOfOffset(lines: string[], startLine: number, offset: number): Position {
  let line = startLine;
  let rest = offset;
  while (line < lines.length && rest > (lines[line] ?? '').length) {
    rest -= (lines[line] ?? '').length + 1;
    line++;
  }
  return { line, character: rest };
}

export async function outgoingCallsFromBody(ctx: CallFallbackContext, target: CallHierarchyItem): Promise<CallEdge[]> {
  const { call, session } = ctx;
  const file = await fileAt(ctx, target.uri);
  if (!file) return [];
  // The body starts after the declaration's name; the name itself is not a call.
  const start = target.selectionRange.end;
  const bodyStartOffset = offsetAt(file.text, start, session.positionEncoding);
  const bodyEndOffset = offsetAt(file.text, target.range.end, session.positionEncoding);
  const body = file.text.slice(bodyStartOffset, bodyEndOffset);
  const lineStartOffset = offsetAt(file.text, { line: start.line, character: 0 }, session.positionEncoding);
  const groups = new Map<string, CallEdge>();
  for (const site of callSitesIn(body).slice(0, MAX_CALLS_PER_BODY)) {
    // JS string offsets are UTF-16 units; convert through the line text for other encodings.
    const rel = bodyStartOffset - lineStartOffset + site.offset;
    const p16 = positionOfOffset(file.lines, start.line, rel);
    const lineText = file.lines[p16.line] ?? '';
    const character = unitsOf(lineText.slice(0, p16.character), session.positionEncoding);
    const pos = { line: p16.line, character };
    const range = { start: pos, end: { line: pos.line, character: character + unitsOf(site.name, session.positionEncoding) } };
    const defs = toLocations(await session.request(DefinitionRequest.type, { textDocument: { uri: file.uri }, position: pos }, { signal: call.signal }));
    const def = defs[0];
    if (!def) continue;
    const item = await calleeItem(ctx, def, site.name);
    if (!item) continue;
    const key = `${item.uri}\0${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
    let edge = groups.get(key);
    if (!edge) groups.set(key, (edge = { item, sites: [], sitesUri: target.uri }));
    edge.sites.push(range);
  }
  return [...groups.values()];
}

function unitsOf(s: string, enc: string): number {
  if (enc === 'utf-8') return Buffer.byteLength(s, 'utf8');
  if (enc === 'utf-32') return [...s].length;
  return s.length;
}

/** The function/method a definition lands on; outside the workspace, an item made from the location. */
async function calleeItem(ctx: CallFallbackContext, def: Location, name: string): Promise<CallHierarchyItem | undefined> {
  const file = await fileAt(ctx, def.uri);
  if (!file) return { name, kind: Lsp.Function, uri: def.uri, range: def.range, selectionRange: def.range };
  const sym = innermostAt(file, def.range.start, (s) => CALLABLE_KINDS.includes(s.symbol.kind) && rangeContains(s.symbol.selectionRange, def.range.start));
  return sym ? itemOf(file, sym.symbol) : undefined;
}
