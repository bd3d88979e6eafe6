// query_relationships on the rel-* fixtures (one per language, truth written by hand: the calls and
// imports each fixture file makes). Real servers: tsserver, gopls, pyright, intelephense.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES, openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { JsonResult, Relationship } from '../helpers/results.js';

/** A relationship as query_relationships lists it (imports add their specifier and how it was reached). */
type ListedRelationship = Relationship & { specifier?: string; via?: string[] };

/** `depth from -> to @file:line [status]`: one line per relationship, in answer order. */
function lines(r: JsonResult): string[] {
  return r.results.map(
    (x: ListedRelationship) => `${x.depth} ${x.from} -> ${x.to} @${x.file}:${x.line}${x.status ? ` [${x.status}]` : ''}${x.via ? ` (${x.via.join('+')})` : ''}`,
  );
}

describe('query_relationships: TypeScript', async () => {
  const fx = await openFixture('rel-ts');

  it('calls-me follows callers across files to max_depth, with symbol ids', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'add' });
    expect(r).toMatchObject({ success: true, query_type: 'calls-me', target: 'add', total: 4 });
    expect(lines(r)).toEqual([
      '1 total -> add @src/lib/format.ts:5',
      '1 testAdd -> add @test/math.test.ts:4',
      '2 report -> total @src/app/report.ts:5',
      '3 main -> report @src/main.ts:9',
    ]);
    expect(r.results[0]).toMatchObject({ type: 'call', from_symbol_id: 'src/lib/format.ts::total#function', to_symbol_id: 'src/lib/math.ts::add#function' });
    const one = await fx.run('query_relationships', { query_type: 'calls-me', target: 'src/lib/math.ts::add#function', max_depth: 1 });
    expect(lines(one)).toEqual(lines(r).slice(0, 2));
  });

  it('calls follows callees, through a namespace import and a dynamic import', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls', target: 'main', max_depth: 3 });
    expect(lines(r)).toEqual([
      '1 main -> later @src/main.ts:11',
      '1 main -> report @src/main.ts:9',
      '2 report -> total @src/app/report.ts:5',
      '2 report -> square @src/app/report.ts:5',
      '3 total -> add @src/lib/format.ts:5',
      '3 square -> multiply @src/lib/math.ts:10',
    ]);
  });

  it('imports: relative, tsconfig-path alias, re-export and dynamic import resolved by tsserver; unresolved ones say so', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'src/main.ts', max_depth: 1 });
    expect(lines(r)).toEqual([
      '1 src/main.ts -> src/app/report.ts @src/main.ts:1 [workspace]',
      '1 src/main.ts -> node:fs @src/main.ts:2 [unresolved]',
      '1 src/main.ts -> ./nope @src/main.ts:4 [unresolved]',
      '1 src/main.ts -> src/lib/format.ts @src/main.ts:6 [workspace]',
      '1 src/main.ts -> src/app/lazy.ts @src/main.ts:10 [workspace]',
    ]);
    expect(r.results.map((x: ListedRelationship) => x.specifier)).toEqual(['./app/report', 'node:fs', './nope', '@lib/format', './app/lazy']);
  });

  it('imports-me: the files importing a module (as tsc --traceResolution resolves them), then their importers', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'src/lib/math.ts', max_depth: 2 });
    expect(lines(r)).toEqual([
      '1 src/app/report.ts -> src/lib/math.ts @src/app/report.ts:2 [workspace]',
      '1 src/lib/format.ts -> src/lib/math.ts @src/lib/format.ts:1 [workspace]',
      '1 test/math.test.ts -> src/lib/math.ts @test/math.test.ts:1 [workspace]',
      '2 src/main.ts -> src/app/report.ts @src/main.ts:1 [workspace]',
      '2 src/app/report.ts -> src/lib/format.ts @src/app/report.ts:1 [workspace]',
      '2 src/main.ts -> src/lib/format.ts @src/main.ts:6 [workspace]',
    ]);
  });

  it('depends-on: imports and calls at file level; a symbol target stands for its file', async () => {
    const r = await fx.run('query_relationships', { query_type: 'depends-on', target: 'report', max_depth: 1 });
    expect(r.target).toBe('report');
    expect(lines(r)).toEqual([
      '1 src/app/report.ts -> src/lib/format.ts @src/app/report.ts:1 (call+import)',
      '1 src/app/report.ts -> src/lib/math.ts @src/app/report.ts:2 (call+import)',
    ]);
    const me = await fx.run('query_relationships', { query_type: 'depends-on-me', target: 'src/app/lazy.ts', max_depth: 2 });
    // main.ts imports lazy.ts dynamically and calls later(); nothing depends on main.ts.
    expect(lines(me)).toEqual(['1 src/main.ts -> src/app/lazy.ts @src/main.ts:10 (call+import)']);
  });

  it('pages with max_results and a cursor that continues exactly there', async () => {
    const first = await fx.gateway.run('query_relationships', { query_type: 'calls-me', target: 'add', max_results: 3, output_format: 'json' });
    expect(first.result.results).toHaveLength(3);
    expect(first.result._meta.truncated).toBe(true);
    const rest = await fx.run('query_relationships', { query_type: 'calls-me', target: 'add', max_results: 3, cursor: first.result._meta.next_cursor });
    expect(lines(rest)).toEqual(['3 main -> report @src/main.ts:9']);
  });

  it('errors: a file where a function is needed, an unknown name, a depth out of range', async () => {
    expect((await fx.runError('query_relationships', { query_type: 'calls-me', target: 'src/lib/math.ts' })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('query_relationships', { query_type: 'calls-me', target: 'noSuchFunction' })).code).toBe('SYMBOL_NOT_FOUND');
    expect((await fx.runError('query_relationships', { query_type: 'imports', target: 'src/main.ts', max_depth: 11 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('query_relationships', { query_type: 'imports', target: '../outside.ts' })).code).toBe('PATH_OUTSIDE_WORKSPACE');
  });
});

describe('query_relationships: the import graph follows edits', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-rel-ts-'));
  fs.cpSync(path.join(FIXTURES, 'rel-ts'), root, { recursive: true });
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const gateway = await Gateway.create({ root: fs.realpathSync(root), cacheDir });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  const importers = async () =>
    (
      (await gateway.run('query_relationships', { query_type: 'imports-me', target: 'src/lib/math.ts', max_depth: 1, output_format: 'json' }))
        .result as JsonResult
    ).results.map((x: ListedRelationship) => x.from);

  it('a new importing file and a removed import change imports-me after refresh', async () => {
    expect(await importers()).toEqual(['src/app/report.ts', 'src/lib/format.ts', 'test/math.test.ts']);
    fs.writeFileSync(path.join(root, 'src/extra.ts'), "import { multiply } from './lib/math';\nexport const six = multiply(2, 3);\n");
    fs.writeFileSync(path.join(root, 'src/lib/format.ts'), 'export function total(xs: number[]): string {\n  return String(xs.length);\n}\n');
    await gateway.run('refresh', {});
    expect(await importers()).toEqual(['src/app/report.ts', 'src/extra.ts', 'test/math.test.ts']);
  });
});

describe.runIf(goAvailable)('query_relationships: Go', async () => {
  const fx = await openFixture('rel-go');

  it('calls-me crosses packages (aliased import) and reaches main and the test', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'Add' });
    expect(lines(r)).toEqual(['1 Total -> Add @format/format.go:14', '2 main -> Total @cmd/app/main.go:14', '2 TestTotal -> Total @format/format_test.go:6']);
  });

  it('imports name packages: std lib external, module packages resolved by gopls to their directory', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'cmd/app/main.go', max_depth: 3 });
    expect(lines(r)).toEqual([
      '1 cmd/app/main.go -> fmt @cmd/app/main.go:4 [external]',
      '1 cmd/app/main.go -> format @cmd/app/main.go:6 [workspace]',
      '2 format/format.go -> strconv @format/format.go:5 [external]',
      '2 format/format.go -> internal/mathx @format/format.go:7 [workspace]',
    ]);
  });

  it('imports-me of any file of a package lists the importers of the package', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'internal/mathx/neg.go' });
    expect(lines(r)).toEqual([
      '1 format/format.go -> internal/mathx @format/format.go:7 [workspace]',
      '2 cmd/app/main.go -> format @cmd/app/main.go:6 [workspace]',
    ]);
  });

  it('depends-on-me: importers and callers, transitively', async () => {
    const r = await fx.run('query_relationships', { query_type: 'depends-on-me', target: 'internal/mathx/mathx.go', max_depth: 2 });
    expect(lines(r)).toEqual([
      '1 format/format.go -> internal/mathx/mathx.go @format/format.go:7 (call+import)',
      '2 cmd/app/main.go -> format/format.go @cmd/app/main.go:6 (call+import)',
      '2 format/format_test.go -> format/format.go @format/format_test.go:6 (call)',
    ]);
  });
});

describe('query_relationships: Python', async () => {
  const fx = await openFixture('rel-py');

  it('calls-me finds cross-file and cross-package callers, a decorated route among them', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'add' });
    expect(lines(r)).toEqual([
      '1 total -> add @pkg/format.py:8',
      '1 test_add -> add @tests/test_mathx.py:5',
      '2 report -> total @app/report.py:7',
      '3 index -> report @app/routes.py:17',
      '3 main -> report @main.py:8',
    ]);
  });

  it('imports: stdlib external, a missing module unresolved, packages followed', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'main.py', max_depth: 2 });
    expect(lines(r)).toEqual([
      '1 main.py -> os @main.py:1 [external]',
      '1 main.py -> nonexistent_mod @main.py:2 [unresolved]',
      '1 main.py -> app/report.py @main.py:4 [workspace]',
      '2 app/report.py -> pkg/mathx.py @app/report.py:2 [workspace]',
      '2 app/report.py -> pkg/format.py @app/report.py:3 [workspace]',
    ]);
  });

  it('imports-me: relative (`from .mathx`), aliased (`import pkg.mathx as m`), absolute and submodule (`from pkg import mathx`) imports', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'pkg/mathx.py', max_depth: 1 });
    expect(lines(r)).toEqual([
      '1 app/bundle.py -> pkg/mathx.py @app/bundle.py:2 [workspace]',
      '1 app/report.py -> pkg/mathx.py @app/report.py:2 [workspace]',
      '1 pkg/format.py -> pkg/mathx.py @pkg/format.py:2 [workspace]',
      '1 tests/test_mathx.py -> pkg/mathx.py @tests/test_mathx.py:1 [workspace]',
    ]);
  });

  it('`from pkg import a, b` imports the package and each name that is a submodule; `from . import m` the package and the module m', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'app/bundle.py', max_depth: 1 });
    expect(lines(r)).toEqual([
      '1 app/bundle.py -> pkg/__init__.py @app/bundle.py:2 [workspace]',
      '1 app/bundle.py -> pkg/format.py @app/bundle.py:2 [workspace]',
      '1 app/bundle.py -> pkg/mathx.py @app/bundle.py:2 [workspace]',
      '1 app/bundle.py -> app/__init__.py @app/bundle.py:3 [workspace]',
      '1 app/bundle.py -> app/report.py @app/bundle.py:3 [workspace]',
    ]);
  });
});

describe('query_relationships: PHP', async () => {
  const fx = await openFixture('rel-php');

  it('calls-me of `Class#method` through the references fallback (intelephense has no call hierarchy)', async () => {
    const r = await fx.gateway.run('query_relationships', { query_type: 'calls-me', target: 'Calc#add', output_format: 'json' });
    expect(lines(r.result)).toEqual([
      '1 Formatter.total -> Calc.add @app/Format/Formatter.php:13',
      '1 CalcTest.testAdd -> Calc.add @tests/CalcTest.php:11',
      '2 Report.render -> Formatter.total @app/Report.php:13',
      '3 report_line -> Report.render @app/helpers.php:5',
    ]);
    expect(r.result._meta.warnings).toContain('intelephense has no call hierarchy: callers derived from references');
  });

  it('imports: `use` (aliased too) resolved to the class, require_once by its __DIR__ path', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'bootstrap.php', max_depth: 3 });
    expect(lines(r)).toEqual([
      '1 bootstrap.php -> app/helpers.php @bootstrap.php:3 [workspace]',
      "1 bootstrap.php -> __DIR__ . '/app/missing.php' @bootstrap.php:4 [unresolved]",
    ]);
    const me = await fx.run('query_relationships', { query_type: 'imports-me', target: 'app/Math/Calc.php', max_depth: 2 });
    expect(lines(me)).toEqual([
      '1 app/Format/Formatter.php -> app/Math/Calc.php @app/Format/Formatter.php:5 [workspace]',
      '1 app/Report.php -> app/Math/Calc.php @app/Report.php:6 [workspace]',
      '1 tests/CalcTest.php -> app/Math/Calc.php @tests/CalcTest.php:5 [workspace]',
      '2 app/Report.php -> app/Format/Formatter.php @app/Report.php:5 [workspace]',
    ]);
    expect(me.results[0].to_symbol_id).toBe('app/Math/Calc.php::Calc#class');
  });
});
