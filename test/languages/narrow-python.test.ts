// fixtures/narrow-py: a Python project whose pyrightconfig.json includes only `src` (tests/ and
// examples/ call into it from outside the server's project), with a relative `from . import`,
// docstrings, overrides (dead-code.test.ts) and a decorator that registers nothing.
import { describe, expect, it } from 'vitest';
import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';

const imports = (r: JsonResult) => r.results.map((x: { line: number; to: string; specifier: string }) => `${x.line} ${x.specifier} -> ${x.to}`);

describe('narrow Python project', async () => {
  const fx = await openFixture('narrow-py');

  it('`from . import X` imports the package (its __init__.py), and the submodule when X is one', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'src/shop/report.py', max_depth: 1 });
    // line 2 `from . import cart`: the package, and cart.py (a submodule); line 3 `from . import Cart`:
    // the package only (Cart is a class that __init__.py re-exports from cart.py)
    expect(imports(r)).toEqual(['2 . -> src/shop/__init__.py', '2 .cart -> src/shop/cart.py', '3 . -> src/shop/__init__.py']);
  });

  it('line counts leave docstrings out: Cart.total is 2 lines of code under a 4-line docstring', async () => {
    const r = await fx.run('analyze_complexity', { element: 'src/shop/cart.py::Cart.total#method' });
    expect([r.start_line, r.end_line, r.context.lines_of_code]).toEqual([35, 40, 2]);
  });
});
