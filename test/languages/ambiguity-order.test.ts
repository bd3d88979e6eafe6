// AMBIGUOUS_SYMBOL lists its candidates in the resolution policy's order: equal on kind fit,
// scope, file role and case, the exported / public declaration comes before the ones a module keeps
// to itself and before private / protected members (before: path order, the exported method last).
// A candidate that is only another candidate under a namespace (`export const describe =
// core.describe`) is not a second declaration.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';

const ids = (details: Record<string, unknown> | undefined) => (details?.candidates as { symbol_id: string }[]).map((c) => c.symbol_id);
// find_definition answers a tie as the tied declarations, ranked: in the same order
const tied = (r: JsonResult) => [r.tied, (r.definitions as { symbol_id: string }[]).map((d) => d.symbol_id)];

describe('ambiguity lists: TypeScript', async () => {
  const fx = await openFixture('ambiguity-ts');

  it('exported public methods first, then a class the module keeps, then private and protected members', async () => {
    const order = [
      'src/c-underscore.ts::Underscored.render#method',
      'src/z-public.ts::Page.render#method',
      'src/b-helper.ts::Helper.render#method',
      'src/a-internal.ts::Internal.render#method',
      'src/a-internal.ts::Shielded.render#method',
    ];
    // an operation that needs one target keeps AMBIGUOUS_SYMBOL
    const err = await fx.runError('get_symbol', { symbol: 'render' });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    expect(ids(err.details)).toEqual(order);
    expect(tied(await fx.run('find_definition', { symbol: 'render' }))).toEqual([true, order]);
    // one ranking of a name's declarations: search_symbols lists them in the same order, before partial matches
    const search = await fx.run('search_symbols', { query: 'render' });
    const found = search.results.map((h: { symbol_id: string }) => h.symbol_id);
    expect(found.slice(0, order.length)).toEqual(order);
    expect(found).toContain('src/c-underscore.ts::Underscored._render#method');
  });

  it('a name one declaration leads: find_definition, search_symbols and get_context pick the same one', async () => {
    const def = await fx.run('find_definition', { symbol: 'Page.render' });
    const first = (def.definitions as { symbol_id: string }[])[0]!.symbol_id;
    expect((await fx.run('search_symbols', { query: 'Page.render' })).results[0].symbol_id).toBe(first);
    expect((await fx.run('get_context', { symbol: 'Page.render' })).symbol_id).toBe(first);
  });

  it('a namespace alias of the function is not a second candidate', async () => {
    const r = await fx.run('find_definition', { symbol: 'describe' });
    expect(r.definitions.map((d: { symbol_id: string }) => d.symbol_id)).toEqual(['src/core.ts::describe#function']);
    expect(r._meta.alternatives).toBeUndefined();
  });
});

describe('ambiguity lists: Python', async () => {
  const fx = await openFixture('ambiguity-py');

  it('the public class method before the private class one', async () => {
    const order = ['shop/z_public.py::Page.render#method', 'shop/a_internal.py::_Internal.render#method'];
    const err = await fx.runError('get_symbol', { symbol: 'render' });
    expect(ids(err.details)).toEqual(order);
    expect(tied(await fx.run('find_definition', { symbol: 'render' }))).toEqual([true, order]);
  });

  it('`describe = core.describe` in the package is the core function', async () => {
    const r = await fx.run('find_definition', { symbol: 'describe' });
    expect(r.definitions.map((d: { symbol_id: string }) => d.symbol_id)).toEqual(['shop/core.py::describe#function']);
  });
});
