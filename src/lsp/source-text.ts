/**
 * One file's text with the tables needed to turn LSP positions into UTF-8 byte offsets.
 * LSP positions count characters in the negotiated encoding (utf-16 by default, LSP 3.17
 * `positionEncoding`); the catalog stores byte offsets so `get_symbol` can slice the raw bytes.
 * Out-of-range positions are clamped (a stale server answer must not throw).
 */
import type { Position } from 'vscode-languageserver-protocol';

import type { PositionEncoding } from './types.js';

export class SourceText {
  readonly text: string;
  readonly bytes: Buffer;
  /** Lines without their terminators (LSP: \n, \r\n and \r all end a line). */
  readonly lines: string[];
  /** UTF-8 byte offset of the start of each line. */
  private readonly lineBytes: number[];
  /**
   * UTF-8 byte offset within its line of each character of a long line that is not all ASCII, made
   * on first use: measuring the prefix for every position made a minified line's cost
   * positions × line length.
   */
  private readonly wideLines = new Map<number, Uint32Array>();
  /** Whether each line is all ASCII (a byte per character). */
  private readonly asciiLines: boolean[] = [];

  constructor(bytes: Buffer) {
    this.bytes = bytes;
    this.text = bytes.toString('utf8');
    this.lines = [];
    this.lineBytes = [];
    const re = /\r\n|\r|\n/g;
    let start = 0;
    let byte = 0;
    for (;;) {
      const m = re.exec(this.text);
      const end = m ? m.index : this.text.length;
      const line = this.text.slice(start, end);
      this.lines.push(line);
      this.lineBytes.push(byte);
      const lineBytes = Buffer.byteLength(line);
      this.asciiLines.push(lineBytes === line.length);
      if (!m) break;
      byte += lineBytes + m[0].length;
      start = end + m[0].length;
    }
  }

  /** UTF-8 byte offset of an LSP position, clamped to the file. */
  byteOffset(pos: Position, encoding: PositionEncoding): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.lines.length) return this.bytes.length;
    const line = this.lines[pos.line]!;
    const idx = stringIndex(line, Math.max(0, pos.character), encoding);
    return this.lineBytes[pos.line]! + this.byteInLine(pos.line, line, idx);
  }

  private byteInLine(n: number, line: string, idx: number): number {
    if (this.asciiLines[n]) return idx;
    if (line.length < WIDE_LINE) return Buffer.byteLength(line.slice(0, idx));
    let table = this.wideLines.get(n);
    if (!table) {
      table = new Uint32Array(line.length + 1);
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i);
        // a surrogate pair is 4 bytes: 2 counted on each half
        table[i + 1] = table[i]! + (c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3);
      }
      this.wideLines.set(n, table);
    }
    return table[idx]!;
  }

  /** 1-based column (in UTF-16 code units of the line, as editors count) of an LSP position. */
  column(pos: Position, encoding: PositionEncoding): number {
    const line = this.lines[pos.line];
    if (line === undefined) return 1;
    return stringIndex(line, Math.max(0, pos.character), encoding) + 1;
  }

  /** 0-based line of a byte offset. */
  lineAtByte(offset: number): number {
    let lo = 0;
    let hi = this.lineBytes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineBytes[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Lines at least this long get a byte table (SourceText.byteInLine); shorter ones are measured. */
const WIDE_LINE = 4096;

/** JavaScript string index of `character` counted in `encoding`, clamped to the line. */
function stringIndex(line: string, character: number, encoding: PositionEncoding): number {
  if (encoding === 'utf-16') return Math.min(character, line.length);
  let units = 0;
  let i = 0;
  while (i < line.length && units < character) {
    const cp = line.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    units += encoding === 'utf-32' ? 1 : utf8Length(cp);
    i += width;
  }
  return i;
}

function utf8Length(cp: number): number {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}
