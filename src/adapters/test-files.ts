/**
 * The one rule for "is this a test file", and what else a path says a file is for (examples, docs,
 * benchmarks). Pure, from the path and the file's language: a file is a test when one of its
 * language's test runners collects it by name (Go `*_test.go`, pytest `test_*.py`, jest/vitest
 * `*.test.ts`, PHPUnit `*Test.php`), or when it sits under one of its language's test directories —
 * tests, their helpers and their inputs (`tests/`, `Tests/`, `__tests__/`, `testdata/`, `fixtures/`
 * …, each language's list in its profile). Search ranking, name resolution, context bundles, impact,
 * dead code, coverage, chunks (`is_test`) and project_context all ask this module.
 */
import { BoundedMemo, ENTRY_OVERHEAD, stringBytes } from '../util/bounded-memo.js';
import type { LanguageProfile, TestConventions } from './language-profile.js';
import { languageProfiles, profileOf } from './languages.js';

export type PathRole = 'source' | 'test' | 'example' | 'doc' | 'bench';

/** For a file of no known language: the test directories most ecosystems share. */
const DEFAULT_TESTS: TestConventions = { runners: [], directories: ['test', 'tests', 'testdata', 'fixtures'] };
const EXAMPLE_DIRS = new Set(['example', 'examples', 'sample', 'samples', 'demo', 'demos']);
const DOC_DIRS = new Set(['doc', 'docs', 'documentation']);
const BENCH_DIRS = new Set(['bench', 'benches', 'benchmark', 'benchmarks']);

/** Lower-cased directory sets per conventions object (profiles are immutable, so built once each). */
const dirSets = new WeakMap<TestConventions, ReadonlySet<string>>();

function testDirs(tests: TestConventions): ReadonlySet<string> {
  let set = dirSets.get(tests);
  if (!set) dirSets.set(tests, (set = new Set(tests.directories.map((d) => d.toLowerCase()))));
  return set;
}

function parts(relPath: string): { base: string; dirs: string[] } {
  const all = relPath.replace(/\\/g, '/').split('/').filter(Boolean);
  return { base: all[all.length - 1] ?? '', dirs: all.slice(0, -1).map((d) => d.toLowerCase()) };
}

function conventionsOf(relPath: string, language?: string): TestConventions {
  return profileOf(relPath, language)?.tests ?? DEFAULT_TESTS;
}

/** The runner whose naming rule collects the file, else whether a test directory holds it. */
function testReason(relPath: string, language?: string): string | undefined {
  const tests = conventionsOf(relPath, language);
  const { base, dirs } = parts(relPath);
  const runner = tests.runners.find((r) => r.files.test(base));
  if (runner) return runner.runner;
  const own = testDirs(tests);
  return dirs.some((d) => own.has(d)) ? TEST_DIRECTORY : undefined;
}

/** project_context's name for tests found by their directory rather than a runner's file-name rule. */
export const TEST_DIRECTORY = 'test directory';

/** Whether a file is a test (a chunk's `is_test`, the reports' test files), per language: see the module comment. */
export function isTestPath(relPath: string, language?: string): boolean {
  return testReason(relPath, language) !== undefined;
}

/** Whether one of the language's test runners collects the file by its name (Go `x_test.go`: not part of the package an import reaches). */
export function isRunnerTestFile(relPath: string, language?: string): boolean {
  const base = parts(relPath).base;
  return conventionsOf(relPath, language).runners.some((r) => r.files.test(base));
}

/** Which convention makes a test file one (a runner's name, or `test directory`); undefined for other files. */
export function testConvention(relPath: string, language?: string): string | undefined {
  return testReason(relPath, language);
}

/** What a test convention means, for project_context's descriptions. */
export function testConventionDescription(convention: string): string {
  const runner = languageProfiles()
    .flatMap((p) => p.tests.runners)
    .find((r) => r.runner === convention);
  if (runner) return runner.description;
  const dirs = new Set([...languageProfiles().flatMap((p) => p.tests.directories), ...DEFAULT_TESTS.directories]);
  return `a file under one of its language's test directories (${[...dirs].map((d) => `${d}/`).join(', ')})`;
}

/** A test function or method by its language's runners' naming rules (Go `TestX`, pytest and PHPUnit `test…`). */
export function isTestFunctionName(name: string, profile: LanguageProfile | undefined): boolean {
  return profile?.tests.functionNames?.test(name) ?? false;
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
  if (isTestPath(relPath, language)) return 'test';
  const { base, dirs } = parts(relPath);
  if (dirs.some((d) => EXAMPLE_DIRS.has(d))) return 'example';
  if (dirs.some((d) => DOC_DIRS.has(d))) return 'doc';
  if (dirs.some((d) => BENCH_DIRS.has(d))) return 'bench';
  // Go's benchmarks and examples live in _test.go files (already tests); other languages' bench files by name.
  if (/^bench(mark)?[_.-]/.test(base.toLowerCase())) return 'bench';
  return 'source';
}
