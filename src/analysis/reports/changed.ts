/**
 * changed_symbols: the git diff of the working tree against a ref (git-diff.ts) mapped onto the
 * catalog's symbol ranges of the new files. A changed line belongs to the innermost code symbol
 * around it (functions, methods, classes...; a local variable is part of its function); removed
 * lines belong to the symbol that encloses both their neighbours. Declarations that exist at the
 * ref and no longer do are named `deleted` (found on the ref's text, syntax only). Lines outside
 * every symbol (imports, top-level statements) are listed per file, never dropped.
 */
import { readFileSync } from 'node:fs';

import { diffArrays } from 'diff';

import { boundedSyntaxDeclarations, type SyntaxDeclaration } from '../../adapters/syntax-declarations.js';
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';
import { toLspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { catalogFileSymbols } from '../../service/symbol-ids.js';
import { changedLines, type FileChange, textAtRef } from './git-diff.js';

/** Kinds a change is attributed to; anything else only when it is top-level (a module constant). */
const CODE_KINDS = new Set(['function', 'method', 'constructor', 'class', 'interface', 'trait', 'struct', 'type', 'enum', 'namespace', 'module']);

export interface ChangedSymbol extends SymbolRef {
  end_line: number;
  /**
   * `added`: every line of it is new; `modified`: some lines changed or were removed; `deleted`: it
   * exists at the ref and not in the working tree (then `line`/`end_line` are its lines at the ref).
   */
  change: 'added' | 'modified' | 'deleted';
  changed_lines: number;
}

export interface UnattributedChange {
  file: string;
  /** New-side lines changed outside every symbol. */
  lines: number[];
  /** Lines removed outside every symbol (a deleted function shows here). */
  removed_lines: number;
  /** Why nothing there is a symbol: `outside symbols`, or the file is not cataloged (no server for it). */
  reason: 'outside symbols' | 'not cataloged';
}

export async function changedSymbols(
  call: ServiceCall,
  baseRef: string,
): Promise<{ files: number; symbols: ChangedSymbol[]; unattributed: UnattributedChange[] }> {
  const changes = await changedLines(call.root, baseRef);
  const symbols: ChangedSymbol[] = [];
  const unattributed: UnattributedChange[] = [];
  for (const ch of changes) {
    const base = ch.new_file ? undefined : await baseOf(call, baseRef, ch.file);
    if (ch.deleted_file) {
      const gone = base ? deletedDeclarations(ch.file, base, new Set(), allOldLines(base)) : [];
      symbols.push(...gone);
      const inside = gone.reduce((n, g) => n + g.changed_lines, 0);
      const total = base?.lines.length ?? 0;
      if (!gone.length || total > inside)
        unattributed.push({
          file: ch.file,
          lines: [],
          removed_lines: total - inside,
          reason: gone.length || base?.decls ? 'outside symbols' : 'not cataloged',
        });
      continue;
    }
    // Catalogs it afresh when its content changed (the catalog re-asks a changed file).
    const list = await catalogFileSymbols(call, ch.file).catch(() => undefined);
    if (!list) {
      unattributed.push({
        file: ch.file,
        lines: [...ch.added].sort((a, b) => a - b),
        removed_lines: [...ch.removed.values()].reduce((a, b) => a + b, 0),
        reason: 'not cataloged',
      });
      continue;
    }
    const mapped = mapChange(ch, list, base && (await withCurrent(call, ch.file, base)));
    symbols.push(...mapped.symbols);
    if (mapped.lines.length || mapped.removed)
      unattributed.push({ file: ch.file, lines: mapped.lines, removed_lines: mapped.removed, reason: 'outside symbols' });
  }
  return { files: changes.length, symbols, unattributed };
}

/** A file as it was at the ref: its lines and declarations (syntax: no server has that text open). */
export interface BaseFile {
  lines: string[];
  decls: SyntaxDeclaration[] | undefined;
  /** The working tree's declarations, by the same parser (set for files that still exist). */
  current?: { lines: string[]; decls: SyntaxDeclaration[] };
}

async function baseOf(call: ServiceCall, baseRef: string, file: string): Promise<BaseFile | undefined> {
  const text = await textAtRef(call.root, baseRef, file);
  if (text === undefined) return undefined;
  return { lines: linesOf(text), decls: await declarationsOf(call, file, text) };
}

/**
 * A text's declarations, read in a syntax worker within the parse bounds; a file over them is
 * answered as a file without declarations (its changed lines unattributed) and named in a warning.
 */
async function declarationsOf(call: ServiceCall, file: string, text: string): Promise<SyntaxDeclaration[] | undefined> {
  try {
    return await boundedSyntaxDeclarations(file, text, call.env.limits, call.signal);
  } catch (e) {
    const err = toLspgateError(e);
    if (err.code !== 'TIMEOUT' && err.code !== 'LIMIT_EXCEEDED') throw err;
    call.meta.warn(`${err.message} (${err.code}): its changed lines are not attributed to symbols`);
    return undefined;
  }
}

/** A text's lines, the newline that ends the last one not starting another (git counts lines so). */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function withCurrent(call: ServiceCall, file: string, base: BaseFile): Promise<BaseFile> {
  let text: string;
  try {
    text = readFileSync(call.resolvePath(file, { expect: 'file' }), 'utf8');
  } catch {
    return base;
  }
  const decls = await declarationsOf(call, file, text);
  return decls ? { ...base, current: { lines: linesOf(text), decls } } : base;
}

function allOldLines(base: BaseFile): Set<number> {
  return new Set(base.lines.map((_, i) => i + 1));
}

/** Old-side lines the hunks removed or rewrote. */
function removedOldLines(ch: FileChange): Set<number> {
  const out = new Set<number>();
  for (const h of ch.hunks) for (let l = h.old_start; l < h.old_start + h.old_count; l++) out.add(l);
  return out;
}

/**
 * Declarations of the base whose name line was removed and whose qualified name no longer exists
 * in the file: deleted. Only the outermost is listed (a deleted class, not also each of its
 * methods); its changed_lines are its lines at the ref.
 */
function deletedDeclarations(file: string, base: BaseFile, present: Set<string>, removed: Set<number>): ChangedSymbol[] {
  const out: ChangedSymbol[] = [];
  const gone: SyntaxDeclaration[] = [];
  for (const d of base.decls ?? []) {
    if (!removed.has(d.selection_line) || present.has(d.qualified_name)) continue;
    if (gone.some((g) => d.qualified_name.startsWith(`${g.qualified_name}.`) && g.line <= d.line && d.end_line <= g.end_line)) continue;
    gone.push(d);
    out.push({
      symbol_id: `${file}::${d.qualified_name}#${d.kind}`,
      name: d.name,
      qualified_name: d.qualified_name,
      kind: d.kind,
      file,
      line: d.line,
      end_line: d.end_line,
      change: 'deleted',
      changed_lines: d.end_line - d.line + 1,
    });
  }
  return out;
}

function candidates(list: CatalogSymbol[]): CatalogSymbol[] {
  return list.filter((s) => CODE_KINDS.has(s.kind) || !s.parent);
}

function innermost(list: CatalogSymbol[], from: number, to: number): CatalogSymbol | undefined {
  let best: CatalogSymbol | undefined;
  for (const s of list) if (s.line <= from && to <= s.end_line && (!best || s.byte_length < best.byte_length)) best = s;
  return best;
}

/**
 * A change mapped onto the catalog's symbols of the current file. With the file at the ref
 * (`base`): deleted declarations are named (their removed lines are theirs, not a neighbour's), a
 * removed line inside a declaration that still exists is that declaration's, and a symbol that
 * exists at both ends is changed only if its text differs, by as many lines as a line diff of the
 * two texts says — whatever lines git's alignment put where (a deletion right after a function is
 * often aligned on that function's closing brace).
 */
export function mapChange(ch: FileChange, all: CatalogSymbol[], base?: BaseFile): { symbols: ChangedSymbol[]; lines: number[]; removed: number } {
  const list = candidates(all);
  const hits = new Map<CatalogSymbol, number>();
  const loose: number[] = [];
  const touch = (s: CatalogSymbol, n: number) => hits.set(s, (hits.get(s) ?? 0) + n);
  const deleted = base ? deletedDeclarations(ch.file, base, new Set(all.map((s) => s.qualified_name)), removedOldLines(ch)) : [];
  if (ch.new_file) for (const s of list) if (!s.parent) hits.set(s, s.end_line - s.line + 1);
  for (const line of ch.new_file ? [] : [...ch.added].sort((a, b) => a - b)) {
    const s = innermost(list, line, line);
    if (s) touch(s, 1);
    else loose.push(line);
  }
  const removedLoose = attributeRemovals(ch, list, base, deleted, touch);
  const symbols = [...hits]
    .flatMap(([s, n]): ChangedSymbol[] => {
      const lines = base ? changedLinesAgainst(base, s) : n;
      if (lines === 0) return [];
      const whole = ch.new_file || rangeAdded(ch, s);
      return [
        {
          symbol_id: s.symbol_id,
          name: s.name,
          qualified_name: s.qualified_name,
          kind: s.kind,
          file: s.file,
          line: s.line,
          end_line: s.end_line,
          change: whole ? 'added' : 'modified',
          changed_lines: lines ?? n,
        },
      ];
    })
    .concat(deleted)
    .sort((a, b) => a.line - b.line || (a.change === 'deleted' ? 1 : 0) - (b.change === 'deleted' ? 1 : 0));
  return { symbols, lines: loose, removed: removedLoose };
}

/**
 * Pure deletions (-U0 names the new-side line before them): a line of a deleted declaration is
 * its own; a blank line in the same hunk went with it; a line of a declaration that still exists
 * is that symbol's; anything else goes to the symbol around the place (or is loose). Returns the
 * count of loose removed lines.
 */
function attributeRemovals(
  ch: FileChange,
  list: CatalogSymbol[],
  base: BaseFile | undefined,
  deleted: ChangedSymbol[],
  touch: (s: CatalogSymbol, n: number) => void,
): number {
  const byName = new Map<string, CatalogSymbol>();
  for (const s of list) if (!byName.has(s.qualified_name)) byName.set(s.qualified_name, s);
  let loose = 0;
  for (const h of ch.hunks) {
    if (h.new_count !== 0 || h.old_count === 0) continue;
    const owner = deleted.find((d) => d.line < h.old_start + h.old_count && h.old_start <= d.end_line);
    let count = 0;
    for (let l = h.old_start; l < h.old_start + h.old_count; l++) {
      if (deleted.some((d) => d.line <= l && l <= d.end_line)) continue;
      if (owner && !(base!.lines[l - 1] ?? '').trim()) {
        owner.changed_lines++;
        continue;
      }
      const still = innermostDecl(base?.decls ?? [], l);
      const s = still && byName.get(still.qualified_name);
      if (s) touch(s, 1);
      else count++;
    }
    if (!count) continue;
    const s = innermost(list, h.new_start, h.new_start + 1);
    if (s) touch(s, count);
    else loose += count;
  }
  return loose;
}

function innermostDecl(decls: SyntaxDeclaration[], line: number): SyntaxDeclaration | undefined {
  let best: SyntaxDeclaration | undefined;
  for (const d of decls) if (d.line <= line && line <= d.end_line && (!best || d.end_line - d.line < best.end_line - best.line)) best = d;
  return best;
}

/**
 * Lines changed in a symbol that exists at the ref and now (same parser, same qualified name): a
 * line diff of its two texts, a rewritten line counted once. 0 = the same text; undefined = no
 * counterpart to compare with (then the diff's own count stands).
 */
function changedLinesAgainst(base: BaseFile, s: CatalogSymbol): number | undefined {
  const a = base.decls?.find((d) => d.qualified_name === s.qualified_name);
  const b = base.current?.decls.find((d) => d.qualified_name === s.qualified_name);
  if (!a || !b) return undefined;
  const before = base.lines.slice(a.line - 1, a.end_line);
  const after = base.current!.lines.slice(b.line - 1, b.end_line);
  let changed = 0;
  let removed = 0;
  for (const part of diffArrays(before, after)) {
    const n = part.count ?? part.value.length;
    if (part.removed) removed += n;
    else if (part.added) {
      changed += Math.max(n, removed);
      removed = 0;
    } else {
      changed += removed;
      removed = 0;
    }
  }
  return changed + removed;
}

function rangeAdded(ch: FileChange, s: CatalogSymbol): boolean {
  for (let l = s.line; l <= s.end_line; l++) if (!ch.added.has(l)) return false;
  return true;
}
