/**
 * What a file is for, from its path alone: source, or tests / examples / docs / benchmarks. Pure,
 * per language, shared by name resolution and search ranking (a developer asking for `Config`
 * means the package's class, not the one a test declares).
 */
import { BoundedMemo, ENTRY_OVERHEAD, stringBytes } from './bounded-memo.js';

export type PathRole = 'source' | 'test' | 'example' | 'doc' | 'bench';

function segments(relPath: string, keepCase = false): string[] {
  const p = relPath.replace(/\\/g, '/');
  return (keepCase ? p : p.toLowerCase()).split('/').filter(Boolean);
}

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'testing', 'spec', 'specs', 'testdata', '__mocks__', 'fixtures']);
const EXAMPLE_DIRS = new Set(['example', 'examples', 'sample', 'samples', 'demo', 'demos']);
const DOC_DIRS = new Set(['doc', 'docs', 'documentation']);
const BENCH_DIRS = new Set(['bench', 'benches', 'benchmark', 'benchmarks']);

/**
 * Seed 004's IsTestPath: test files by each language's own convention, then (except for Go) a test
 * directory anywhere on the path.
 */
export function isTestPath(relPath: string, language?: string): boolean {
  const parts = segments(relPath);
  const base = parts[parts.length - 1] ?? '';
  const dirs = parts.slice(0, -1);
  switch (language) {
    case 'go':
      // `go test` compiles exactly the `_test.go` files (the seed's one Go rule); a `testdata` file is
      // a test's input, not a test: pathRole calls it 'test' for ranking.
      return base.endsWith('_test.go');
    case 'python':
      // pytest's default discovery: test_*.py and *_test.py, plus conftest.py fixtures.
      if (/^test_.*\.pyi?$/.test(base) || /_test\.pyi?$/.test(base) || base === 'conftest.py') return true;
      break;
    case 'php':
      // PHPUnit's default suffix, case-sensitive (`Latest.php` is not a test).
      if (/.Test\.php$/.test(segments(relPath, true).pop() ?? '')) return true;
      break;
    default:
      // Jest / Vitest / Mocha defaults: *.test.* and *.spec.*.
      if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(base) || /\.(test|spec)\.d\.[cm]?ts$/.test(base)) return true;
  }
  return dirs.some((d) => TEST_DIRS.has(d));
}

/**
 * Roles already worked out, by language and path: search ranking asks for every matching symbol's
 * file on each query (thousands of calls of the same few hundred paths). A pure memo, process-wide,
 * bounded in bytes (~20k paths of 60 characters).
 */
export const ROLE_MEMO = new BoundedMemo<string, PathRole>(4 * 1024 * 1024, (k) => stringBytes(k) + ENTRY_OVERHEAD);

/** source, or the kind of non-source file the path is (tests before examples, docs, benchmarks). */
export function pathRole(relPath: string, language?: string): PathRole {
  const key = `${language ?? ''}\u0000${relPath}`;
  let role = ROLE_MEMO.get(key);
  if (role === undefined) ROLE_MEMO.set(key, (role = roleOf(relPath, language)));
  return role;
}

function roleOf(relPath: string, language?: string): PathRole {
  const dirs = segments(relPath).slice(0, -1);
  if (isTestPath(relPath, language) || dirs.some((d) => TEST_DIRS.has(d))) return 'test';
  if (dirs.some((d) => EXAMPLE_DIRS.has(d))) return 'example';
  if (dirs.some((d) => DOC_DIRS.has(d))) return 'doc';
  if (dirs.some((d) => BENCH_DIRS.has(d))) return 'bench';
  const base = segments(relPath).pop() ?? '';
  // Go's benchmarks and examples live in _test.go files (already tests); Python/TS bench files by name.
  if (/^bench(mark)?[_.-]/.test(base)) return 'bench';
  return 'source';
}
