/**
 * Invariant chunks (seed 004's `invariant` kind, provenance `auto`) from a file's comments and
 * raises (marks.ts), and the InvariantRef each source chunk gets for the invariants in its lines or
 * in the comment block right above it (a Go doc comment's `Deprecated:` paragraph is above its
 * function, outside the function's range).
 * Tier 1, a marker code already uses: a comment line starting `CRITICAL`, `IMPORTANT`, `WARNING`,
 * `Deprecated:` (Go's doc convention) or `@deprecated` (JSDoc, PHPDoc). Tier 2, a convention
 * marker: `INVARIANT:`, `CONSENSUS:`, `SECURITY:`. Tier 3, a heuristic: a panic, raise or throw
 * whose message carries a policy word (must, never, always, invariant, required).
 * An invariant's lines are its marker's line to the end of that paragraph of the comment (a blank
 * comment line, another marker or a `@tag` ends it); a raise's are the statement's.
 */
import type { CommentBlock, FileMarks } from './marks.js';
import type { Chunk, InvariantRef, InvariantTier } from './types.js';

export interface FoundInvariant {
  start_line: number;
  end_line: number;
  tier: InvariantTier;
  marker: string;
  /** A leading comment's first line of code below it (what it documents); undefined for a raise. */
  anchor?: number;
}

const TIER1 = /^(CRITICAL|IMPORTANT|WARNING)(?=$|[\s:!-])/;
const DEPRECATED = /^(Deprecated:|DEPRECATED:|@deprecated\b)/;
const TIER2 = /^(INVARIANT|CONSENSUS|SECURITY):/;
export const POLICY_WORDS = /\b(must|never|always|invariant|required)\b/i;
/** Invariants per file past this are not kept (a generated file of markers). */
const MAX_PER_FILE = 2_000;

function markerOf(text: string): { tier: InvariantTier; marker: string } | undefined {
  const t = text.trimStart();
  let m = TIER2.exec(t);
  if (m) return { tier: 2, marker: m[1]! };
  m = TIER1.exec(t);
  if (m) return { tier: 1, marker: m[1]! };
  m = DEPRECATED.exec(t);
  if (m) return { tier: 1, marker: m[1]!.startsWith('@') ? '@deprecated' : 'Deprecated' };
  return undefined;
}

function inBlock(block: CommentBlock, out: FoundInvariant[]): void {
  const { lines } = block;
  for (let i = 0; i < lines.length; i++) {
    const found = markerOf(lines[i]!.text);
    if (!found) continue;
    let j = i;
    while (j + 1 < lines.length) {
      const next = lines[j + 1]!.text.trim();
      if (next === '' || next.startsWith('@') || markerOf(next)) break;
      j++;
    }
    out.push({ start_line: lines[i]!.line, end_line: lines[j]!.line, ...found, ...(block.own_line ? { anchor: block.end_line + 1 } : {}) });
    i = j;
  }
}

/** Every invariant the marks hold, in line order. */
export function findInvariants(marks: FileMarks): FoundInvariant[] {
  const out: FoundInvariant[] = [];
  for (const b of marks.comments) inBlock(b, out);
  for (const r of marks.raises) if (POLICY_WORDS.test(r.message)) out.push({ start_line: r.start_line, end_line: r.end_line, tier: 3, marker: r.marker });
  return out.sort((a, b) => a.start_line - b.start_line || a.tier - b.tier).slice(0, MAX_PER_FILE);
}

/** Whether a source chunk holds the invariant: in its lines, or right above its first line. */
function holds(c: Chunk, inv: FoundInvariant): boolean {
  return (c.start_line <= inv.start_line && inv.end_line <= c.end_line) || inv.anchor === c.start_line;
}

const SOURCE_KINDS = new Set(['symbol', 'function_split', 'file_header']);

/**
 * The invariant chunks of a file, and the refs added to its source chunks. Each invariant chunk is
 * named after the innermost declaration chunk holding it (its symbol), so a query for a symbol's
 * invariants finds them by name.
 */
export function invariantChunks(
  lines: readonly string[],
  found: readonly FoundInvariant[],
  source: Chunk[],
  make: (start: number, end: number, extra: Partial<Chunk>) => Chunk,
): Chunk[] {
  const out: Chunk[] = [];
  for (const inv of found) {
    if (inv.end_line > lines.length) continue;
    const holders = source.filter((c) => SOURCE_KINDS.has(c.chunk_kind) && holds(c, inv));
    const inner = holders
      .filter((c) => c.chunk_kind !== 'file_header')
      .reduce<Chunk | undefined>((best, c) => (!best || c.end_line - c.start_line < best.end_line - best.start_line ? c : best), undefined);
    const chunk = make(inv.start_line, inv.end_line, {
      tier: inv.tier,
      marker: inv.marker,
      provenance: 'auto',
      ...(inner?.symbol_name ? { symbol_name: inner.symbol_name } : {}),
      ...(inner?.symbol_kind ? { symbol_kind: inner.symbol_kind } : {}),
      ...(inner?.symbol_id ? { symbol_id: inner.symbol_id } : {}),
    });
    out.push(chunk);
    const ref: InvariantRef = { chunk_id: chunk.id, tier: inv.tier, marker: inv.marker };
    for (const c of holders) (c.invariants ??= []).push(ref);
  }
  return out;
}
