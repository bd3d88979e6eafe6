// The edit hash binds the file's bytes and the edit (edit-hash.ts); the delta's line map moves
// positions outside the changed lines by the edit's own shift (line-map.ts).
import { describe, expect, it } from 'vitest';

import { editHash } from '../../src/service/editing/edit-hash.js';
import { lineMap } from '../../src/service/editing/line-map.js';

describe('edit hash', () => {
  const base = { operation: 'replace_symbol_body', symbol_id: 'a.ts::f#function', before: 'old\n', after: 'new\n', body: 'new' };

  it('differs for another body, operation, symbol, file, new text or option; equal for the same edit', () => {
    const h = editHash(base);
    expect(editHash({ ...base })).toBe(h);
    for (const other of [
      { ...base, body: 'newer' },
      { ...base, operation: 'insert_after_symbol' },
      { ...base, symbol_id: 'a.ts::g#function' },
      { ...base, before: 'old!\n' },
      { ...base, after: 'new!\n' },
      { ...base, include_doc: true },
      { ...base, force: true },
    ])
      expect(editHash(other)).not.toBe(h);
  });
});

describe('line map', () => {
  const before = ['a', 'b', 'c', 'd', 'e'].join('\n');
  const after = ['a', 'X', 'Y', 'Z', 'c', 'd', 'e'].join('\n');
  const m = lineMap(before, after);

  it('lines before the change stay, lines after it shift, lines inside it have no counterpart', () => {
    expect(m.toBefore(1, 'after')).toBe(1);
    expect([2, 3, 4].map((l) => m.toBefore(l, 'after'))).toEqual([undefined, undefined, undefined]);
    expect(m.toBefore(5, 'after')).toBe(3);
    expect(m.toBefore(7, 'after')).toBe(5);
    expect(m.toBefore(2, 'before')).toBe(undefined);
    expect(m.toBefore(4, 'before')).toBe(4);
  });

  it('an unchanged text maps every line to itself', () => {
    const same = lineMap(before, before);
    expect([1, 3, 5].map((l) => same.toBefore(l, 'after'))).toEqual([1, 3, 5]);
  });
});
