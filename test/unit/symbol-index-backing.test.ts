import { describe, expect, it } from 'vitest';

import { DriftBaseline } from '../../src/catalog/drift-baseline.js';
import { EntryCache } from '../../src/catalog/entry-cache.js';
import { lastSegment, SymbolIndex } from '../../src/catalog/symbol-index.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

/**
 * The index over a store (a Map standing for the workspace database): stamps in memory, symbols
 * read per file when asked, files set since the last write held until flushed; the drift baseline
 * over it keeps paths and the old symbols of the files replaced since.
 */
function sym(file: string, qualified: string, hash = 'h'): CatalogSymbol {
  return { ...catalogSymbol(file, 'typescript', qualified, 'method', 1, 1), content_hash: hash };
}

function entry(symbols: CatalogSymbol[]): FileEntry {
  return { hash: symbols.map((s) => s.content_hash).join(), size: 1, mtimeMs: 1, language: 'typescript', server: 'ts', symbols };
}

function storeBacked() {
  const stored = new Map<string, CatalogSymbol[]>();
  const reads: string[] = [];
  const index = new SymbolIndex();
  index.attach({
    symbolsOf: (rel) => {
      reads.push(rel);
      return stored.get(rel)?.map((s) => ({ ...s }));
    },
    fileOfId: (id) => [...stored].find(([, ss]) => ss.some((s) => s.symbol_id === id))?.[0],
    filesNamed: (key) => [...stored].filter(([, ss]) => ss.some((s) => lastSegment(s.qualified_name) === key)).map(([rel]) => rel),
    full: () => undefined,
  });
  const write = () => index.flush((rel, e) => (e ? stored.set(rel, [...e.symbols]) : stored.delete(rel)));
  return { stored, reads, index, write };
}

describe('SymbolIndex over a store', () => {
  it('holds set files until written, then reads only the files a question needs', () => {
    const { stored, reads, index, write } = storeBacked();
    for (let i = 0; i < 40; i++) index.setFile(`f${i}.ts`, entry([sym(`f${i}.ts`, `C${i}.run`), sym(`f${i}.ts`, `C${i}.only${i}`)]));
    expect(index.unwritten).toBe(40);
    // pending files answer before any write
    expect(index.find('run')).toHaveLength(40);
    write();
    expect(index.unwritten).toBe(0);
    expect(stored.size).toBe(40);

    // a warm start: stamps and counts only
    const warm = storeBacked();
    for (const [rel, symbols] of stored) {
      warm.stored.set(rel, symbols);
      warm.index.setStored(rel, { hash: 'x', size: 1, mtimeMs: 1, language: 'typescript', server: 'ts' }, symbols.length);
    }
    expect(warm.index.symbolCount()).toBe(80);
    expect(warm.index.resident).toBe(0);
    expect(warm.index.byId('f7.ts::C7.only7#method')?.name).toBe('only7');
    expect(warm.index.find('only12').map((s) => s.symbol_id)).toEqual(['f12.ts::C12.only12#method']);
    expect(warm.reads).toEqual(['f7.ts', 'f12.ts']);
    // read once: the file is kept (bounded) for the next question
    warm.index.byId('f7.ts::C7.run#method');
    expect(warm.reads).toEqual(['f7.ts', 'f12.ts']);

    // a replaced file answers its new symbols before and after its write; a removed one is gone
    warm.index.setFile('f12.ts', entry([sym('f12.ts', 'C12.walk')]));
    warm.index.removeFile('f13.ts');
    expect(warm.index.find('only12')).toEqual([]);
    expect(warm.index.find('walk').map((s) => s.file)).toEqual(['f12.ts']);
    expect(warm.index.find('only13')).toEqual([]);
    warm.index.flush((rel, e) => (e ? warm.stored.set(rel, [...e.symbols]) : warm.stored.delete(rel)));
    expect(warm.stored.has('f13.ts')).toBe(false);
    expect(warm.index.find('walk').map((s) => s.file)).toEqual(['f12.ts']);
    expect(warm.index.find('run')).toHaveLength(38);
    expect(warm.index.symbolCount()).toBe(77);
    expect(reads.length).toBe(0);
  });

  it('writes in slices: a flush told it has done enough leaves the rest pending, still answering', () => {
    const { stored, index, write } = storeBacked();
    for (let i = 0; i < 10; i++) index.setFile(`f${i}.ts`, entry([sym(`f${i}.ts`, `C${i}.run`)]));
    let written = 0;
    index.flush(
      (rel, e) => {
        written++;
        stored.set(rel, [...e!.symbols]);
      },
      undefined,
      () => written >= 4,
    );
    expect(stored.size).toBe(4);
    expect(index.unwritten).toBe(6);
    expect(index.find('run')).toHaveLength(10);
    write();
    expect(index.unwritten).toBe(0);
    expect(stored.size).toBe(10);
    expect(index.find('run')).toHaveLength(10);
  });

  it('drift compares the replaced and removed files only, with their symbols before', () => {
    const { index, write } = storeBacked();
    const baseline = new DriftBaseline(index);
    index.setFile('a.ts', entry([sym('a.ts', 'A.x', '1'), sym('a.ts', 'A.y', '1')]));
    index.setFile('b.ts', entry([sym('b.ts', 'B.x', '1')]));
    write();
    baseline.set();
    index.setFile('a.ts', entry([sym('a.ts', 'A.x', '2'), sym('a.ts', 'A.z', '1')]));
    index.removeFile('b.ts');
    index.setFile('c.ts', entry([sym('c.ts', 'C.x', '1')]));
    write();
    const d = baseline.compare(true);
    expect(d).toMatchObject({
      added: ['a.ts::A.z#method', 'c.ts::C.x#method'],
      removed: ['a.ts::A.y#method', 'b.ts::B.x#method'],
      modified: ['a.ts::A.x#method'],
    });
    expect(baseline.compare(false)).toMatchObject({ added: [], removed: [], modified: [] });
  });
});

describe('EntryCache', () => {
  it('keeps the most recently used files within its symbol count', () => {
    const cache = new EntryCache<number[]>(10);
    cache.set('a', [1, 2, 3, 4]);
    cache.set('b', [1, 2, 3, 4]);
    cache.get('a');
    cache.set('c', [1, 2, 3, 4]);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toHaveLength(4);
    // one file over the bound is kept alone
    cache.set('d', new Array(20).fill(0));
    expect(cache.size).toBe(1);
    expect(cache.get('d')).toHaveLength(20);
  });
});
