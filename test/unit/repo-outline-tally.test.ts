import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { repoOutline } from '../../src/catalog/outline.js';
import { CatalogStore } from '../../src/catalog/store.js';
import { SymbolIndex } from '../../src/catalog/symbol-index.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { generatedCatalog } from '../helpers/generated-symbols.js';

/**
 * get_repo_outline counts the catalog's symbols without reading them (SymbolIndex.kindCounts and
 * countOf: the stored files counted in the database): the same outline as reading every file's
 * symbols, with files pending, removed, cached and a symbol whose id another holds — and no
 * stored file's symbols read into the heap.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const entry = (list: CatalogSymbol[]): FileEntry => ({ hash: 'h', size: 1, mtimeMs: 0, language: 'typescript', server: 'ts', symbols: list });

function indexOn(store: CatalogStore): SymbolIndex {
  const index = new SymbolIndex();
  index.attach({
    symbolsOf: (rel) => store.symbolsOf(rel),
    fileOfId: (id) => store.fileOfId(id),
    filesNamed: (key) => store.filesNamed(key),
    full: () => undefined,
    countKinds: (of, add) => (store.countKinds(of, add), true),
  });
  return index;
}

describe('get_repo_outline from the database', () => {
  it('counts as reading every symbol would, reading none of the stored ones', () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'lspgate-tally-'));
    dirs.push(cache);
    const store = new CatalogStore(cache, 'ws', path.join(cache, 'root'));
    store.load(() => undefined);
    const symbols = generatedCatalog(3000, 7);
    const byFile = new Map<string, CatalogSymbol[]>();
    for (const s of symbols) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
    // the same id twice in one file (one left as it is stored): the table keeps one, the entry the other
    const base = symbols.findLast((s) => ![...byFile.keys()].slice(0, 3).includes(s.file))!;
    const all = [...symbols, { ...base, name: 'twin', kind: 'constant' as const }];
    byFile.get(base.file)!.push(all.at(-1)!);
    const writer = indexOn(store);
    for (const [rel, list] of byFile) writer.setFile(rel, entry(list));
    writer.flush((rel, e) => (e ? store.writeFile(rel, e) : store.removeFile(rel)));

    // a warm start: stamps only
    const index = indexOn(store);
    store.load((rel, e, count) => index.setStored(rel, e, count));
    const [changed, removed, read] = [...byFile.keys()];
    index.setFile(changed!, entry([symbols[0]!, { ...symbols[1]!, kind: 'interface' }])); // pending, not written
    index.removeFile(removed!);
    void index.files.get(read!)!.symbols; // cached
    expect(index.resident).toBe(3); // the changed and the removed file pending, the read one cached

    const tally = { count: (rel: string) => index.countOf(rel), kinds: () => index.kindCounts() };
    const counted = repoOutline(index.files, 2, tally);
    expect(index.resident).toBe(3); // nothing read to count
    expect(counted.symbol_kinds.constant).toBeGreaterThan(0);
    const byReading = repoOutline(index.files, 2);
    expect(counted).toEqual(byReading);
    expect(counted.symbols).toBe(all.length - byFile.get(removed!)!.length - byFile.get(changed!)!.length + 2);
  });
});
