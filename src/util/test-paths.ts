/**
 * Whether a workspace-relative path is a test file by its language's conventions (seed 004's
 * IsTestPath). Pure, so the chunker and the name-resolution policy can share it and a re-index can
 * re-classify without reading anything. Conventions drift between ecosystems, hence one short
 * branch per language: adding a language is adding a branch.
 */
const TEST_DIR = /(^|\/)(__tests__|tests?)\//;

export function isTestPath(relPath: string, language: string): boolean {
  const p = relPath.replace(/\\/g, '/');
  const base = p.slice(p.lastIndexOf('/') + 1);
  switch (language) {
    case 'go':
      return base.endsWith('_test.go');
    case 'typescript':
    case 'typescriptreact':
    case 'javascript':
    case 'javascriptreact':
      // Jest/Vitest/Mocha: `x.test.ts`, `x.spec.tsx`, anything under `__tests__/`.
      return /\.(test|spec)\.[cm]?[jt]sx?$/.test(base) || /(^|\/)__tests__\//.test(p);
    case 'python':
      // pytest discovery: `test_*.py`, `*_test.py`; and the usual `tests/` package.
      return /^test_.*\.py$/.test(base) || /_test\.py$/.test(base) || TEST_DIR.test(p);
    case 'php':
      // PHPUnit: `*Test.php`, under `tests/` (Laravel, Symfony).
      return /Test\.php$/.test(base) || TEST_DIR.test(p);
    default:
      return TEST_DIR.test(p);
  }
}
