import { describe, expect, it } from 'vitest';

import { createRng } from '../../bench/seeded-random.js';
import { SearchTexts } from '../../src/catalog/search-texts.js';
import { SymbolIndex } from '../../src/catalog/symbol-index.js';
import { rankSymbols } from '../../src/catalog/symbol-search.js';
import { selectTop } from '../../src/catalog/top-k.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { policyOrder, searchPolicyKey } from '../../src/service/navigation/resolution-policy.js';
import { generatedCatalog, QUERIES, RANKING_FILTERS } from '../helpers/generated-symbols.js';

/**
 * The gram index, the typed-array order and the page selection (search_symbols' path) against the
 * plain reference: rankSymbols over every symbol, then policyOrder, sliced to the page.
 */
const symbols = generatedCatalog(3000, 11);
const byId = new Map(symbols.map((s) => [s.symbol_id, s]));
const parentOf = (id: string) => byId.get(id);
const texts = new SearchTexts(symbols);

function reference(q: string, keep: (s: CatalogSymbol) => boolean) {
  return policyOrder(rankSymbols(symbols.filter(keep), q), q, parentOf);
}

describe('search_symbols fast path against the reference ranking (generated catalog, 3,000 symbols)', () => {
  for (const [label, keep] of RANKING_FILTERS) {
    it(`same page (order, scores) and total for every query, ${label}`, () => {
      for (const q of QUERIES) {
        const ref = reference(q, keep ?? (() => true));
        for (const k of [1, 20, 57, 400, Infinity]) {
          const got = texts.top(q, keep, k, searchPolicyKey(texts, q, parentOf));
          const want = ref.slice(0, k);
          expect([q, k, got.total]).toEqual([q, k, ref.length]);
          expect([q, k, got.top.map((h) => `${h.symbol.symbol_id} ${h.score}`)]).toEqual([q, k, want.map((h) => `${h.symbol.symbol_id} ${h.score}`)]);
        }
      }
    });
  }

  it('the queries cover broad, narrow and empty answers', () => {
    const totals = QUERIES.map((q) => texts.top(q, undefined, 0).total);
    expect(Math.max(...totals)).toBeGreaterThan(2000);
    expect(totals.filter((t) => t > 0 && t < 50).length).toBeGreaterThan(3);
    expect(totals.filter((t) => t === 0).length).toBeGreaterThan(1);
  });

  it('rank() is rankSymbols exactly (no policy key)', () => {
    for (const q of ['lo', 'run', 'load order', 'prsCfg', '  '])
      expect(texts.rank(q).map((h) => [h.symbol.symbol_id, h.score])).toEqual(rankSymbols(symbols, q).map((h) => [h.symbol.symbol_id, h.score]));
  });

  it('selectTop: the first k of a full sort, for heap and sort sizes', () => {
    const rng = createRng(3);
    const values = Array.from({ length: 5000 }, () => rng.int(300));
    const better = (a: number, b: number) => values[a]! - values[b]! || a - b;
    const sorted = Array.from({ length: values.length }, (_, i) => i).sort(better);
    for (const k of [0, 1, 7, 100, 1249, 1250, 5000, 9000]) expect(selectTop(values.length, k, better)).toEqual(sorted.slice(0, k));
  });
});

/**
 * The structure kept up to date file by file (SearchTexts.sync over the catalog's index) answers
 * exactly as the reference over the catalog as it is after each batch of edits — and as a fresh
 * structure — while only the edited files are re-read (the same structure is kept).
 */
describe('search_symbols after edits, kept up to date file by file', () => {
  const rng = createRng(29);
  const index = new SymbolIndex();
  const entry = (list: CatalogSymbol[]): FileEntry => ({ hash: '', size: 0, mtimeMs: 0, language: 'typescript', server: 'ts', symbols: list });
  const byFile = new Map<string, CatalogSymbol[]>();
  // a symbol's parent encloses it, in its own file (the catalog's flattening): an edit re-reads both
  const generated = generatedCatalog(3000, 17);
  const fileOfId = new Map(generated.map((s) => [s.symbol_id, s.file]));
  for (const s of generated) {
    const own = s.parent === undefined || fileOfId.get(s.parent) === s.file ? s : { ...s, parent: undefined };
    byFile.set(s.file, [...(byFile.get(s.file) ?? []), own]);
  }
  for (const [file, list] of byFile) index.setFile(file, entry(list));
  const current = () => [...index.files.keys()].sort().flatMap((f) => [...index.files.get(f)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
  let texts = SearchTexts.of(index);
  const first = texts;

  /** One edit: a file's symbols replaced (some renamed, some gone, some added), a file removed, or a new one. */
  function edit(): void {
    const files = [...index.files.keys()];
    const roll = rng.int(10);
    if (roll === 0 && files.length > 5) return index.removeFile(rng.pick(files));
    const fresh = generatedCatalog(4 + rng.int(30), rng.int(1_000_000));
    const file = roll === 1 ? `src/new${rng.int(1_000_000)}.ts` : rng.pick(files);
    const moved = fresh.map((s, i) => ({
      ...s,
      file,
      symbol_id: `${file}::${s.qualified_name}#${s.kind}#e${i}`,
      parent: undefined,
      byte_offset: rng.int(5000),
    }));
    index.setFile(file, entry(moved));
  }

  it('answers as the reference and as a fresh structure after every batch of edits', () => {
    for (let batch = 0; batch < 12; batch++) {
      for (let e = 0; e < 1 + rng.int(4); e++) edit();
      texts = texts.sync(index);
      const all = current();
      const ids = new Map(all.map((s) => [s.symbol_id, s]));
      const parent = (id: string) => ids.get(id);
      const fresh = SearchTexts.of(index);
      for (const q of ['a', 'lo', 'loadOrder', 'ldOrdr', 'Order.run', 'load order', 'zzzqqq', '  ', 'İ']) {
        const want = policyOrder(rankSymbols(all, q), q, parent).slice(0, 57);
        const got = texts.top(q, undefined, 57, searchPolicyKey(texts, q, parent));
        const again = fresh.top(q, undefined, 57, searchPolicyKey(fresh, q, parent));
        const line = (p: { top: { symbol: CatalogSymbol; score: number }[] }) => p.top.map((h) => `${h.symbol.symbol_id} ${h.score}`);
        expect([batch, q, got.total, line(got)]).toEqual([batch, q, rankSymbols(all, q).length, want.map((h) => `${h.symbol.symbol_id} ${h.score}`)]);
        expect([batch, q, line(again)]).toEqual([batch, q, line(got)]);
      }
    }
    // a few edits at a time re-read the edited files into the same structure
    expect(texts).toBe(first);
  });

  it('rebuilds when the journal no longer reaches back, or the edits outweigh the structure', () => {
    const stale = { files: index.files, sequence: index.sequence + 1, changedSince: () => undefined };
    expect(texts.sync(stale)).not.toBe(texts);
  });
});
