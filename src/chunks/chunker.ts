/**
 * File → chunks, from what the catalog already holds (exact symbol ranges from the language
 * servers) and the file's parse tree: one `symbol` chunk per declaration worth citing; a class (or
 * trait, struct, enum) is its header, fields and member signatures with its methods' bodies left
 * out, since each method is a chunk of its own; long functions in `function_split` pieces cut
 * between the statements of their body; the lines above the first declaration as the `file_header`
 * (imports); the invariants its comments and raises state (invariants.ts). No I/O: the caller reads the file. A file that holds a private-key block gives no chunk
 * at all, whatever its kind (doc-chunks.ts checks Markdown the same way): it is a secret file by its
 * content (util/secret-files.ts), and a chunk is text that search hands back.
 */
import type { FunctionBody } from '../adapters/file-structure.js';
import { profileOf } from '../adapters/languages.js';
import { isTestPath } from '../adapters/test-files.js';
import type { CatalogSymbol } from '../core/catalog.js';
import { toLspgateError } from '../errors/errors.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { ParseBounds } from '../syntax/job-pool.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { type FileIdioms, namingOf } from './idioms.js';
import { chunkId, contentSha256, linesText, splitLines } from './ids.js';
import { findInvariants, invariantChunks } from './invariants.js';
import { boundedChunkSyntax, type ChunkSyntax, chunkSyntax } from './marks.js';
import { splitRange } from './split.js';
import type { Chunk, ChunkKind } from './types.js';

export interface ChunkSource {
  file: string;
  language: string;
  text: string;
  commitHash: string;
  symbols: readonly CatalogSymbol[];
  /**
   * How long and in how much memory the file's function bodies may be read, in a syntax worker (the
   * workspace's limits; the chunk index always passes them). Absent: read in the caller's thread,
   * for a caller holding a text it made itself (the chunker's own tests).
   */
  bounds?: ParseBounds;
  /** Told why the file's functions are not split at their statements (its parse was over a bound). */
  unsplit?(message: string): void;
  /** Told the file's idiom counts (its package's convention chunk sums them); not called without a parse. */
  idioms?(counts: FileIdioms): void;
}

const DECLARATIONS = new Set<SymbolKind>(['function', 'method', 'constructor', 'class', 'interface', 'trait', 'struct', 'type', 'enum']);
const CONTAINERS = new Set<SymbolKind>(['class', 'interface', 'trait', 'struct', 'enum', 'namespace', 'module', 'package']);
/** Types whose text is an outline: their members' bodies are chunks of their own. */
const OUTLINED = new Set<SymbolKind>(['class', 'interface', 'trait', 'struct', 'enum']);
const SPLITTABLE = new Set<SymbolKind>(['function', 'method', 'constructor', 'variable', 'constant']);
const HEADER_MAX_LINES = 200;
/** Whose names the naming convention counts: a type's name is PascalCase in most languages whatever the package does. */
const NAMED = new Set<SymbolKind>(['function', 'method', 'variable', 'constant']);

/**
 * Declarations, and top-level multi-line variables (`export const parse = (...) => {...}` is a
 * variable to tsserver); never locals, fields or members of a function.
 */
function chunkable(sym: CatalogSymbol, byId: ReadonlyMap<string, CatalogSymbol>): boolean {
  const parent = sym.parent ? byId.get(sym.parent) : undefined;
  if (parent && !CONTAINERS.has(parent.kind)) return false;
  if (DECLARATIONS.has(sym.kind)) return true;
  return !parent && (sym.kind === 'variable' || sym.kind === 'constant') && sym.end_line > sym.line;
}

/**
 * A chunk of lines [start, end]. Its id and content_sha256 are those of the raw cited lines, so a
 * citation is checked against the file as for every chunk; `shown` replaces the text a class chunk
 * indexes and shows (its outline).
 */
export function makeChunk(
  src: ChunkSource,
  lines: readonly string[],
  start: number,
  end: number,
  kind: ChunkKind,
  extra: Partial<Chunk>,
  shown?: string,
): Chunk {
  const raw = linesText(lines, start, end);
  const sha = contentSha256(raw);
  return {
    id: chunkId(src.file, start, end, sha),
    file: src.file,
    start_line: start,
    end_line: end,
    language: src.language,
    is_test: isTestPath(src.file, src.language),
    chunk_kind: kind,
    commit_hash: src.commitHash,
    content_sha256: sha,
    text: shown ?? raw,
    ...extra,
  };
}

/** Where each line starts in the text (UTF-16 offsets, as the parse tree's), by the catalog's line rule. */
function lineOffsets(text: string, lines: readonly string[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const l of lines) {
    out.push(at);
    at += l.length;
    at += text.startsWith('\r\n', at) ? 2 : 1;
  }
  out.push(text.length);
  return out;
}

/** The outermost bodies inside [from, to) in the text, in order (bodies come sorted outermost first). */
function outermostWithin(bodies: readonly FunctionBody[], from: number, to: number): FunctionBody[] {
  const out: FunctionBody[] = [];
  for (const b of bodies) if (b.start >= from && b.end <= to && !(out.length && b.start < out[out.length - 1]!.end)) out.push(b);
  return out;
}

/** A type's lines with its members' bodies replaced by the language's elision (`{ … }`, `...`). */
function outline(
  src: ChunkSource,
  lines: readonly string[],
  offsets: readonly number[],
  sym: CatalogSymbol,
  end: number,
  bodies: readonly FunctionBody[],
): string | undefined {
  const from = offsets[sym.line - 1]!;
  const to = offsets[end - 1]! + lines[end - 1]!.length;
  const inner = outermostWithin(bodies, from, to);
  if (!inner.length) return undefined;
  const elision = profileOf(src.file, src.language)?.chunks.elision ?? '{ … }';
  let out = '';
  let at = from;
  for (const b of inner) {
    out += src.text.slice(at, b.start) + elision;
    at = b.end;
  }
  out += src.text.slice(at, to);
  return splitLines(out).join('\n');
}

/** The statements a function's own body is cut between: the widest body inside its range. */
function statementsOf(sym: CatalogSymbol, end: number, bodies: readonly FunctionBody[]): number[] {
  const inside = bodies.filter((b) => b.start_line >= sym.line && b.end_line <= end);
  const own = inside.reduce<FunctionBody | undefined>(
    (best, b) => (!best || b.end_line - b.start_line > best.end_line - best.start_line ? b : best),
    undefined,
  );
  return own?.statements ?? [];
}

function symbolChunks(src: ChunkSource, lines: readonly string[], offsets: readonly number[], sym: CatalogSymbol, bodies: readonly FunctionBody[]): Chunk[] {
  const extra: Partial<Chunk> = {
    symbol_name: sym.qualified_name,
    symbol_kind: sym.kind,
    symbol_id: sym.symbol_id,
    signature: sym.signature,
    ...(sym.docstring ? { docstring: sym.docstring } : {}),
  };
  const end = Math.min(sym.end_line, lines.length);
  if (OUTLINED.has(sym.kind)) return [makeChunk(src, lines, sym.line, end, 'symbol', extra, outline(src, lines, offsets, sym, end, bodies))];
  const pieces = SPLITTABLE.has(sym.kind) ? splitRange(sym.line, end, statementsOf(sym, end, bodies)) : [[sym.line, end] as [number, number]];
  if (pieces.length === 1) return [makeChunk(src, lines, sym.line, end, 'symbol', extra)];
  return pieces.map(([s, e]) => makeChunk(src, lines, s, e, 'function_split', extra));
}

/** Lines 1..(first declaration − 1) without trailing blank lines: imports, package clause, module docs. */
function headerChunk(src: ChunkSource, lines: readonly string[], firstLine: number): Chunk | undefined {
  let end = Math.min(firstLine - 1, lines.length, HEADER_MAX_LINES);
  while (end >= 1 && lines[end - 1]!.trim() === '') end--;
  if (end < 1) return undefined;
  const name = src.file.slice(src.file.lastIndexOf('/') + 1);
  return makeChunk(src, lines, 1, end, 'file_header', { symbol_name: name, symbol_kind: 'file' });
}

/**
 * The file's function bodies, comments and raises, read in a syntax worker within the bounds; a
 * file over them is cut at its symbols only (its long functions are not split, its invariants not
 * read), and `unsplit` is told why.
 */
async function syntaxOfFile(src: ChunkSource): Promise<ChunkSyntax | undefined> {
  try {
    return await (src.bounds ? boundedChunkSyntax(src.file, src.text, src.bounds) : chunkSyntax(src.file, src.text));
  } catch (e) {
    const err = toLspgateError(e);
    if (err.code !== 'TIMEOUT' && err.code !== 'LIMIT_EXCEEDED') throw err;
    src.unsplit?.(`${err.message} (${err.code}): its functions are chunked whole, not split at their statements, and its invariants are not read`);
    return undefined;
  }
}

export async function chunkSourceFile(src: ChunkSource): Promise<Chunk[]> {
  if (containsPrivateKey(src.text)) return [];
  const lines = splitLines(src.text);
  const syntax = await syntaxOfFile(src);
  const bodies = syntax?.bodies ?? [];
  const offsets = lineOffsets(src.text, lines);
  const byId = new Map(src.symbols.map((s) => [s.symbol_id, s]));
  const chosen = src.symbols.filter((s) => chunkable(s, byId));
  const first = chosen.reduce((m, s) => Math.min(m, s.line), lines.length + 1);
  const header = headerChunk(src, lines, first);
  const out = header ? [header] : [];
  for (const sym of chosen) out.push(...symbolChunks(src, lines, offsets, sym, bodies));
  if (syntax && src.idioms) {
    const counts = { ...syntax.idioms };
    for (const sym of chosen) if (NAMED.has(sym.kind)) counts[namingOf(sym.name)] = (counts[namingOf(sym.name)] ?? 0) + 1;
    src.idioms(counts);
  }
  // after the code chunks: an invariant with the same lines and text as a code chunk has its id, and the code chunk is kept
  const found = syntax ? findInvariants(syntax.marks) : [];
  return [...out, ...invariantChunks(lines, found, out, (s, e, extra) => makeChunk(src, lines, s, e, 'invariant', extra))];
}
