// find_dead_code on the rel-* fixtures: each fixture has one dead declaration, and entry points,
// tests, hooks and library API that nothing in the workspace references but that are not dead.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { DeadCodeCandidate, JsonResult } from '../helpers/results.js';

function listed(r: JsonResult): string[] {
  return r.candidates.map((c: DeadCodeCandidate & { category: string }) => `${c.category} ${c.symbol_id}`);
}

describe('find_dead_code: TypeScript', async () => {
  const fx = await openFixture('rel-ts');

  it('a recursive but uncalled function is dead; main, a test and exported library API are not', async () => {
    const r = await fx.run('find_dead_code');
    expect(listed(r)).toEqual([
      'dead src/lib/math.ts::neverCalled#function',
      'entry_point src/main.ts::main#function',
      'test test/math.test.ts::testAdd#function',
      'exported_api src/lib/math.ts::unusedHelper#function',
    ]);
    expect(r.counts).toEqual({ dead: 1, entry_point: 1, test: 1, framework_hook: 0, exported_api: 1 });
    expect(r.candidates[3].reason).toContain('package.json exports');
    const only = await fx.run('find_dead_code', { category: 'dead' });
    expect(listed(only)).toEqual(['dead src/lib/math.ts::neverCalled#function']);
  });
});

describe.runIf(goAvailable)('find_dead_code: Go', async () => {
  const fx = await openFixture('rel-go');

  it('an unexported uncalled function is dead; main, init and TestX are not', async () => {
    expect(listed(await fx.run('find_dead_code'))).toEqual([
      'dead internal/mathx/mathx.go::unusedHelper#function',
      'entry_point cmd/app/main.go::init#function',
      'entry_point cmd/app/main.go::main#function',
      'test format/format_test.go::TestTotal#function',
    ]);
  });
});

describe('find_dead_code: Python', async () => {
  const fx = await openFixture('rel-py');

  it('a decorated route is a framework hook, not dead', async () => {
    const r = await fx.run('find_dead_code');
    expect(listed(r)).toEqual([
      'dead pkg/mathx.py::unused_helper#function',
      'test tests/test_mathx.py::test_add#function',
      'framework_hook app/routes.py::index#function',
    ]);
    expect(r.candidates[2].reason).toContain('@web.route');
  });
});

describe('find_dead_code: PHP', async () => {
  const fx = await openFixture('rel-php');

  it('attributed and magic methods are hooks; an uncalled method and an unreferenced class are dead', async () => {
    expect(listed(await fx.run('find_dead_code'))).toEqual([
      'dead app/Listeners/OnBoot.php::OnBoot#class',
      'dead app/Math/Calc.php::Calc.unusedHelper#method',
      'test tests/CalcTest.php::CalcTest#class',
      'test tests/CalcTest.php::CalcTest.testAdd#method',
      'framework_hook app/Listeners/OnBoot.php::OnBoot.handle#method',
      'framework_hook app/Listeners/OnBoot.php::OnBoot.__toString#method',
    ]);
  });
});

describe('find_dead_code: Python overrides and decorators', async () => {
  const fx = await openFixture('narrow-py');

  it('an override of a base method the workspace calls is alive; reasons name only what was observed', async () => {
    const r = await fx.run('find_dead_code');
    // Cart.hook overrides Base.hook, which Base.run calls (self.hook()): alive, not listed.
    expect(listed(r)).toEqual([
      'dead src/shop/aliases.py::cart_module#function',
      'dead src/shop/cart.py::Base.spare#method',
      'dead src/shop/cart.py::Cart.spare#method',
      'dead src/shop/cart.py::Cart.unused_static#method',
      'dead src/shop/cart.py::unused#function',
      'dead src/shop/report.py::describe#function',
      'test tests/test_cart.py::test_total#function',
      'test tests/test_cart.py::test_helper#function',
      'framework_hook src/shop/cart.py::decorated_unused#function',
    ]);
    const reason = (id: string) => r.candidates.find((c: DeadCodeCandidate) => c.symbol_id === id)!.reason;
    expect(reason('src/shop/cart.py::Cart.spare#method')).toContain('it overrides Base.spare, which nothing references either');
    // @staticmethod binds, it registers nothing: the method is checked like any other
    expect(reason('src/shop/cart.py::Cart.unused_static#method')).toBe('no reference outside its declaration; nothing in the workspace references it');
    // @logged is observed, what it does is not: never "registered by"
    expect(reason('src/shop/cart.py::decorated_unused#function')).toContain('decorated with `@logged`');
    expect(reason('src/shop/cart.py::decorated_unused#function')).not.toContain('registered by');
  });
});

describe('find_dead_code: TypeScript overrides and interface implementations', async () => {
  const fx = await openFixture('overrides-ts');

  it('an override of a base method the workspace calls, and an implementation called through its interface, are alive', async () => {
    const r = await fx.run('find_dead_code');
    // Upper.handle implements the abstract Handler.handle, which Handler.run calls (this.handle());
    // Polite.greet implements Greeter.greet, which welcome calls (g.greet): both alive, not listed.
    expect(listed(r)).toEqual([
      'dead src/handler.ts::Handler.spare#method',
      'dead src/jobs.ts::Upper.spare#method',
      'dead src/jobs.ts::Upper.neverCalled#method',
      'entry_point src/main.ts::main#function',
    ]);
    const reason = (id: string) => r.candidates.find((c: DeadCodeCandidate) => c.symbol_id === id)!.reason;
    expect(reason('src/jobs.ts::Upper.spare#method')).toBe(
      'no reference outside its declaration (it overrides Handler.spare, which nothing references either); nothing in the workspace references it',
    );
    expect(reason('src/jobs.ts::Upper.neverCalled#method')).toBe('no reference outside its declaration; nothing in the workspace references it');
    expect(reason('src/handler.ts::Handler.spare#method')).toBe('no reference outside its declaration; nothing in the workspace references it');
  });
});

describe.runIf(goAvailable)('find_dead_code: Go interface implementations', async () => {
  const fx = await openFixture('overrides-go');

  it('a method called only through a workspace interface value is alive; unexported uncalled methods are dead', async () => {
    const r = await fx.run('find_dead_code');
    // Square.Area (Shape) and Square.measure (unexported measurer) are called only as s.Area() and
    // m.measure(), Square.Draw only as d.Draw() in package render (its Drawer); Square.spare
    // implements sparer.spare, and nothing calls either.
    expect(listed(r)).toEqual([
      'dead internal/shapes/shapes.go::sparer.spare#method',
      'dead internal/shapes/shapes.go::Square.perimeter#method',
      'dead internal/shapes/shapes.go::Square.spare#method',
      'entry_point cmd/app/main.go::main#function',
    ]);
    for (const c of r.candidates.slice(0, 3)) expect(c.reason).toBe('no reference outside its declaration; nothing in the workspace references it');
  });
});

describe('find_dead_code: PHP overrides and interface implementations', async () => {
  const fx = await openFixture('overrides-php');

  it('an implementation of an abstract method its base calls, and one called only through its interface, are alive', async () => {
    const r = await fx.run('find_dead_code');
    // Upper.handle implements the abstract Handler.handle, which Handler.run calls ($this->handle());
    // Polite.greet implements Greeter.greet, which Welcome::welcome calls ($greeter->greet): both alive.
    expect(listed(r)).toEqual([
      'dead app/Jobs/Handler.php::Handler.spare#method',
      'dead app/Jobs/Upper.php::Upper.spare#method',
      'dead app/Jobs/Upper.php::Upper.neverCalled#method',
    ]);
    const reason = (id: string) => r.candidates.find((c: DeadCodeCandidate) => c.symbol_id === id)!.reason;
    expect(reason('app/Jobs/Upper.php::Upper.spare#method')).toBe(
      'no reference outside its declaration (it overrides Handler.spare, which nothing references either); nothing in the workspace references it',
    );
    expect(reason('app/Jobs/Handler.php::Handler.spare#method')).toBe('no reference outside its declaration; nothing in the workspace references it');
    expect(reason('app/Jobs/Upper.php::Upper.neverCalled#method')).toBe('no reference outside its declaration; nothing in the workspace references it');
  });
});
