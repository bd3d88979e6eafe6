import { describe, expect, it } from 'vitest';

import type { CatalogSymbol } from '../../src/core/catalog.js';
import { dedupeLocations } from '../../src/service/locations.js';
import { isLexicalWrite } from '../../src/service/navigation/references.js';
import { collapseOverloads, firstIdentifier, snapToIdentifier } from '../../src/service/navigation/resolve.js';
import { preview } from '../../src/service/previews.js';

describe('service helpers', () => {
  it('previews at most 10 lines, clamped to the file', () => {
    const lines = ['a', 'b', 'c', 'd'];
    expect(preview(lines, 1)).toEqual({ lines: ['a', 'b'], start_line: 1 });
    expect(preview(lines, 3)).toEqual({ lines: ['b', 'c', 'd'], start_line: 2 });
    expect(preview(lines, 4, 0, 0)).toEqual({ lines: ['d'], start_line: 4 });
    expect(
      preview(
        Array.from({ length: 50 }, (_, i) => String(i)),
        25,
        20,
        20,
      ).lines,
    ).toHaveLength(10);
  });

  it('tells writes from reads lexically', () => {
    expect(isLexicalWrite('    this.loginCount += 1;', 9)).toBe(true);
    expect(isLexicalWrite('  private loginCount = 0;', 10)).toBe(true);
    expect(isLexicalWrite('    return this.loginCount;', 16)).toBe(false);
    expect(isLexicalWrite('  if (x == y) {', 6)).toBe(false);
    expect(isLexicalWrite('  x++;', 2)).toBe(true);
    expect(isLexicalWrite('  ++x;', 4)).toBe(true);
    expect(isLexicalWrite('  v := 3', 2)).toBe(true);
    expect(isLexicalWrite('  f = (a) => a', 2)).toBe(true);
    expect(isLexicalWrite('  g(x => x)', 4)).toBe(false);
  });

  it('finds the first identifier that is not a keyword', () => {
    expect(firstIdentifier("import { User } from './models/user.js';")).toBe(9);
    expect(firstIdentifier('  // only a comment')).toBe(-1);
  });

  it('snaps a column on a keyword or blank to the name that follows; keeps a column on a name', () => {
    const line = 'export function scale(values: number[], factor: number): number[];';
    expect(snapToIdentifier(line, 1)).toBe(17); // `export` → `scale`
    expect(snapToIdentifier(line, 7)).toBe(17); // the blank after `export`
    expect(snapToIdentifier(line, 19)).toBe(19); // inside `scale`
    expect(snapToIdentifier(line, 22)).toBe(22); // right after `scale`
    expect(snapToIdentifier(line, 24)).toBe(24); // inside `values`
    expect(snapToIdentifier('   ', 2)).toBe(2);
  });

  it('collapses TS overload declarations into one symbol, keeps distinct symbols', () => {
    const sym = (id: string, line: number, q = 'scale', kind: CatalogSymbol['kind'] = 'function') =>
      ({ symbol_id: id, file: 'src/m.ts', name: q, qualified_name: q, kind, line }) as CatalogSymbol;
    expect(collapseOverloads([sym('b', 4), sym('a', 2), sym('c', 5)]).map((s) => s.symbol_id)).toEqual(['a']);
    expect(collapseOverloads([sym('a', 2, 'A', 'class'), sym('b', 9, 'A', 'interface')]).map((s) => s.symbol_id)).toEqual(['a', 'b']);
  });

  it('de-duplicates locations repeated per project and sorts them', () => {
    const r = (line: number) => ({ start: { line, character: 1 }, end: { line, character: 4 } });
    expect(
      dedupeLocations([
        { uri: 'file:///b.ts', range: r(1) },
        { uri: 'file:///a.ts', range: r(3) },
        { uri: 'file:///b.ts', range: r(1) },
        { uri: 'file:///a.ts', range: r(2) },
      ]),
    ).toEqual([
      { uri: 'file:///a.ts', range: r(2) },
      { uri: 'file:///a.ts', range: r(3) },
      { uri: 'file:///b.ts', range: r(1) },
    ]);
  });
});
