import { describe, expect, it } from 'vitest';

import { pathRole } from '../../src/adapters/test-files.js';
import { SearchTexts } from '../../src/catalog/search-texts.js';
import { rankSymbols } from '../../src/catalog/symbol-search.js';
import type { CatalogSymbol } from '../../src/core/catalog.js';

function sym(name: string, i: number, over: Partial<CatalogSymbol> = {}): CatalogSymbol {
  return {
    symbol_id: `src/f${i % 7}.ts::${name}#function`,
    file: `src/f${i % 7}.ts`,
    name,
    qualified_name: i % 3 === 0 ? `Owner${i}.${name}` : name,
    kind: i % 2 ? 'function' : 'class',
    lsp_kind: 12,
    language: 'typescript',
    server: 'typescript-language-server',
    signature: `function ${name}(value: Config${i})`,
    summary: i % 4 === 0 ? `Reads the SETTINGS of ${name}` : '',
    ...(i % 5 === 0 ? { docstring: `See parseConfig and İstanbul ${i}` } : {}),
    line: i + 1,
    end_line: i + 2,
    selection_line: i + 1,
    selection_column: 10,
    byte_offset: i * 10,
    byte_length: 5,
    content_hash: '',
    ...over,
  };
}

const NAMES = ['ParseConfig', 'parseConfig', 'loader', 'Settings', 'formatUser12', 'fmtUsr', 'a', 'config', 'Handler', 'handleRequest', 'x_y', 'İndex'];
const symbols = Array.from({ length: 120 }, (_, i) => sym(NAMES[i % NAMES.length]!, i));

describe('search_symbols candidates from the lower-cased catalog text', () => {
  const texts = new SearchTexts(symbols);
  const queries = [
    'parseconfig',
    'ParseConfig',
    'config',
    'settings',
    'fu12',
    'FMT usr',
    'pc',
    'owner3',
    'owner3.parseconfig',
    'i̇stanbul',
    'İndex',
    'index',
    'x_y',
    'a',
    'hdlr',
    'zzz',
    'value config',
    '',
    '  ',
    'handle request',
    'function',
    '\u0000',
  ];
  it('ranks exactly as rankSymbols over every symbol: same symbols, scores and order', () => {
    for (const q of queries) expect([q, texts.rank(q, () => true)]).toEqual([q, rankSymbols(symbols, q)]);
  });

  it('with a filter, as rankSymbols over the filtered list', () => {
    const keep = (s: CatalogSymbol) => s.kind === 'class' && s.file !== 'src/f2.ts';
    for (const q of queries) expect([q, texts.rank(q, keep)]).toEqual([q, rankSymbols(symbols.filter(keep), q)]);
  });

  it('finds matches in every searched text (name, qualified name, signature, summary, docstring) and fuzzy names', () => {
    expect(texts.rank('owner3.', () => true).length).toBeGreaterThan(0);
    expect(texts.rank('reads the settings', () => true).length).toBeGreaterThan(0);
    expect(texts.rank('istanbul', () => true).length).toBe(rankSymbols(symbols, 'istanbul').length);
    expect(texts.rank('fmtusr', () => true).map((r) => r.symbol.name)).toContain('fmtUsr');
    expect(texts.rank('fmur12', () => true).map((r) => r.symbol.name)).toContain('formatUser12');
  });

  it('pathRole answers the same for a path asked twice, per language', () => {
    expect([pathRole('pkg/app_test.py', 'python'), pathRole('pkg/app_test.py', 'python')]).toEqual(['test', 'test']);
    expect(pathRole('pkg/app_test.py', 'typescript')).toBe('source');
    expect(pathRole('src/bench_x.ts', 'typescript')).toBe('bench');
  });
});
