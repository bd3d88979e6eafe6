/**
 * Which bytes a symbol edit touches. The symbol is resolved as every operation resolves one (id,
 * qualified name or name with the same ranking, or file + line), and its declaration range is the
 * catalog's (parse tree) — checked against the bytes on disk now: the range's hash must still be
 * the cataloged one, after one re-catalog of the file, else CONTENT_MODIFIED. The file is put
 * through the write gate first (real path inside the workspace, no secret by name or content).
 * An overload group is one declaration, as get_symbol reads it (declaration-group.ts).
 * The doc comment directly above a declaration (no blank line between) is found from the text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../util/hash.js';
import type { ServiceCall } from '../call.js';
import { declarationAt, declarationGroup } from '../navigation/declaration-group.js';
import { checkOneTarget, filterOf, lookupOne, type TargetInput } from '../navigation/resolve.js';
import { blank, lineEndByte, lineStartByte } from './symbol-text.js';
import { editTargetOfPath } from './workspace-edit.js';

export interface SymbolSpan {
  symbol: CatalogSymbol;
  abs: string;
  /** Workspace-relative path of the real file. */
  file: string;
  bytes: Buffer;
  /** The declaration (all overloads), bytes [start, end). */
  start: number;
  end: number;
  /** Start of the doc comment (its first line's text) above the declaration; `start` when there is none. */
  docStart: number;
  /** The other declarations with the same parent, in order (for separation and placement). */
  siblings: CatalogSymbol[];
}

export async function symbolSpan(call: ServiceCall, input: TargetInput): Promise<SymbolSpan> {
  let sym = await catalogSymbol(call, input);
  const abs = call.resolvePath(sym.file, { expect: 'file' });
  const target = editTargetOfPath(call.root, abs);
  let bytes = readFileSync(target.abs);
  if (!matches(bytes, sym)) {
    // the catalog may lag the disk by a moment (an edit of another tool): re-catalog once, then insist
    await call.workspace.catalog.refresh([sym.file]);
    const again = (await call.workspace.catalog.fileSymbols(sym.file)).find((s) => s.symbol_id === sym.symbol_id);
    bytes = readFileSync(target.abs);
    if (!again || !matches(bytes, again)) {
      throw new LspgateError(
        'CONTENT_MODIFIED',
        `${sym.file} changed and ${sym.qualified_name} is no longer where the catalog has it: nothing was written; find the symbol again`,
        { file: sym.file, symbol_id: sym.symbol_id },
      );
    }
    sym = again;
  }
  const all = await call.workspace.catalog.fileSymbols(sym.file);
  const siblings = all
    .filter((s) => (s.parent === sym.parent && s.kind !== 'property' && s.kind !== 'field' && s.kind !== 'variable') || s.symbol_id === sym.symbol_id)
    .sort((a, b) => a.byte_offset - b.byte_offset);
  const { start, end } = declarationGroup(sym, all, bytes);
  const group = siblings.filter((s) => s.byte_offset < start || s.byte_offset >= end || s.symbol_id === sym.symbol_id);
  // a server whose range starts at the doc comment (intelephense): the declaration starts after it
  const own = afterComments(bytes, start, end);
  const docStart = own > start ? start : docStartOf(bytes, start);
  return { symbol: sym, abs: target.abs, file: target.file, bytes, start: own, end, docStart, siblings: group };
}

function matches(bytes: Buffer, s: CatalogSymbol): boolean {
  return s.byte_offset + s.byte_length <= bytes.length && sha256(bytes.subarray(s.byte_offset, s.byte_offset + s.byte_length)) === s.content_hash;
}

async function catalogSymbol(call: ServiceCall, input: TargetInput): Promise<CatalogSymbol> {
  checkOneTarget(input, false);
  if (input.symbol_id !== undefined) {
    const sym = await call.workspace.catalog.byId(input.symbol_id);
    if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no symbol with id ${input.symbol_id}`, { symbol_id: input.symbol_id });
    return sym;
  }
  if (input.symbol !== undefined) return lookupOne(call, input.symbol, filterOf(input), undefined, { strict: input.strict });
  if (input.line === undefined) throw new LspgateError('INVALID_INPUT', '`file` needs `line` (1-based)');
  const abs = call.resolvePath(input.file!, { expect: 'file' });
  const rel = path.relative(call.root, abs).split(path.sep).join('/');
  const line = input.line;
  const lines = readFileSync(abs, 'utf8').split('\n').length;
  if (line < 1 || line > lines) throw new LspgateError('INVALID_INPUT', `line ${line} is outside ${rel} (1..${lines})`, { line, lines });
  const sym = declarationAt(await call.workspace.catalog.fileSymbols(rel), line, input.column, input.kind);
  if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `no declaration on or around line ${line} of ${rel}`, { file: rel, line });
  return sym;
}

/** The first byte at or after `start` (before `end`) that is neither a comment nor whitespace. */
export function afterComments(bytes: Buffer, start: number, end: number): number {
  const text = bytes.subarray(start, end).toString('utf8');
  let i = 0;
  for (;;) {
    const rest = text.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^\/\*[\s\S]*?\*\/\s*/.exec(rest)) || (m = /^(\/\/|#(?![![]))[^\n]*\n\s*/.exec(rest))) i += m[0].length;
    else break;
  }
  return i === 0 || i >= text.length ? start : start + Buffer.byteLength(text.slice(0, i));
}

const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#(?!!)|--|;)/;

/** The first byte of the comment lines directly above `start`'s line (their text, after indentation); `start` when none. */
export function docStartOf(bytes: Buffer, start: number): number {
  const lineStart = lineStartByte(bytes, start);
  if (!blank(bytes, lineStart, start)) return start;
  let top = lineStart;
  while (top > 0) {
    const prevStart = lineStartByte(bytes, top - 1);
    const line = bytes.subarray(prevStart, top).toString('utf8');
    if (!line.trim() || !COMMENT_LINE.test(line)) break;
    top = prevStart;
  }
  if (top === lineStart) return start;
  let i = top;
  while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
  return i;
}

/** [from, to) widened to whole lines when nothing else shares them, with the line ending. */
export function wholeLines(bytes: Buffer, from: number, to: number): { from: number; to: number; widened: boolean } {
  const ls = lineStartByte(bytes, from);
  const le = lineEndByte(bytes, Math.max(from, to - 1));
  const eolAt = bytes[le - 1] === 0x0a ? le - (bytes[le - 2] === 0x0d ? 2 : 1) : le;
  if (blank(bytes, ls, from) && blank(bytes, to, eolAt)) return { from: ls, to: le, widened: true };
  return { from, to, widened: false };
}

/** The run of blank lines starting at byte `at` (a line start): its end. */
export function blankRunAfter(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length) {
    const le = lineEndByte(bytes, i);
    const text = bytes.subarray(i, le).toString('utf8');
    if (text.trim()) break;
    i = le;
  }
  return i;
}

/** The run of blank lines ending at byte `at` (a line start): its start. */
export function blankRunBefore(bytes: Buffer, at: number): number {
  let i = at;
  while (i > 0) {
    const ls = lineStartByte(bytes, i - 1);
    if (bytes.subarray(ls, i).toString('utf8').trim()) break;
    i = ls;
  }
  return i;
}
