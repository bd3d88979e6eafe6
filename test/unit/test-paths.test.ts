import { describe, expect, it } from 'vitest';
import { isTestPath, pathRole } from '../../src/util/test-paths.js';

describe('isTestPath / pathRole', () => {
  it('follows each language convention', () => {
    const cases: [string, string, boolean][] = [
      ['router/router_test.go', 'go', true],
      ['router/router.go', 'go', false],
      ['internal/testdata/x.go', 'go', false],
      ['src/a.test.ts', 'typescript', true],
      ['src/a.spec.tsx', 'typescript', true],
      ['src/__tests__/a.ts', 'typescript', true],
      ['src/contest.ts', 'typescript', false],
      ['pkg/test_app.py', 'python', true],
      ['pkg/app_test.py', 'python', true],
      ['tests/helpers.py', 'python', true],
      ['conftest.py', 'python', true],
      ['pkg/testing_utils.py', 'python', false],
      ['app/UserTest.php', 'php', true],
      ['app/Latest.php', 'php', false],
      ['tests/Feature/Helpers.php', 'php', true],
    ];
    expect(cases.map(([p, l]) => [p, isTestPath(p, l)])).toEqual(cases.map(([p, , t]) => [p, t]));
  });

  it('ranks test inputs with tests: a Go testdata file is no test (seed 004) but is not source either', () => {
    expect(pathRole('internal/testdata/x.go', 'go')).toBe('test');
    expect(pathRole('internal/x.go', 'go')).toBe('source');
  });

  it('tells examples, docs and benchmarks from source', () => {
    expect(['examples/basic/main.go', 'docs/conf.py', 'bench/run.ts', 'src/app.ts', 'src/testing.ts'].map((p) => pathRole(p))).toEqual([
      'example',
      'doc',
      'bench',
      'source',
      'source',
    ]);
  });
});
