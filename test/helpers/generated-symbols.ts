/** A generated catalog and the queries search_symbols' reference tests ask of it (search-texts-reference, db-symbol-search). */
import { createRng } from '../../bench/seeded-random.js';
import type { CatalogSymbol } from '../../src/core/catalog.js';

const PARTS = [
  'load',
  'Order',
  'service',
  'Handler',
  'parse',
  'Config',
  'user',
  'run',
  'validate',
  'get',
  'set',
  'x',
  'ID',
  'Json',
  'schema',
  'ok',
  'İndex',
  'naïve',
  '😀',
  'a_b',
];
const KINDS = ['class', 'method', 'function', 'variable', 'property', 'interface', 'field', 'constructor'] as const;
const DIRS = ['src', 'src/lib', 'test', 'examples', 'docs', 'bench', 'src/Über'];

export function generatedCatalog(n: number, seed: number): CatalogSymbol[] {
  const rng = createRng(seed);
  const out: CatalogSymbol[] = [];
  for (let i = 0; i < n; i++) {
    const parts = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(PARTS));
    const name = rng.int(10) === 0 ? rng.pick(PARTS) : parts.join('');
    const file = `${rng.pick(DIRS)}/f${rng.int(40)}${rng.int(6) === 0 ? '.test' : ''}.ts`;
    const parent = i > 0 && rng.int(3) === 0 ? out[rng.int(i)]! : undefined;
    const kind = rng.pick(KINDS);
    const qualified = parent ? `${parent.qualified_name}.${name}` : name;
    const signature = `${kind} ${name}(${rng.pick(PARTS)}: ${rng.pick(PARTS)})`;
    out.push({
      symbol_id: `${file}::${qualified}#${kind}#${i}`,
      file,
      name,
      qualified_name: qualified,
      kind,
      lsp_kind: 12,
      language: 'typescript',
      server: 'ts',
      signature,
      summary: rng.int(3) === 0 ? `Does ${rng.pick(PARTS)} for ${name}` : signature,
      ...(rng.int(4) === 0 ? { docstring: `See ${rng.pick(PARTS)} ${rng.pick(PARTS)}` } : {}),
      ...(parent ? { parent: parent.symbol_id } : {}),
      line: 1 + rng.int(200),
      end_line: 300,
      selection_line: 1,
      selection_column: 0,
      byte_offset: i,
      byte_length: 1,
      content_hash: '',
    });
  }
  // The catalog's order: file (code units), then position in the file.
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.byte_offset - b.byte_offset));
}

/** The filters a ranking is checked under: none, by kind, by path (each search_symbols filter's shape). */
export const RANKING_FILTERS: [string, ((s: CatalogSymbol) => boolean) | undefined][] = [
  ['no filter', undefined],
  ['methods and functions', (s) => s.kind === 'method' || s.kind === 'function'],
  ['source files', (s) => s.file.startsWith('src/')],
];

export const QUERIES = [
  // one and two characters: thousands of matches
  'a',
  'o',
  'x',
  'I',
  '_',
  'lo',
  'Or',
  'ok',
  'ru',
  'İ',
  '😀',
  // names, camelCase, exact case and not
  'loadOrder',
  'LoadOrder',
  'loadorder',
  'OrderService',
  'orderservice',
  'parseConfig',
  'ParseConfigHandler',
  'run',
  'Run',
  'validate',
  'get',
  'ID',
  'id',
  'Json',
  // fuzzy, qualified, multi-word, texts beyond the name
  'ldOrdr',
  'prsCfg',
  'Order.run',
  'OrderService.get',
  'load order',
  'parse config handler',
  'for run',
  'see json',
  'class load',
  'naïve',
  'naive',
  'a_b',
  // no match, blank, separators
  'zzzqqq',
  'loadOrderzzz',
  '  ',
  ' run ',
  '\u0000',
];
