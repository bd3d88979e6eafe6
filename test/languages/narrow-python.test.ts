// fixtures/narrow-py: a Python project whose pyrightconfig.json includes only `src` (tests/ and
// examples/ call into it from outside the server's project), with a relative `from . import`,
// docstrings, overrides (dead-code.test.ts) and a decorator that registers nothing.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

const imports = (r: JsonResult) => r.results.map((x: { line: number; to: string; specifier: string }) => `${x.line} ${x.specifier} -> ${x.to}`);

describe('narrow Python project', async () => {
  const fx = await openFixture('narrow-py');

  it('`from . import X` imports the package (its __init__.py), and the submodule when X is one', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'src/shop/report.py', max_depth: 1 });
    // line 2 `from . import cart`: the package, and cart.py (a submodule); line 3 `from . import Cart`:
    // the package only (Cart is a class that __init__.py re-exports from cart.py)
    expect(imports(r)).toEqual(['2 . -> src/shop/__init__.py', '2 .cart -> src/shop/cart.py', '3 . -> src/shop/__init__.py']);
  });

  it('`from pkg import mod as alias` imports the submodule too (the definition of an aliased name is the alias)', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'src/shop/aliases.py', max_depth: 1 });
    expect(imports(r)).toEqual(['1 shop -> src/shop/__init__.py', '1 shop.cart -> src/shop/cart.py']);
  });

  it('line counts leave docstrings out: Cart.total is 2 lines of code under a 4-line docstring', async () => {
    const r = await fx.run('analyze_complexity', { element: 'src/shop/cart.py::Cart.total#method' });
    expect([r.start_line, r.end_line, r.context.lines_of_code]).toEqual([35, 40, 2]);
  });
});

describe("narrow Python project: callers outside the server's project, from a cold start", async () => {
  const fx = await openFixture('narrow-py');

  it('find_callers and calls-me include the tests and examples that call (pyright sees them only when open)', async () => {
    const helper = await fx.run('find_callers', { symbol: 'helper' });
    expect(helper.root.calls.map((c: { name: string; file: string }) => `${c.name} ${c.file}`)).toEqual([
      'describe src/shop/report.py',
      'test_helper tests/test_cart.py',
    ]);
    const total = await fx.run('query_relationships', { query_type: 'calls-me', target: 'Cart#total', max_depth: 1 });
    expect(total.results.map((r: { from: string; file: string; line: number }) => `${r.from} ${r.file}:${r.line}`)).toEqual([
      'main examples/demo.py:5',
      'test_total tests/test_cart.py:5',
    ]);
  });
});

describe('narrow Python project: callers outside the project at depth 2', async () => {
  const fx = await openFixture('narrow-deep-py');

  it("calls-me asks each level with the files spelling that level's name open (test_pricing.py never spells `discount`)", async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'discount', max_depth: 2 });
    expect(
      r.results.map((x: { depth: number; from: string; to: string; file: string; line: number }) => `${x.depth} ${x.from} -> ${x.to} @${x.file}:${x.line}`),
    ).toEqual(['1 sale -> discount @src/deep/pricing.py:9', '2 test_sale -> sale @tests/test_pricing.py:5']);
  });
});

describe('narrow Python project: rename sites the server does not rename', async () => {
  const fx = await openScratch('narrow-py');

  it('not_renamed lists them; apply is refused unless accepted, and then writes what the server renamed', async () => {
    const preview = await fx.run('rename_symbol', { symbol: 'Cart.total', new_name: 'sum_all' });
    expect(preview.files.map((f: { file: string }) => f.file)).toEqual(['src/shop/cart.py']);
    expect(preview.not_renamed).toEqual([
      { file: 'examples/demo.py', line: 5, column: 18, text: 'print(Cart().total([4, 5]))', resolves: 'target' },
      { file: 'tests/test_cart.py', line: 5, column: 19, text: 'assert Cart().total([1, 2]) == 3', resolves: 'target' },
    ]);
    expect(preview._meta.warnings.join('\n')).toContain('2 occurrence(s) of `total` in 2 file(s) are not renamed by pyright');
    const before = fx.read('src/shop/cart.py');
    const refused = await fx.runError('rename_symbol', { symbol: 'Cart.total', new_name: 'sum_all', apply: true });
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details?.not_renamed).toHaveLength(2);
    expect(fx.read('src/shop/cart.py')).toBe(before);
    const applied = await fx.run('rename_symbol', { symbol: 'Cart.total', new_name: 'sum_all', apply: true, accept_not_renamed: true });
    expect([applied.applied, applied.not_renamed.length]).toEqual([true, 2]);
    expect(fx.read('src/shop/cart.py')).toContain('def sum_all(self, prices):');
    expect(fx.read('tests/test_cart.py')).toContain('Cart().total([1, 2])');
  });
});
