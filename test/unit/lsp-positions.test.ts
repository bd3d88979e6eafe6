import { describe, expect, it } from 'vitest';

import { byteOffsetAt, fromLspPosition, offsetAt, toLspPosition } from '../../src/lsp/positions.js';

// "😀" is one code point, two UTF-16 units, four UTF-8 bytes; "é" is one unit, two bytes.
const text = 'const a = 1;\nlet s = "é😀x"; // end\r\nlast';
const line2 = 'let s = "é😀x"; // end';
const col = (needle: string) => line2.indexOf(needle) + 1; // 1-based UTF-16 column

describe('positions', () => {
  it('utf-16 is the identity on columns', () => {
    expect(toLspPosition(text, 2, col('x'), 'utf-16')).toEqual({ line: 1, character: col('x') - 1 });
    expect(fromLspPosition(text, { line: 1, character: col('x') - 1 }, 'utf-16')).toEqual({ line: 2, column: col('x') });
  });

  it('utf-8 counts bytes: é is 2, the emoji 4', () => {
    const x = toLspPosition(text, 2, col('x'), 'utf-8');
    // 'let s = "' is 9 bytes, é 2, 😀 4
    expect(x).toEqual({ line: 1, character: 9 + 2 + 4 });
    expect(fromLspPosition(text, x, 'utf-8')).toEqual({ line: 2, column: col('x') });
  });

  it('utf-32 counts code points', () => {
    expect(toLspPosition(text, 2, col('x'), 'utf-32')).toEqual({ line: 1, character: 9 + 1 + 1 });
    expect(fromLspPosition(text, { line: 1, character: 11 }, 'utf-32')).toEqual({ line: 2, column: col('x') });
  });

  it('a column between the halves of a surrogate pair snaps to the character start', () => {
    const emoji = col('😀');
    expect(toLspPosition(text, 2, emoji + 1, 'utf-8')).toEqual(toLspPosition(text, 2, emoji, 'utf-8'));
    expect(fromLspPosition(text, { line: 1, character: emoji }, 'utf-16')).toEqual({ line: 2, column: emoji });
    // a utf-8 offset inside the emoji's 4 bytes also lands on its start
    expect(fromLspPosition(text, { line: 1, character: 9 + 2 + 2 }, 'utf-8')).toEqual({ line: 2, column: emoji });
  });

  it('clamps out-of-range lines and characters', () => {
    expect(toLspPosition(text, 0, 0)).toEqual({ line: 0, character: 0 });
    expect(toLspPosition(text, -5, -5)).toEqual({ line: 0, character: 0 });
    expect(toLspPosition(text, 99, 1)).toEqual({ line: 2, character: 0 });
    expect(toLspPosition(text, 1, 999)).toEqual({ line: 0, character: 'const a = 1;'.length });
    // the \r of a CRLF is not part of the line
    expect(toLspPosition(text, 2, 999, 'utf-16')).toEqual({ line: 1, character: line2.length });
    expect(fromLspPosition(text, { line: 1, character: 999 }, 'utf-8')).toEqual({ line: 2, column: line2.length + 1 });
    expect(fromLspPosition(text, { line: 50, character: 3 })).toEqual({ line: 3, column: 'last'.length + 1 });
    expect(toLspPosition(text, Number.POSITIVE_INFINITY, Number.NaN)).toEqual({ line: 2, character: 0 });
  });

  it('offsetAt and byteOffsetAt', () => {
    const pos = { line: 1, character: 9 + 2 + 4 }; // utf-8 position of x
    const idx = offsetAt(text, pos, 'utf-8');
    expect(text[idx]).toBe('x');
    expect(byteOffsetAt(text, pos, 'utf-8')).toBe(Buffer.byteLength(text.slice(0, idx)));
    expect(offsetAt(text, { line: 99, character: 0 })).toBe(text.length);
  });

  it('handles \\r-only line breaks and an empty document', () => {
    expect(toLspPosition('a\rbc', 2, 2)).toEqual({ line: 1, character: 1 });
    expect(toLspPosition('', 3, 3)).toEqual({ line: 0, character: 0 });
    expect(fromLspPosition('', { line: 3, character: 3 })).toEqual({ line: 1, column: 1 });
  });
});
