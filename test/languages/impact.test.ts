// analyze_impact on the rel-* fixtures: ripple effects from real references and call trees, the
// severities of each operation and the risk rule (docs/operations-guide.md "Impact").
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { JsonResult, RippleEffect } from '../helpers/results.js';

/** `file:line impact severity`: one line per ripple effect, in answer order. */
function effects(r: JsonResult): string[] {
  return r.impact.ripple_effects.map((e: RippleEffect) => `${e.file}:${e.line} ${e.impact} ${e.severity}`);
}

describe('analyze_impact: TypeScript', async () => {
  const fx = await openFixture('rel-ts');

  it('modify: direct callers, tests and transitive callers, one effect per file; affected_files counts them', async () => {
    const r = await fx.run('analyze_impact', { element: 'add' });
    expect(effects(r)).toEqual([
      'src/lib/format.ts:5 direct call major',
      'test/math.test.ts:4 test major',
      'src/app/report.ts:5 indirect dependency minor',
      'src/main.ts:9 indirect dependency minor',
    ]);
    expect(r.impact).toMatchObject({ affected_files: 4, total_affected_files: 4, risk_level: 'MEDIUM', references: 4, tests: ['test/math.test.ts'] });
  });

  it('delete of a referenced function is HIGH with breaking effects; of an unreferenced one LOW', async () => {
    const del = await fx.run('analyze_impact', { element: 'add', operation: 'delete' });
    expect(del.impact.risk_level).toBe('HIGH');
    expect(effects(del).slice(0, 2)).toEqual(['src/lib/format.ts:5 direct call breaking', 'test/math.test.ts:4 test breaking']);
    const dead = await fx.run('analyze_impact', { element: 'unusedHelper', operation: 'delete' });
    expect(dead.impact).toMatchObject({ affected_files: 0, risk_level: 'LOW', ripple_effects: [], references: 0 });
  });

  it('a file: its importers are `import` effects, theirs `indirect dependency`; max_depth 1 stops at the importers', async () => {
    const r = await fx.run('analyze_impact', { element: 'src/lib/math.ts', operation: 'refactor' });
    expect(effects(r)).toEqual([
      'src/app/report.ts:2 import major',
      'src/lib/format.ts:1 import major',
      'test/math.test.ts:1 test major',
      'src/main.ts:1 indirect dependency minor',
    ]);
    expect(r.impact.risk_level).toBe('HIGH');
    const one = await fx.run('analyze_impact', { element: 'src/lib/math.ts', operation: 'refactor', max_depth: 1 });
    expect(one.impact).toMatchObject({ affected_files: 3, risk_level: 'MEDIUM' });
  });

  it('a same-file caller counts; a page keeps affected_files equal to its ripple effects', async () => {
    const r = await fx.run('analyze_impact', { element: 'multiply', operation: 'refactor', max_depth: 1 });
    expect(effects(r)).toEqual(['src/lib/math.ts:10 direct call major']);
    const page = await fx.gateway.run('analyze_impact', { element: 'add', max_results: 2, output_format: 'json' });
    expect(page.result.impact).toMatchObject({ affected_files: 2, total_affected_files: 4 });
    expect(page.result._meta.truncated).toBe(true);
  });
});

describe.runIf(goAvailable)('analyze_impact: Go', async () => {
  const fx = await openFixture('rel-go');

  it('delete across packages: the caller breaks, main and the test are reached through it', async () => {
    const r = await fx.run('analyze_impact', { element: 'Add', operation: 'delete' });
    expect(effects(r)).toEqual([
      'format/format.go:14 direct call breaking',
      'cmd/app/main.go:14 indirect dependency major',
      'format/format_test.go:6 test breaking',
    ]);
    expect(r.impact).toMatchObject({ risk_level: 'HIGH', tests: ['format/format_test.go'] });
  });
});

describe('analyze_impact: Python', async () => {
  const fx = await openFixture('rel-py');

  it('refactor reaches the cross-file callers, the decorated route and main', async () => {
    const r = await fx.run('analyze_impact', { element: 'add', operation: 'refactor' });
    expect(effects(r)).toEqual([
      'pkg/format.py:8 direct call major',
      'tests/test_mathx.py:5 test major',
      'app/report.py:7 indirect dependency minor',
      'app/routes.py:17 indirect dependency minor',
      'main.py:8 indirect dependency minor',
    ]);
    expect(r.impact.risk_level).toBe('HIGH');
  });
});

describe('analyze_impact: PHP', async () => {
  const fx = await openFixture('rel-php');

  it('delete of a class: its uses break (a `use` line alone is not a call), callers of those are reached', async () => {
    const r = await fx.run('analyze_impact', { element: 'Calc', operation: 'delete' });
    expect(effects(r)).toEqual([
      'app/Format/Formatter.php:13 direct call breaking',
      'app/Report.php:13 direct call breaking',
      'tests/CalcTest.php:11 test breaking',
      'app/helpers.php:5 indirect dependency major',
      'bootstrap.php:6 indirect dependency major',
    ]);
    expect(r.impact).toMatchObject({ risk_level: 'HIGH', references: 6 });
  });
});
