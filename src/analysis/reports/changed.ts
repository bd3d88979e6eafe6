/**
 * changed_symbols: the git diff of the working tree against a ref (git-diff.ts) mapped onto the
 * catalog's symbol ranges of the new files. A changed line belongs to the innermost code symbol
 * around it (functions, methods, classes...; a local variable is part of its function); removed
 * lines belong to the symbol that encloses both their neighbours. Lines outside every symbol
 * (imports, top-level statements, a wholly deleted function) are listed per file, never dropped.
 */
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { catalogFileSymbols } from '../../service/symbol-ids.js';
import { changedLines, type FileChange } from './git-diff.js';

/** Kinds a change is attributed to; anything else only when it is top-level (a module constant). */
const CODE_KINDS = new Set(['function', 'method', 'constructor', 'class', 'interface', 'trait', 'struct', 'type', 'enum', 'namespace', 'module']);

export interface ChangedSymbol extends SymbolRef {
  end_line: number;
  /** `added`: every line of it is new; `modified`: some lines changed or were removed. */
  change: 'added' | 'modified';
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

export async function changedSymbols(call: ServiceCall, baseRef: string): Promise<{ files: number; symbols: ChangedSymbol[]; unattributed: UnattributedChange[] }> {
  const changes = await changedLines(call.root, baseRef);
  const symbols: ChangedSymbol[] = [];
  const unattributed: UnattributedChange[] = [];
  for (const ch of changes) {
    // Catalogs it afresh when its content changed (the catalog re-asks a changed file).
    const list = await catalogFileSymbols(call, ch.file).catch(() => undefined);
    if (!list) {
      unattributed.push({ file: ch.file, lines: [...ch.added].sort((a, b) => a - b), removed_lines: [...ch.removed.values()].reduce((a, b) => a + b, 0), reason: 'not cataloged' });
      continue;
    }
    const mapped = mapChange(ch, list);
    symbols.push(...mapped.symbols);
    if (mapped.lines.length || mapped.removed) unattributed.push({ file: ch.file, lines: mapped.lines, removed_lines: mapped.removed, reason: 'outside symbols' });
  }
  return { files: changes.length, symbols, unattributed };
}

function candidates(list: CatalogSymbol[]): CatalogSymbol[] {
  return list.filter((s) => CODE_KINDS.has(s.kind) || !s.parent);
}

function innermost(list: CatalogSymbol[], from: number, to: number): CatalogSymbol | undefined {
  let best: CatalogSymbol | undefined;
  for (const s of list) if (s.line <= from && to <= s.end_line && (!best || s.byte_length < best.byte_length)) best = s;
  return best;
}

export function mapChange(ch: FileChange, all: CatalogSymbol[]): { symbols: ChangedSymbol[]; lines: number[]; removed: number } {
  const list = candidates(all);
  const hits = new Map<CatalogSymbol, number>();
  const loose: number[] = [];
  let removedLoose = 0;
  const touch = (s: CatalogSymbol | undefined, n: number, line?: number) => {
    if (s) hits.set(s, (hits.get(s) ?? 0) + n);
    else if (line !== undefined) loose.push(line);
  };
  if (ch.new_file) for (const s of list) if (!s.parent) hits.set(s, s.end_line - s.line + 1);
  for (const line of ch.new_file ? [] : [...ch.added].sort((a, b) => a - b)) touch(innermost(list, line, line), 1, line);
  for (const [after, count] of ch.removed) {
    const s = innermost(list, after, after + 1);
    if (s) touch(s, count);
    else removedLoose += count;
  }
  const symbols = [...hits]
    .map(([s, n]): ChangedSymbol => {
      const whole = ch.new_file || rangeAdded(ch, s);
      return { symbol_id: s.symbol_id, name: s.name, qualified_name: s.qualified_name, kind: s.kind, file: s.file, line: s.line, end_line: s.end_line, change: whole ? 'added' : 'modified', changed_lines: n };
    })
    .sort((a, b) => a.line - b.line);
  return { symbols, lines: loose, removed: removedLoose };
}

function rangeAdded(ch: FileChange, s: CatalogSymbol): boolean {
  for (let l = s.line; l <= s.end_line; l++) if (!ch.added.has(l)) return false;
  return true;
}
