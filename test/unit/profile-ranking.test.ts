// Name resolution over the syntax catalog of grammar-only languages, read through the real
// tree-sitter grammars: the candidates a name matches (name-match.ts) ranked by the resolution
// policy, as find_definition and get_symbol by name rank them.
import { describe, expect, it } from 'vitest';

import { matchesQuery, splitQualified } from '../../src/catalog/name-match.js';
import type { CatalogSymbol } from '../../src/core/catalog.js';
import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';
import { rankCandidates } from '../../src/service/navigation/resolution-policy.js';

/** The ids of the declarations `name` matches in one file, best first. */
async function ranked(rel: string, text: string, name: string): Promise<string[]> {
  const bytes = Buffer.from(text);
  const symbols: CatalogSymbol[] = (await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 }))!.symbols;
  const byId = new Map(symbols.map((s) => [s.symbol_id, s]));
  const query = splitQualified(name);
  const found = symbols.filter((s) => matchesQuery(s, query));
  return rankCandidates(found, name, 'any', (id) => byId.get(id)).map((c) => c.symbol.symbol_id.slice(rel.length + 2));
}

describe('ranking declarations of grammar-only languages', () => {
  it('Rust: a struct leads the associated types, constants and functions named like it in impl blocks', async () => {
    const impls = ['Clone', 'Default', 'Debug', 'Display', 'Hash']
      .map((t) => `impl ${t} for Holder {\n    type X = Self;\n    const X: u8 = 0;\n    fn X() {}\n}\n`)
      .join('\n');
    const text = `${impls}\npub struct X {\n    pub v: u8,\n}\n`;
    const order = await ranked('src/lib.rs', text, 'X');
    expect(order[0]).toBe('X#struct');
    expect(order).toHaveLength(16);
  });

  it('C++: a class template leads its constructors, and a class under an export macro is found', async () => {
    const text = [
      'template <typename T>',
      'class Box {',
      'public:',
      '    Box();',
      '    explicit Box(T v);',
      '};',
      'template <typename T> Box<T>::Box() {}',
      '',
      'class LIB_EXPORT Widget : public Base {',
      '  public:',
      '    Widget();',
      '};',
      'Widget::Widget() {}',
      '',
    ].join('\n');
    expect((await ranked('include/box.h', text, 'Box'))[0]).toBe('Box#class');
    expect((await ranked('include/box.h', text, 'Widget'))[0]).toBe('Widget#class');
  });
});
