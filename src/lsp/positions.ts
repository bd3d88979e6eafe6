/**
 * Position-encoding conversion, in one place. LSP positions are (0-based line, 0-based character)
 * where "character" counts code units of the negotiated encoding (LSP 3.17 `positionEncoding`:
 * utf-16 by default, utf-8 / utf-32 when negotiated). lspgate's callers use 1-based lines and
 * 1-based columns counted in UTF-16 code units (JavaScript string indices).
 * Out-of-range values are clamped, as helix does: servers do send positions past a line's end.
 */
import type { Position } from 'vscode-languageserver-protocol';

import type { PositionEncoding } from './types.js';

/** Texts shorter than this are measured every time (cheaper than a lookup). */
const MEMO_MIN_CHARS = 2048;
const MEMO_SIZE = 8;
/** The last large texts measured, most recent first (a pure function of the text: never stale). */
const recent: { text: string; starts: number[] }[] = [];

/**
 * String index of the start of each line. LSP line breaks: \n, \r\n and \r. The answer is frozen
 * and shared: a warm call measured the same large file three times (its target position, the
 * definition's location, the definition's symbol id: ~0.4 ms on zod's v4/classic/schemas.ts), so
 * the starts of the last few large texts are kept, matched by the text's content.
 */
export function lineStarts(text: string): number[] {
  if (text.length < MEMO_MIN_CHARS) return measureLineStarts(text);
  for (let i = 0; i < recent.length; i++) {
    const r = recent[i]!;
    if (r.text !== text) continue;
    if (i > 0) recent.unshift(...recent.splice(i, 1));
    return r.starts;
  }
  const starts = Object.freeze(measureLineStarts(text)) as number[];
  recent.unshift({ text, starts });
  if (recent.length > MEMO_SIZE) recent.pop();
  return starts;
}

function measureLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** [start, end) string indices of line `line0`, end excluding the line break. */
function lineSpan(text: string, starts: number[], line0: number): [number, number] {
  const start = starts[line0]!;
  let end = line0 + 1 < starts.length ? starts[line0 + 1]! : text.length;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return [start, end];
}

function clamp(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return n > 0 ? hi : lo;
  return Math.min(Math.max(Math.trunc(n), lo), hi);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Units of `enc` in text[start, end). */
function unitsBetween(text: string, start: number, end: number, enc: PositionEncoding): number {
  if (enc === 'utf-16') return end - start;
  let units = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isHighSurrogate(c) && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) {
      units += enc === 'utf-8' ? 4 : 1;
      i++;
    } else if (enc === 'utf-32') {
      units += 1;
    } else {
      units += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    }
  }
  return units;
}

/** String index reached after `units` units of `enc` from `start`, never past `end` nor inside a pair. */
function indexAfterUnits(text: string, start: number, end: number, units: number, enc: PositionEncoding): number {
  if (enc === 'utf-16') {
    let i = Math.min(start + units, end);
    // a position between the halves of a surrogate pair points at the character's start
    if (i > start && i < end && isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))) i--;
    return i;
  }
  let i = start;
  let used = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    const pair = isHighSurrogate(c) && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1));
    const w = enc === 'utf-32' ? 1 : pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (used + w > units) break;
    used += w;
    i += pair ? 2 : 1;
  }
  return i;
}

/** 1-based (line, UTF-16 column) → LSP position in `enc`, clamped into the document. */
export function toLspPosition(text: string, line1: number, col1: number, enc: PositionEncoding = 'utf-16'): Position {
  const starts = lineStarts(text);
  const line0 = clamp(line1 - 1, 0, starts.length - 1);
  const [start, end] = lineSpan(text, starts, line0);
  let idx = start + clamp(col1 - 1, 0, end - start);
  if (idx > start && idx < end && isLowSurrogate(text.charCodeAt(idx)) && isHighSurrogate(text.charCodeAt(idx - 1))) idx--;
  return { line: line0, character: unitsBetween(text, start, idx, enc) };
}

/** String index of an LSP position (clamped). */
export function offsetAt(text: string, pos: Position, enc: PositionEncoding = 'utf-16'): number {
  const starts = lineStarts(text);
  const line0 = clamp(pos.line, 0, starts.length - 1);
  if (pos.line >= starts.length) return text.length; // past the last line: end of document
  const [start, end] = lineSpan(text, starts, line0);
  return indexAfterUnits(text, start, end, Math.max(0, pos.character), enc);
}

/** LSP position → 1-based line and 1-based UTF-16 column (clamped). `starts`: lineStarts(text), when the caller keeps it. */
export function fromLspPosition(
  text: string,
  pos: Position,
  enc: PositionEncoding = 'utf-16',
  starts: number[] = lineStarts(text),
): { line: number; column: number } {
  const line0 = clamp(pos.line, 0, starts.length - 1);
  const [start, end] = lineSpan(text, starts, line0);
  const idx = pos.line >= starts.length ? end : indexAfterUnits(text, start, end, Math.max(0, pos.character), enc);
  return { line: line0 + 1, column: idx - start + 1 };
}

/** UTF-8 byte offset of an LSP position (clamped). */
export function byteOffsetAt(text: string, pos: Position, enc: PositionEncoding = 'utf-16'): number {
  return Buffer.byteLength(text.slice(0, offsetAt(text, pos, enc)), 'utf8');
}
