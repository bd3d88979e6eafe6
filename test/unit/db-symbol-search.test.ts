import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createRng } from '../../bench/seeded-random.js';
import { DbSymbolSearch } from '../../src/catalog/db-symbol-search.js';
import { CatalogStore } from '../../src/catalog/store.js';
import { rankSymbols } from '../../src/catalog/symbol-search.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { fixedPolicyKey, fixedPolicyKeys, policyOrder, searchPolicyKey } from '../../src/service/navigation/resolution-policy.js';
import { openIndexDb } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { addSymbolTexts } from '../../src/store/symbol-texts.js';
import { SymbolTextsReader, trigramsQuery } from '../../src/store/symbol-texts-reader.js';
import { generatedCatalog, QUERIES, RANKING_FILTERS } from '../helpers/generated-symbols.js';

/**
 * search_symbols from the workspace database (db-symbol-search.ts) against the plain reference:
 * rankSymbols over every symbol, then policyOrder, sliced to the page — the same judge as the
 * in-heap SearchTexts (search-texts-reference.test.ts), after the files are written as the
 * catalog writes them (store.ts writeFile), after edits, and after a migration of a database
 * written before the table.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function entry(list: CatalogSymbol[]): FileEntry {
  return { hash: '', size: 0, mtimeMs: 0, language: 'typescript', server: 'ts', symbols: list };
}

/**
 * A store in a new cache, and the files' entries as the catalog holds them (symbolAt reads these,
 * and counts its reads); `keys`: the search keys the rows carry (the service's cataloger's by default), none when null.
 */
function storeOf(symbols: CatalogSymbol[], keys: ((list: readonly CatalogSymbol[]) => ArrayLike<number>) | null = fixedPolicyKeys) {
  const cache = mkdtempSync(path.join(tmpdir(), 'lspgate-dbsearch-'));
  dirs.push(cache);
  const store = new CatalogStore(cache, 'ws', path.join(cache, 'root'), keys ?? undefined);
  store.load(() => undefined);
  const files = new Map<string, FileEntry>();
  const byFile = new Map<string, CatalogSymbol[]>();
  for (const s of symbols) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  // an entry's order is not the order in the file: the catalog's order (byte offset) is the ranker's to find
  for (const [file, list] of byFile) files.set(file, entry(list.reverse()));
  for (const [file, e] of files) store.writeFile(file, e);
  const reads = { n: 0 };
  const ranker = () =>
    new DbSymbolSearch(new SymbolTextsReader(store.db.db), (rel, ord) => {
      reads.n++;
      return files.get(rel)?.symbols[ord];
    }).refresh();
  return { cache, store, files, ranker, reads };
}

const line = (p: { symbol: CatalogSymbol; score: number }[]) => p.map((h) => `${h.symbol.symbol_id} ${h.score}`);

for (const keyed of [true, false])
  describe(`search_symbols from the database against the reference ranking (generated catalog, 3,000 symbols), ${keyed ? "ranked from the rows' keys" : 'rows without keys'}`, () => {
    const symbols = generatedCatalog(3000, 11);
    // two symbols with one id (the symbols table keeps one; the search must find both)
    const twin = { ...symbols[5]!, name: 'loadTwin', qualified_name: 'loadTwin', byte_offset: 99_999 };
    const all = [...symbols, twin];
    const byId = new Map(all.map((s) => [s.symbol_id, s]));
    const parentOf = (id: string) => byId.get(id);
    // the generated parents are in any file: the keys are worked out with the reference's lookup (the catalog's are in the symbol's file)
    const { ranker, store, reads } = storeOf(all, keyed ? (list) => list.map((s) => fixedPolicyKey(s, parentOf)) : null);
    const texts = ranker();
    const catalogOrder = [...all].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.byte_offset - b.byte_offset));

    it('holds every symbol, the one with a taken id too', () => {
      expect(store.db.db.prepare('SELECT count(*) AS n FROM symbol_texts').get()).toEqual({ n: all.length });
      expect(store.db.db.prepare('SELECT count(*) AS n FROM symbols').get()).toEqual({ n: all.length - 1 });
      expect(line(texts.top('loadTwin', undefined, 5).top)).toEqual([`${twin.symbol_id} 102`]);
      expect(texts.top('lo Or lo Or lo Or lo Or run', undefined, 0).total).toBeGreaterThan(0);
    });

    for (const [label, keep] of RANKING_FILTERS) {
      it(`same page (order, scores) and total for every query, ${label}`, () => {
        // more words than SQLite scores in one statement: scored in JavaScript
        for (const q of [...QUERIES, 'loadTwin', 'twin load', 'lo Or lo Or lo Or lo Or run', 'load order service handler parse config user run get']) {
          const ref = policyOrder(rankSymbols(catalogOrder.filter(keep ?? (() => true)), q), q, parentOf);
          for (const k of [1, 20, 57, 400, Infinity]) {
            const got = texts.top(q, keep, k, searchPolicyKey(texts, q, parentOf));
            expect([q, k, got.total]).toEqual([q, k, ref.length]);
            expect([q, k, line(got.top)]).toEqual([q, k, line(ref.slice(0, k))]);
          }
        }
      }, 120_000);
    }

    it('rank() is rankSymbols exactly (no policy key)', () => {
      for (const q of ['lo', 'run', 'load order', 'prsCfg', '  ']) expect(line(texts.rank(q))).toEqual(line(rankSymbols(catalogOrder, q)));
    });

    it.runIf(keyed)("reads the page's symbols only, however many match (the ranking is the rows' keys)", () => {
      for (const q of ['lo', 'load order', '  ', 'run']) {
        reads.n = 0;
        const page = texts.top(q, undefined, 5, searchPolicyKey(texts, q, parentOf));
        expect(page.total).toBeGreaterThan(100);
        expect([q, reads.n]).toEqual([q, 5]);
      }
    });

    it('keeps no match once its page is made (a query matching most symbols held them all until the next)', () => {
      for (const q of ['lo', 'load order', '  ']) {
        const page = texts.top(q, undefined, 5, searchPolicyKey(texts, q, parentOf));
        expect(page.total).toBeGreaterThan(100);
        expect(texts.symbols.filter((s) => s !== undefined)).toEqual([]);
      }
    });
  });

it("the stored keys are the policy's, a file's parents looked up in that file (the last of an id, as the catalog's byId)", () => {
  const rng = createRng(3);
  const list = generatedCatalog(2000, 23).map((s) => ({ ...s, parent: undefined as string | undefined }));
  const byFile = new Map<string, CatalogSymbol[]>();
  for (const s of list) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  let parented = 0;
  for (const symbols of byFile.values())
    symbols.forEach((s, i) => {
      if (i > 0 && rng.int(2) === 0) {
        s.parent = symbols[rng.int(i)]!.symbol_id;
        parented++;
      }
    });
  expect(parented).toBeGreaterThan(500);
  const byId = new Map(list.map((s) => [s.symbol_id, s]));
  const keys = new Set<number>();
  for (const symbols of byFile.values()) {
    const stored = [...fixedPolicyKeys(symbols)];
    stored.forEach((k) => keys.add(k));
    expect(stored).toEqual(symbols.map((s) => fixedPolicyKey(s, (id) => byId.get(id))));
  }
  expect(keys.size).toBeGreaterThan(4);
});

describe('search_symbols from the database after edits and after a migration', () => {
  it('answers as the reference after every batch of files rewritten, added and removed', () => {
    const rng = createRng(29);
    const { store, files, ranker } = storeOf(generatedCatalog(2000, 17).map((s) => ({ ...s, parent: undefined })));
    const texts = ranker();
    for (let batch = 0; batch < 8; batch++) {
      // odd batches in one transaction, as the catalog's keeper writes them (the FTS entries at its end): a file
      // rewritten or removed after it was written in the same transaction too
      const edits: (() => void)[] = [];
      for (let e = 0; e < 1 + rng.int(6); e++) {
        const names = [...files.keys()];
        const roll = rng.int(10);
        if (roll === 0 && names.length > 5) {
          const gone = rng.pick(names);
          files.delete(gone);
          edits.push(() => store.removeFile(gone));
          continue;
        }
        const file = roll === 1 ? `src/new${rng.int(1_000_000)}.ts` : rng.pick(names);
        const fresh = generatedCatalog(4 + rng.int(30), rng.int(1_000_000)).map((s, i) => ({
          ...s,
          file,
          symbol_id: `${file}::${s.qualified_name}#${s.kind}#e${i}`,
          parent: undefined,
          byte_offset: rng.int(5000),
        }));
        files.set(file, entry(fresh));
        edits.push(() => store.writeFile(file, entry(fresh)));
      }
      if (batch % 2) store.batch(() => edits.forEach((edit) => edit()));
      else edits.forEach((edit) => edit());
      store.db.db.exec("INSERT INTO symbol_texts_fts(symbol_texts_fts, rank) VALUES ('integrity-check', 1)");
      texts.refresh();
      const now = [...files.keys()].sort().flatMap((f) => [...files.get(f)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
      const ids = new Map(now.map((s) => [s.symbol_id, s]));
      const parent = (id: string) => ids.get(id);
      for (const q of ['a', 'lo', 'loadOrder', 'ldOrdr', 'Order.run', 'load order', 'zzzqqq', '  ', 'İ']) {
        const want = policyOrder(rankSymbols(now, q), q, parent);
        const got = texts.top(q, undefined, 57, searchPolicyKey(texts, q, parent));
        expect([batch, q, got.total, line(got.top)]).toEqual([batch, q, want.length, line(want.slice(0, 57))]);
      }
    }
  }, 120_000);

  it("a transaction's files make one segment of the FTS index, written after their rows", () => {
    const { store } = storeOf([]);
    const files = ['src/a.ts', 'src/b.ts', 'src/c.ts'];
    const segments = () => (store.db.db.prepare('SELECT count(DISTINCT segid) AS n FROM symbol_texts_fts_idx').get() as { n: number }).n;
    store.batch(() => {
      for (const [i, file] of files.entries())
        store.writeFile(
          file,
          entry(generatedCatalog(40, i + 1).map((s, j) => ({ ...s, file, symbol_id: `${file}::${s.qualified_name}#${j}`, parent: undefined }))),
        );
    });
    expect(segments()).toBe(1);
    const hits = store.db.db.prepare('SELECT count(*) AS n FROM symbol_texts_fts WHERE symbol_texts_fts MATCH ?');
    expect((hits.get(trigramsQuery('load')) as { n: number }).n).toBeGreaterThan(0);
    // three more files, each in a transaction of its own: a segment each
    for (const [i, name] of files.entries()) {
      const file = name.replace('src/', 'lib/');
      store.writeFile(
        file,
        entry(generatedCatalog(40, i + 9).map((s, j) => ({ ...s, file, symbol_id: `${file}::${s.qualified_name}#${j}`, parent: undefined }))),
      );
    }
    expect(segments()).toBe(1 + files.length);
    store.db.db.exec("INSERT INTO symbol_texts_fts(symbol_texts_fts, rank) VALUES ('integrity-check', 1)");
  });

  it('few rows not plain: read them all instead of narrowing them, the same answers', () => {
    const { store, files, ranker } = storeOf(generatedCatalog(200, 7).map((s) => ({ ...s, parent: undefined })));
    const others = (store.db.db.prepare('SELECT count(*) AS n FROM symbol_texts WHERE plain = 0').get() as { n: number }).n;
    expect(others).toBeGreaterThan(20);
    expect(others).toBeLessThanOrEqual(256);
    const texts = ranker();
    const now = [...files.keys()].sort().flatMap((f) => [...files.get(f)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
    const ids = new Map(now.map((s) => [s.symbol_id, s]));
    for (const q of [...QUERIES, 'naïve', 'İndex', 'naïve load']) {
      const want = policyOrder(rankSymbols(now, q), q, (id) => ids.get(id));
      const got = texts.top(
        q,
        undefined,
        57,
        searchPolicyKey(texts, q, (id) => ids.get(id)),
      );
      expect([q, got.total, line(got.top)]).toEqual([q, want.length, line(want.slice(0, 57))]);
    }
  });

  it('a database written before the table is migrated with its symbols searchable', () => {
    const { cache, store, files } = storeOf(generatedCatalog(500, 5));
    // back to the version before the table: no search table, the symbols stored
    const { db } = store.db;
    db.exec('DROP TABLE symbol_texts_fts; DROP TABLE symbol_texts;');
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(MIGRATIONS.indexOf(addSymbolTexts)));
    store.close();
    const reopened = openIndexDb(cache, 'ws');
    const texts = new DbSymbolSearch(new SymbolTextsReader(reopened.db), (rel, ord) => files.get(rel)?.symbols[ord]).refresh();
    const now = [...files.keys()].sort().flatMap((f) => [...files.get(f)!.symbols].sort((a, b) => a.byte_offset - b.byte_offset));
    for (const q of ['lo', 'loadOrder', 'see json']) expect(line(texts.rank(q))).toEqual(line(rankSymbols(now, q)));
    reopened.close();
  });
});
