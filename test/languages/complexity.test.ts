// analyze_complexity on fixtures/rel-complexity: one function per language whose decision points
// are counted by hand in its own comment, and one coverage file per format (lcov, Go
// coverprofile, coverage.py JSON, Clover) with known hits.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';

describe('analyze_complexity', async () => {
  const fx = await openFixture('rel-complexity');

  it('TypeScript: decision points incl. && / ?? / case / catch / ?:, code lines, imports + callees, lcov coverage', async () => {
    const r = await fx.run('analyze_complexity', { element: 'grade.ts::grade#function' });
    expect(r).toMatchObject({ success: true, element: 'grade', file: 'grade.ts', start_line: 4, end_line: 24 });
    expect(r.context).toEqual({ lines_of_code: 20, cyclomatic_complexity: 11, dependencies: 2, test_coverage: 0.7 });
    expect(r.note).toContain('coverage/lcov.info (7/10 instrumented lines ran)');
  });

  it('Python: elif, boolean operators, except and conditional expressions; coverage.py JSON; the docstring is not code', async () => {
    const r = await fx.run('analyze_complexity', { element: 'grade.py::grade#function' });
    // 17 lines; the docstring and the comment-only line are not code (16 before docstrings were left out)
    expect(r.context).toEqual({ lines_of_code: 15, cyclomatic_complexity: 10, dependencies: 1, test_coverage: 0.5 });
  });

  it('PHP: foreach, case, catch, ?:; Clover coverage', async () => {
    const r = await fx.run('analyze_complexity', { element: 'Grade.php::grade#function' });
    expect(r.context).toEqual({ lines_of_code: 23, cyclomatic_complexity: 9, dependencies: 1, test_coverage: 0.667 });
  });

  it.runIf(goAvailable)('Go: if / for / expression cases / &&, ||; coverprofile blocks mapped through the go.mod module', async () => {
    const r = await fx.run('analyze_complexity', { element: 'grade.go::Grade#function' });
    expect(r.context).toEqual({ lines_of_code: 18, cyclomatic_complexity: 8, dependencies: 1, test_coverage: 0.364 });
  });

  it('a file without coverage data has no test_coverage (seed 002 types it as a number, never null) and the reason, never invented; unknown names are SYMBOL_NOT_FOUND', async () => {
    const r = await fx.run('analyze_complexity', { element: 'helper.ts' });
    expect(r.context).toEqual({ lines_of_code: 3, cyclomatic_complexity: 1, dependencies: 0 });
    expect(r.note).toContain('has no data for helper.ts');
    expect((await fx.runError('analyze_complexity', { element: 'nothing_here' })).code).toBe('SYMBOL_NOT_FOUND');
  });
});

describe('analyze_complexity without any coverage file', async () => {
  const fx = await openFixture('rel-ts');

  it('test_coverage is absent and the note says no file was found', async () => {
    const r = await fx.run('analyze_complexity', { element: 'square' });
    expect(r.context).toEqual({ lines_of_code: 3, cyclomatic_complexity: 1, dependencies: 1 });
    expect(r.note).toContain('no coverage file in the workspace');
  });
});
