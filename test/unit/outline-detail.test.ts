import { describe, expect, it } from 'vitest';

import type { OutlineSymbol } from '../../src/schema/descriptors.js';
import { shapeOutline } from '../../src/service/descriptors/outline-detail.js';

const node = (name: string, signature: string, children?: OutlineSymbol[]): OutlineSymbol => ({
  kind: 'interface',
  name,
  signature,
  symbol_id: `a.ts::${name}#interface`,
  location: { start_line: 1, end_line: 9 },
  ...(children ? { children } : {}),
});

describe('shapeOutline', () => {
  it('keeps the first line of a signature, at most 100 characters, and marks what it cut', () => {
    const long = `interface Big { ${'x: number; '.repeat(20)}}`;
    const [multi, wide] = shapeOutline([node('A', 'interface A {\n  x: number;\n}'), node('B', long)], 'signatures');
    expect(multi!.signature).toBe('interface A { …');
    expect(wide!.signature!.length).toBe(100);
    expect(wide!.signature!.endsWith('…')).toBe(true);
  });

  it('cuts nesting at depth and keeps ids only in full', () => {
    const tree = [node('A', 'interface A', [node('B', 'interface B', [node('C', 'interface C')])])];
    expect(JSON.stringify(shapeOutline(tree, 'names', 2))).toBe(
      '[{"kind":"interface","name":"A","lines":[1,9],"children":[{"kind":"interface","name":"B","lines":[1,9]}]}]',
    );
    const full = shapeOutline(tree, 'full', 1) as OutlineSymbol[];
    expect([full[0]!.symbol_id, full[0]!.children]).toEqual(['a.ts::A#interface', undefined]);
  });
});
