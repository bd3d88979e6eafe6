/**
 * Whether a workspace file is a test, by the conventions of each language's own test runner:
 * Go `_test.go` (the go tool's rule), Python `test_*.py` / `*_test.py` / `conftest.py` (pytest's
 * defaults), JS/TS `*.test.*` / `*.spec.*` / `__tests__/` (jest's and vitest's defaults), PHP
 * `*Test.php` (PHPUnit's suffix), and any file under a `test/` or `tests/` directory.
 */
const PATTERNS = [
  /_test\.go$/,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.py$/,
  /(^|\/)conftest\.py$/,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)__tests__\//,
  /Test\.php$/,
  /(^|\/)tests?\//,
];

export function isTestFile(relPath: string): boolean {
  return PATTERNS.some((re) => re.test(relPath));
}
