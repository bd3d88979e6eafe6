// lineColumnOf must answer exactly what fromLspPosition answers on the whole text, in every encoding.
import { describe, expect, it } from 'vitest';

import { lineColumnOf } from '../../src/lsp/line-position.js';
import { fromLspPosition } from '../../src/lsp/positions.js';

const text = 'const a = 1;\n// 😀 emoji é then name\n\tfunc(x) • y\n\nlast';
const lines = text.split('\n');

describe('lineColumnOf', () => {
  it('equals fromLspPosition for every position, encoding, and out-of-range values', () => {
    for (const enc of ['utf-8', 'utf-16', 'utf-32'] as const) {
      for (let line = 0; line <= lines.length + 1; line++) {
        for (let character = 0; character <= 40; character++) {
          expect(lineColumnOf(lines, { line, character }, enc)).toEqual(fromLspPosition(text, { line, character }, enc));
        }
      }
    }
  });
});
