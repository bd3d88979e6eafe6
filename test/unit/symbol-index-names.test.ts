import { describe, expect, it } from 'vitest';

import { SymbolIndex } from '../../src/catalog/symbol-index.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

/**
 * The by-name lookup while every file is set twice (a syntax entry, then its server's, as in a cold
 * build with both tiers): each name answers the symbols of the files' current entries only, in the
 * order the files were last set, and a removed file's symbols are gone.
 */
function sym(file: string, qualified: string, n: number): CatalogSymbol {
  return { ...catalogSymbol(file, 'typescript', qualified, 'method', n, n), byte_offset: n };
}

function entry(file: string, classes: string[], tier?: 'syntax'): FileEntry {
  const symbols = classes.flatMap((c, i) => [sym(file, `${c}.run`, 2 * i), sym(file, `${c}.stop`, 2 * i + 1)]);
  return { hash: file, size: 0, mtimeMs: 0, language: 'typescript', server: 'ts', symbols, ...(tier ? { tier } : {}) };
}

describe('SymbolIndex by name', () => {
  it('answers the current entries of files set twice, in the order they were last set', () => {
    const index = new SymbolIndex();
    const files = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
    for (const f of files) index.setFile(f, entry(f, ['A', 'B'], 'syntax'));
    // the servers answer in another order, one of them lists a third class
    const serverOrder = [...files].reverse();
    for (const f of serverOrder) index.setFile(f, entry(f, f === 'src/f7.ts' ? ['A', 'B', 'C'] : ['A', 'B']));
    const runs = index.find('run');
    expect(runs).toHaveLength(101);
    expect(runs.every((s) => index.files.get(s.file)!.symbols.includes(s))).toBe(true);
    expect([...new Set(runs.map((s) => s.file))]).toEqual(serverOrder);
    expect(index.find('C.run').map((s) => s.symbol_id)).toEqual(['src/f7.ts::C.run#method']);
    index.removeFile('src/f7.ts');
    expect(index.find('C.run')).toEqual([]);
    expect(index.find('run')).toHaveLength(98);
    expect(index.find('stop').some((s) => s.file === 'src/f7.ts')).toBe(false);
  });
});
