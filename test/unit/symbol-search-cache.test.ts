import { describe, expect, it } from 'vitest';
import type { CatalogSymbol } from '../../src/core/catalog.js';
import { rankSymbols } from '../../src/catalog/symbol-search.js';
import { pathRole } from '../../src/util/test-paths.js';

function sym(name: string, over: Partial<CatalogSymbol> = {}): CatalogSymbol {
  return {
    symbol_id: `src/a.ts::${name}#function`,
    file: 'src/a.ts',
    name,
    qualified_name: name,
    kind: 'function',
    lsp_kind: 12,
    language: 'typescript',
    server: 'typescript-language-server',
    signature: `function ${name}()`,
    summary: '',
    line: 1,
    end_line: 1,
    selection_line: 1,
    selection_column: 10,
    byte_offset: 0,
    byte_length: 1,
    content_hash: '',
    ...over,
  };
}

describe('search ranking with its per-symbol lower-case cache', () => {
  it('matches case-insensitively in every searched text, as before the cache', () => {
    const list = [sym('ParseConfig'), sym('other', { summary: 'Reads the CONFIG file' }), sym('third', { docstring: 'See parseConfig' })];
    const ranked = rankSymbols(list, 'parseconfig');
    expect(ranked.map((r) => [r.symbol.name, r.score])).toEqual([
      ['ParseConfig', 107],
      ['third', 7],
    ]);
    expect(rankSymbols(list, 'config').map((r) => r.symbol.name)).toEqual(['ParseConfig', 'other', 'third']);
  });

  it('sees a text that was replaced on the same symbol object (the cache is not stale)', () => {
    const s = sym('loader', { summary: 'nothing here' });
    expect(rankSymbols([s], 'settings')).toEqual([]);
    s.summary = 'Loads the SETTINGS';
    expect(rankSymbols([s], 'settings').map((r) => r.score)).toEqual([12]);
    s.docstring = 'settings again';
    expect(rankSymbols([s], 'settings').map((r) => r.score)).toEqual([17]);
    s.name = 'Settings';
    expect(rankSymbols([s], 'settings')[0]!.score).toBe(107);
  });

  it('pathRole answers the same for a path asked twice, per language', () => {
    expect([pathRole('pkg/app_test.py', 'python'), pathRole('pkg/app_test.py', 'python')]).toEqual(['test', 'test']);
    expect(pathRole('pkg/app_test.py', 'typescript')).toBe('source');
    expect(pathRole('src/bench_x.ts', 'typescript')).toBe('bench');
  });
});
