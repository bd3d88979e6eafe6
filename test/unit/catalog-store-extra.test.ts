/**
 * The fields of a symbol without a column of their own (`extra`, written by hand as JSON by the
 * catalog's store) come back from the database as they were written: strings that JSON must escape,
 * files of one language with different packages one after the other, and a field the type does not
 * list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, expect, it } from 'vitest';

import { CatalogStore } from '../../src/catalog/store.js';
import type { CatalogSymbol, FileEntry } from '../../src/core/catalog.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function entryOf(symbols: CatalogSymbol[]): FileEntry {
  return { hash: 'h', size: 1, mtimeMs: 1, language: symbols[0]!.language, server: 's', symbols };
}

it('reads back every field of every symbol as written, escapes and unlisted fields included', () => {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'lspgate-extra-'));
  dirs.push(cacheDir);
  const store = new CatalogStore(cacheDir, 'w', cacheDir);
  store.load(() => undefined);
  const odd = 'quote " backslash \\ newline \n tab \t é 𝄞 lone \ud800 end';
  const a = { ...catalogSymbol('a.go', 'go', 'T', 'struct', 1, 3), package: 'example.com/a', content_hash: 'f'.repeat(64), lsp_kind: 23, byte_length: 40 };
  const aField = { ...catalogSymbol('a.go', 'go', 'T.x', 'field', 2, 2, 'T'), package: 'example.com/a', parent: `a.go::${odd}`, byte_offset: 12 };
  const b = { ...catalogSymbol('b.go', 'go', 'U', 'struct', 1, 1), package: odd };
  const c = { ...catalogSymbol('c.php', 'php', 'C', 'class', 1, 9), namespace: 'App\\"Models"', language: odd, server: odd };
  const unlisted = { ...catalogSymbol('d.ts', 'typescript', 'f', 'function', 1, 2), deprecated: true, tags: [1, 'two'] } as CatalogSymbol;
  const files: [string, CatalogSymbol[]][] = [
    ['a.go', [a, aField]],
    ['b.go', [b]],
    ['c.php', [c]],
    ['d.ts', [unlisted]],
  ];
  store.batch(() => {
    for (const [rel, symbols] of files) store.writeFile(rel, entryOf(symbols));
  });
  for (const [rel, symbols] of files) expect(store.symbolsOf(rel)).toEqual(symbols);
  store.close();
});
