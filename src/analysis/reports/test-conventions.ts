/**
 * Which test runner's convention makes a file a test (the same rules as util/test-paths.ts's
 * isTestPath, named): project_context groups a workspace's tests by them.
 */
export const TEST_CONVENTIONS = {
  'go test': '`go test` compiles *_test.go files',
  pytest: 'pytest collects test_*.py and *_test.py (conftest.py holds fixtures)',
  'jest/vitest': 'jest, vitest and mocha pick *.test.* and *.spec.* files',
  phpunit: "PHPUnit's *Test.php suffix",
  'test directory': 'a file under a test/, tests/, __tests__/, spec/ (…) directory',
} as const;

export type TestConvention = keyof typeof TEST_CONVENTIONS;

/** The convention of a file isTestPath calls a test. */
export function testConvention(relPath: string, language: string): TestConvention {
  const base = relPath.split('/').pop() ?? '';
  if (language === 'go' && base.endsWith('_test.go')) return 'go test';
  if (language === 'python' && (/^test_.*\.pyi?$/.test(base) || /_test\.pyi?$/.test(base) || base === 'conftest.py')) return 'pytest';
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(base)) return 'jest/vitest';
  if (language === 'php' && /.Test\.php$/.test(base)) return 'phpunit';
  return 'test directory';
}
