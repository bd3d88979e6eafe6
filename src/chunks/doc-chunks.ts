/**
 * Markdown → `doc` chunks: one per heading section (to the next heading; the text above the first
 * heading is a section of its own, named after the file), and a section longer than DOC_MAX_LINES
 * lines or DOC_MAX_CHARS characters cut into pieces that end at a paragraph break (a blank line
 * outside a code fence) as late as the budget allows, or at the budget when a paragraph or fence is
 * longer than it. Every piece keeps its section's title as its name. Headings and fences are read by
 * CommonMark's own line rules (an ATX heading is one line starting with 1–6 `#`; a fence opens and
 * closes with ``` or ~~~): no tree-sitter grammar for Markdown ships with lspgate.
 */
import { containsPrivateKey } from '../util/secret-files.js';
import { type ChunkSource, makeChunk } from './chunker.js';
import { linesText, splitLines } from './ids.js';
import type { Chunk } from './types.js';

export const DOC_MAX_LINES = 80;
export const DOC_MAX_CHARS = 6000;

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

interface Section {
  line: number;
  title: string;
}

/** Heading lines (outside fences) and, per line, whether it is a paragraph break (blank, outside a fence). */
function scan(lines: readonly string[]): { starts: Section[]; breaks: boolean[] } {
  const starts: Section[] = [];
  const breaks: boolean[] = [];
  let fenced = false;
  lines.forEach((l, i) => {
    if (FENCE.test(l)) fenced = !fenced;
    const m = fenced ? null : HEADING.exec(l);
    if (m) starts.push({ line: i + 1, title: m[2]! });
    breaks.push(!fenced && l.trim() === '');
  });
  return { starts, breaks };
}

/** [start, end] pieces of a section within the size budget, cut after paragraph breaks where there are any. */
export function docPieces(lines: readonly string[], breaks: readonly boolean[], start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  while (from <= end) {
    let chars = 0;
    let last = from;
    let cut = -1;
    for (let l = from; l <= end; l++) {
      chars += lines[l - 1]!.length + 1;
      if (l - from + 1 > DOC_MAX_LINES || chars > DOC_MAX_CHARS) break;
      last = l;
      if (breaks[l - 1] && l > from) cut = l;
    }
    const to = last >= end ? end : cut > from ? cut : last;
    let pieceEnd = to;
    while (pieceEnd > from && lines[pieceEnd - 1]!.trim() === '') pieceEnd--;
    if (linesText(lines, from, pieceEnd).trim() !== '') out.push([from, pieceEnd]);
    from = to + 1;
    while (from <= end && lines[from - 1]!.trim() === '') from++;
  }
  return out;
}

/** Markdown by heading sections, split by size; nothing of a file that holds a private-key block (a key in a fenced block is still a key). */
export function chunkMarkdown(src: Omit<ChunkSource, 'symbols'>): Chunk[] {
  if (containsPrivateKey(src.text)) return [];
  const lines = splitLines(src.text);
  const { starts, breaks } = scan(lines);
  if (starts[0]?.line !== 1) starts.unshift({ line: 1, title: src.file.slice(src.file.lastIndexOf('/') + 1) });
  const out: Chunk[] = [];
  starts.forEach((s, i) => {
    let end = (starts[i + 1]?.line ?? lines.length + 1) - 1;
    while (end > s.line && lines[end - 1]!.trim() === '') end--;
    for (const [a, b] of docPieces(lines, breaks, s.line, end)) out.push(makeChunk({ ...src, symbols: [] }, lines, a, b, 'doc', { symbol_name: s.title }));
  });
  return out;
}
