/**
 * File → chunks, purely from what the catalog already holds (exact symbol ranges from the language
 * servers) and the file's text: one `symbol` chunk per declaration worth citing, long functions in
 * `function_split` pieces, the lines above the first declaration as the `file_header` (imports),
 * and Markdown heading sections as `doc` chunks. No I/O: the caller reads the file. A file that
 * holds a private-key block gives no chunk at all, whatever its kind: it is a secret file by its
 * content (util/secret-files.ts), and a chunk is text that search hands back. The catalog already
 * keeps such source files out; Markdown is walked here, not by the catalog, so the check is the
 * chunker's own, for every file it cuts.
 */
import type { CatalogSymbol } from '../core/catalog.js';
import type { SymbolKind } from '../schema/descriptors.js';
import { profileOf } from '../adapters/languages.js';
import { isTestPath } from '../adapters/test-files.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { chunkId, contentSha256, linesText, splitLines } from './ids.js';
import { splitRange, statementBoundaries } from './split.js';
import type { Chunk, ChunkKind } from './types.js';

export interface ChunkSource {
  file: string;
  language: string;
  text: string;
  commitHash: string;
  symbols: readonly CatalogSymbol[];
}

const DECLARATIONS = new Set<SymbolKind>(['function', 'method', 'constructor', 'class', 'interface', 'trait', 'struct', 'type', 'enum']);
const CONTAINERS = new Set<SymbolKind>(['class', 'interface', 'trait', 'struct', 'enum', 'namespace', 'module', 'package']);
const SPLITTABLE = new Set<SymbolKind>(['function', 'method', 'constructor', 'variable', 'constant']);
const HEADER_MAX_LINES = 200;

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

function makeChunk(src: ChunkSource, lines: readonly string[], start: number, end: number, kind: ChunkKind, extra: Partial<Chunk>): Chunk {
  const text = linesText(lines, start, end);
  const sha = contentSha256(text);
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
    text,
    ...extra,
  };
}

function symbolChunks(src: ChunkSource, lines: readonly string[], sym: CatalogSymbol): Chunk[] {
  const extra: Partial<Chunk> = { symbol_name: sym.qualified_name, symbol_kind: sym.kind, symbol_id: sym.symbol_id, signature: sym.signature, ...(sym.docstring ? { docstring: sym.docstring } : {}) };
  const end = Math.min(sym.end_line, lines.length);
  const pieces = SPLITTABLE.has(sym.kind) ? splitRange(sym.line, end, statementBoundaries(lines, sym.line, end, profileOf(src.file, src.language)?.chunks.blocks === 'indentation')) : [[sym.line, end] as [number, number]];
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

export function chunkSourceFile(src: ChunkSource): Chunk[] {
  if (containsPrivateKey(src.text)) return [];
  const lines = splitLines(src.text);
  const byId = new Map(src.symbols.map((s) => [s.symbol_id, s]));
  const chosen = src.symbols.filter((s) => chunkable(s, byId));
  const first = chosen.reduce((m, s) => Math.min(m, s.line), lines.length + 1);
  const header = headerChunk(src, lines, first);
  const out = header ? [header] : [];
  for (const sym of chosen) out.push(...symbolChunks(src, lines, sym));
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** Markdown: one `doc` chunk per heading section (to the next heading), and the text above the first. */
export function chunkMarkdown(src: Omit<ChunkSource, 'symbols'>): Chunk[] {
  if (containsPrivateKey(src.text)) return [];
  const lines = splitLines(src.text);
  const starts: { line: number; title: string }[] = [];
  let fenced = false;
  lines.forEach((l, i) => {
    if (FENCE.test(l)) fenced = !fenced;
    const m = fenced ? null : HEADING.exec(l);
    if (m) starts.push({ line: i + 1, title: m[2]! });
  });
  if (starts[0]?.line !== 1) starts.unshift({ line: 1, title: src.file.slice(src.file.lastIndexOf('/') + 1) });
  const out: Chunk[] = [];
  starts.forEach((s, i) => {
    let end = (starts[i + 1]?.line ?? lines.length + 1) - 1;
    while (end > s.line && lines[end - 1]!.trim() === '') end--;
    if (linesText(lines, s.line, end).trim() === '') return;
    out.push(makeChunk({ ...src, symbols: [] }, lines, s.line, end, 'doc', { symbol_name: s.title }));
  });
  return out;
}
