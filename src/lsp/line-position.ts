/**
 * LSP position → 1-based line and UTF-16 column from a file's lines, converting only the line the
 * position is on. fromLspPosition takes the whole text and finds every line start on each call:
 * a call tree of a few hundred nodes in a 2,000-line file spent most of its time there.
 */
import type { Position } from 'vscode-languageserver-protocol';

import { fromLspPosition } from './positions.js';
import type { PositionEncoding } from './types.js';

export function lineColumnOf(lines: readonly string[], pos: Position, enc: PositionEncoding = 'utf-16'): { line: number; column: number } {
  if (lines.length === 0) return { line: 1, column: 1 };
  if (pos.line >= lines.length) {
    // Past the last line: its end, as fromLspPosition answers.
    const last = lines.length - 1;
    return { line: last + 1, column: lines[last]!.length + 1 };
  }
  const line0 = Math.max(0, pos.line);
  const p = fromLspPosition(lines[line0]!, { line: 0, character: pos.character }, enc);
  return { line: line0 + 1, column: p.column };
}
