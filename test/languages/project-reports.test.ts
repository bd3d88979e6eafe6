// coverage_report, project_context and validate_references (seed 002) on the rel-* fixtures with real
// servers. Known truth: each fixture's test file references one function (rel-php: the Calc class and
// Calc::add); each has a `broken` file with an import that resolves nowhere and a name declared nowhere;
// rel-ts/src/main.ts imports `./nope` under @ts-expect-error (no diagnostic: only the import graph sees
// it) and `node:fs` without @types/node; rel-py/main.py imports `nonexistent_mod`; rel-php/bootstrap.php
// requires app/missing.php. rel-complexity has one coverage file per format.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { CodeElement, FileCoverage, JsonResult, ValidationError } from '../helpers/results.js';

function errors(r: JsonResult): string[] {
  return r.validation.errors.map((e: ValidationError) => `${e.file}:${e.line} ${e.kind} ${e.reference} [${e.sources.join('+')}]${e.code ? ` ${e.code}` : ''}`);
}

describe('TypeScript (rel-ts)', async () => {
  const fx = await openFixture('rel-ts');

  it('validate_references: diagnostics by code plus the import graph, merged per reference', async () => {
    const r = await fx.run('validate_references');
    // tsserver's diagnostic for node:fs (2591) was once not in yet on a loaded machine (clean-clone run,
    // load ~10): the import graph reports that reference either way, so only its source may vary.
    const nodeFs = /^src\/main\.ts:2 unresolved_import node:fs \[(diagnostic\+import_graph\] 2591|import_graph\])$/;
    expect(errors(r).filter((l) => !nodeFs.test(l))).toEqual([
      'src/app/broken.ts:2 unresolved_import ./gone [diagnostic+import_graph] 2307',
      'src/app/broken.ts:4 undefined_name notDeclaredAnywhere [diagnostic] 2304',
      'src/main.ts:4 unresolved_import ./nope [import_graph]',
    ]);
    expect(errors(r).filter((l) => nodeFs.test(l))).toHaveLength(1);
    expect(r).toMatchObject({ success: true, pattern: '**', files_matched: 7, files_checked: 7 });
    expect(r.validation).toMatchObject({ invalid_references: 4, valid_references: 7 });
    const one = await fx.run('validate_references', { pattern: 'src/app/**' });
    expect(errors(one)).toEqual(errors(r).slice(0, 2));
    expect(one).toMatchObject({ pattern: 'src/app/**', files_matched: 3 });
  });

  it('coverage_report without a coverage file is reference coverage, labelled so', async () => {
    const r = await fx.run('coverage_report', { format: 'detailed' });
    expect(r).toMatchObject({ mode: 'reference', sources: [], covered: 1, total: 9, scanned: 9, unchecked: 0, skipped: [], total_files: 5 });
    expect(r.basis).toContain('reference coverage, not line coverage');
    expect(r.coverage).toEqual({
      overall: 0.111,
      by_file: { 'src/app/lazy.ts': 0, 'src/app/report.ts': 0, 'src/lib/format.ts': 0, 'src/lib/math.ts': 0.2, 'src/main.ts': 0 },
      untested_files: ['src/app/lazy.ts', 'src/app/report.ts', 'src/lib/format.ts', 'src/main.ts'],
    });
    expect(r.files.find((f: FileCoverage) => f.file === 'src/lib/math.ts').untested_symbols).toEqual(['multiply', 'square', 'unusedHelper', 'neverCalled']);
    const page = await fx.gateway.run('coverage_report', { max_results: 2, output_format: 'json' });
    expect(Object.keys((page.result as JsonResult).coverage.by_file)).toEqual(['src/app/lazy.ts', 'src/app/report.ts']);
    expect(page.result._meta.truncated).toBe(true);
    const rest = await fx.run('coverage_report', { max_results: 10, cursor: page.result._meta.next_cursor });
    expect(Object.keys(rest.coverage.by_file)).toEqual(['src/lib/format.ts', 'src/lib/math.ts', 'src/main.ts']);
  });

  it('project_context: summary, elements, module dependency map from the import graph, test patterns; markdown on request', async () => {
    const r = await fx.run('project_context');
    const c = r.context;
    expect(c.summary).toEqual({
      languages: { typescript: 7 },
      packages: [{ name: 'rel-ts', kind: 'npm', path: 'package.json' }],
      entry_points: [
        { file: 'src/main.ts', reason: 'package.json exports' },
        { file: 'src/main.ts', line: 8, name: 'main', reason: 'top-level `main`' },
      ],
    });
    expect(c.elements.map((e: CodeElement) => `${e.type} ${e.name} ${e.file}:${e.line}`)).toEqual([
      'function later src/app/lazy.ts:1',
      'function report src/app/report.ts:4',
      'function total src/lib/format.ts:3',
      'function add src/lib/math.ts:1',
      'function multiply src/lib/math.ts:5',
      'function square src/lib/math.ts:9',
      'function unusedHelper src/lib/math.ts:13',
      'function neverCalled src/lib/math.ts:17',
      'function main src/main.ts:8',
    ]);
    // `@lib/format` resolves through tsconfig paths; `./nope`, `./gone` and `node:fs` resolve to no file.
    expect(c.dependencies).toEqual({
      'src/app/report.ts': ['src/lib/format.ts', 'src/lib/math.ts'],
      'src/lib/format.ts': ['src/lib/math.ts'],
      'src/main.ts': ['src/app/lazy.ts', 'src/app/report.ts', 'src/lib/format.ts'],
      'test/math.test.ts': ['src/lib/math.ts'],
    });
    expect(c.test_patterns).toEqual({ 'jest/vitest': { files: ['test/math.test.ts'], usage: 1, description: expect.stringContaining('1 test function(s)') } });
    expect(r.format).toBe('json');
    expect(r.markdown).toBeUndefined();
    const both = await fx.gateway.run('project_context', { output_format: 'both', max_elements: 2 });
    expect(both.result.format).toBe('both');
    // the text is the markdown after the line that says what max_elements cut
    expect(both.text).toBe(`> **truncated** — ${both.text.split('\n')[0]!.slice('> **truncated** — '.length)}\n\n${(both.result as JsonResult).markdown}`);
    expect(both.text).toContain('- src/main.ts → src/app/lazy.ts, src/app/report.ts, src/lib/format.ts');
    expect((both.result as JsonResult).context.elements).toHaveLength(2);
    expect(both.result._meta.truncated).toBe(true);
  });

  it('errors: an absolute pattern, a foreign cursor, an unknown output_format are INVALID_INPUT', async () => {
    expect((await fx.runError('validate_references', { pattern: '/etc/**' })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('coverage_report', { cursor: 'bm9wZQ' })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('project_context', { output_format: 'yaml' })).code).toBe('INVALID_INPUT');
  });
});

describe.runIf(goAvailable)('Go (rel-go)', async () => {
  const fx = await openFixture('rel-go');

  it('validate_references: a broken import (gopls answers its definition with an error) and an undeclared name; `unsafe` resolves', async () => {
    const r = await fx.run('validate_references');
    expect(errors(r)).toEqual([
      'broken/broken.go:5 unresolved_import example.com/relgo/nothere [diagnostic+import_graph] BrokenImport',
      'broken/broken.go:8 undefined_name notDeclaredAnywhere [diagnostic] UndeclaredName',
    ]);
    expect(r.validation.valid_references).toBe(6);
  });

  it('coverage_report: the test references format.Total only', async () => {
    const r = await fx.run('coverage_report');
    expect(r.coverage).toEqual({
      overall: 0.125,
      by_file: { 'cmd/app/main.go': 0, 'format/format.go': 1, 'internal/mathx/mathx.go': 0, 'internal/mathx/neg.go': 0 },
      untested_files: ['cmd/app/main.go', 'internal/mathx/mathx.go', 'internal/mathx/neg.go'],
    });
  });

  it('project_context: Go packages under the module, imports as package directories', async () => {
    const c = (await fx.run('project_context')).context;
    expect(c.summary.packages.map((p: JsonResult) => `${p.kind} ${p.name}`)).toEqual([
      'go-module example.com/relgo',
      'go-package example.com/relgo/broken',
      'go-package example.com/relgo/cmd/app',
      'go-package example.com/relgo/format',
      'go-package example.com/relgo/internal/mathx',
    ]);
    expect(c.summary.entry_points).toEqual([{ file: 'cmd/app/main.go', line: 13, name: 'main', reason: 'top-level `main`' }]);
    expect(c.dependencies).toEqual({ 'cmd/app/main.go': ['format'], 'format/format.go': ['internal/mathx'] });
    expect(Object.keys(c.test_patterns)).toEqual(['go test']);
  });
});

describe('Python (rel-py)', async () => {
  const fx = await openFixture('rel-py');

  it('validate_references: pyright rules reportMissingImports / reportUndefinedVariable', async () => {
    const listed = errors(await fx.run('validate_references'));
    expect(listed.slice(0, 2)).toEqual([
      'app/broken.py:2 unresolved_import pkg.nothere [diagnostic+import_graph] reportMissingImports',
      'app/broken.py:4 undefined_name not_declared_anywhere [diagnostic] reportUndefinedVariable',
    ]);
    // Under load pyright's publish for main.py (opened early by the catalog) can lack this import's
    // diagnostic; the import graph lists it either way.
    expect(listed.slice(2)).toHaveLength(1);
    expect(listed[2]).toMatch(/^main\.py:2 unresolved_import nonexistent_mod \[(diagnostic\+)?import_graph\]/);
  });

  it('coverage_report: tests/test_mathx.py references pkg.mathx.add', async () => {
    const r = await fx.run('coverage_report');
    expect(r.coverage.by_file).toEqual({ 'app/report.py': 0, 'app/routes.py': 0, 'main.py': 0, 'pkg/format.py': 0, 'pkg/mathx.py': 0.25 });
    expect(r).toMatchObject({ covered: 1, total: 10, mode: 'reference' });
  });

  it('project_context: distribution, packages, the __main__ guard', async () => {
    const c = (await fx.run('project_context')).context;
    expect(c.summary.packages.map((p: JsonResult) => `${p.kind} ${p.name}`)).toEqual([
      'python-distribution rel-py',
      'python-package app',
      'python-package pkg',
    ]);
    expect(c.summary.entry_points.map((e: JsonResult) => `${e.file}:${e.line}`)).toEqual(['main.py:7', 'main.py:11']);
    expect(c.dependencies['tests/test_mathx.py']).toEqual(['pkg/mathx.py']);
    expect(c.test_patterns.pytest.files).toEqual(['tests/test_mathx.py']);
  });
});

describe('PHP (rel-php)', async () => {
  const fx = await openFixture('rel-php');

  it('validate_references: intelephense P-codes plus `use` and `require` lines only the import graph sees', async () => {
    expect(errors(await fx.run('validate_references'))).toEqual([
      'app/broken.php:4 unresolved_import App\\Nothing\\Gone [import_graph]',
      'app/broken.php:6 undefined_name Gone [diagnostic] P1009',
      'app/broken.php:7 undefined_name notDeclaredAnywhere [diagnostic] P1010',
      "bootstrap.php:4 unresolved_import __DIR__ . '/app/missing.php' [import_graph]",
    ]);
  });

  it('coverage_report: the test references Calc and Calc::add', async () => {
    const r = await fx.run('coverage_report', { format: 'detailed' });
    expect(r.coverage.by_file['app/Math/Calc.php']).toBe(0.4);
    expect(r.files.find((f: FileCoverage) => f.file === 'app/Math/Calc.php').untested_symbols).toEqual(['Calc.multiply', 'Calc.square', 'Calc.unusedHelper']);
    expect(r).toMatchObject({ covered: 2, total: 14 });
  });

  it('project_context: composer package and namespaces', async () => {
    const c = (await fx.run('project_context')).context;
    expect(c.summary.packages[0]).toEqual({ name: 'lspgate/rel-php', kind: 'composer', path: 'composer.json' });
    expect(c.dependencies['tests/CalcTest.php']).toEqual(['app/Math/Calc.php']);
    expect(Object.keys(c.test_patterns)).toEqual(['phpunit']);
  });
});

describe('line coverage (rel-complexity: lcov, Go coverprofile, coverage.py JSON, Clover)', async () => {
  const fx = await openFixture('rel-complexity');

  it('per-file shares from each format, uncovered runs, and the source file no coverage file covers', async () => {
    const r = await fx.run('coverage_report', { format: 'detailed' });
    expect(r).toMatchObject({
      mode: 'line',
      sources: ['coverage/lcov.info', 'coverage.out', 'coverage.json', 'clover.xml'],
      covered: 20,
      total: 36,
      files_without_data: ['helper.ts'],
    });
    expect(r.coverage).toEqual({ overall: 0.556, by_file: { 'grade.go': 0.364, 'Grade.php': 0.75, 'grade.py': 0.545, 'grade.ts': 0.7 }, untested_files: [] });
    expect(r.files.find((f: FileCoverage) => f.file === 'grade.ts').uncovered_lines).toEqual([
      { start: 12, end: 14 },
      { start: 21, end: 21 },
    ]);
  });
});
