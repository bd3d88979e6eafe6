// The one test-file rule (src/adapters/test-files.ts), per language from its profile. Each row that
// two earlier copies of the rule answered differently says what they answered and why this answer.
import { describe, expect, it } from 'vitest';

import { languageProfile } from '../../src/adapters/languages.js';
import { isTestFunctionName, isTestPath, pathRole, testConvention } from '../../src/adapters/test-files.js';

type Row = [path: string, want: boolean, why?: string];

const RULES: Record<string, Row[]> = {
  typescript: [
    ['src/a.test.ts', true],
    ['src/a.spec.tsx', true],
    ['src/a.test.d.ts', true],
    ['src/__tests__/a.ts', true],
    ['test/helpers.ts', true],
    ['src/contest.ts', false],
    ['src/testing.ts', false],
    ['spec/router.ts', true, "jasmine's default spec_dir"],
    ['specs/router.ts', true],
    ['fixtures/app/src/x.ts', true, 'test inputs: neither source to rank first nor code to report dead'],
    ['src/__mocks__/fs.ts', true, "jest's manual mocks"],
    ['packages/core/testing/index.ts', false, 'a testing/ folder is a public module of test utilities (@angular/core/testing)'],
  ],
  javascript: [
    ['lib/a.spec.js', true],
    ['lib/a.test.mjs', true],
    ['lib/contest.js', false],
    ['test/fixtures/data.cjs', true],
  ],
  go: [
    ['router/router_test.go', true],
    ['router/router.go', false],
    ['internal/testdata/x.go', true, 'the go tool never builds testdata/: test inputs (ranked as tests before; is_test and dead code treated them as source)'],
    ['test/e2e/framework/util.go', true, "external test programs and their helpers (GOROOT's test/); not tests to is_test before"],
    ['fixtures/x.go', true],
    ['spec/schema.go', false, 'a Go package named spec is source (go-openapi/spec); spec/ was a test directory for every language before'],
    ['testing/testing.go', false, "GOROOT's testing package is source"],
  ],
  python: [
    ['pkg/test_app.py', true],
    ['pkg/app_test.py', true],
    ['conftest.py', true],
    ['tests/helpers.py', true],
    ['Lib/test/support/__init__.py', true],
    ['pkg/testing_utils.py', false],
    ['numpy/testing/utils.py', false, 'numpy.testing is public API'],
    ['openapi/spec/paths.py', false, 'spec/ is no Python test convention'],
    ['tests/fixtures/data.py', true],
  ],
  php: [
    ['app/UserTest.php', true],
    ['app/Latest.php', false],
    ['app/Models/Contest.php', false],
    ['tests/Feature/Helpers.php', true],
    ['src/Symfony/Component/Console/Tests/Helper/TableHelper.php', true, 'Symfony components keep tests under Tests/ (one copy compared case-sensitively)'],
    ['spec/UserSpec.php', true, "phpspec's spec/"],
  ],
};

describe('isTestPath: one rule per language', () => {
  for (const [language, rows] of Object.entries(RULES)) {
    it(`${language}`, () => {
      expect(rows.map(([p]) => [p, isTestPath(p, language)])).toEqual(rows.map(([p, want]) => [p, want]));
    });
  }

  it('without a language, the extension names the profile', () => {
    expect(['src/a.test.ts', 'x/y_test.go', 'tests/Unit/A.php', 'pkg/test_a.py', 'src/a.ts'].map((p) => isTestPath(p))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('a file of no known language: the shared test directories only', () => {
    expect(['tests/a.rs', 'src/testdata/b.rs', 'src/spec/c.rs', 'src/lib.rs'].map((p) => isTestPath(p, 'rust'))).toEqual([true, true, false, false]);
  });
});

describe('pathRole', () => {
  it('is test exactly where isTestPath says so', () => {
    for (const [language, rows] of Object.entries(RULES)) for (const [p, want] of rows) expect([p, pathRole(p, language) === 'test']).toEqual([p, want]);
  });

  it('tells examples, docs and benchmarks from source', () => {
    expect(['examples/basic/main.go', 'docs/conf.py', 'bench/run.ts', 'src/app.ts', 'src/testing.ts', 'src/bench_x.ts'].map((p) => pathRole(p))).toEqual([
      'example',
      'doc',
      'bench',
      'source',
      'source',
      'bench',
    ]);
  });
});

describe('testConvention and test function names', () => {
  it('names the runner whose rule collects the file, else the test directory', () => {
    expect([
      testConvention('a/x_test.go', 'go'),
      testConvention('testdata/x.go', 'go'),
      testConvention('tests/test_a.py', 'python'),
      testConvention('src/a.spec.ts', 'typescript'),
      testConvention('tests/UserTest.php', 'php'),
      testConvention('src/a.ts', 'typescript'),
    ]).toEqual(['go test', 'test directory', 'pytest', 'jest/vitest', 'phpunit', undefined]);
  });

  it("follows each language's runners", () => {
    const go = languageProfile('go');
    expect(['TestAdd', 'Test', 'Test_x', 'BenchmarkX', 'ExampleF', 'FuzzParse', 'Testify', 'testAdd'].map((n) => isTestFunctionName(n, go))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(['test_add', 'testAdd', 'add'].map((n) => isTestFunctionName(n, languageProfile('python')))).toEqual([true, true, false]);
    expect(['testAdd', 'TestAdd'].map((n) => isTestFunctionName(n, languageProfile('php')))).toEqual([true, false]);
  });
});
