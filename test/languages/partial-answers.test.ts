// One file a server cannot answer for never fails a whole report: it is listed in `skipped` with
// the server's failure, the answer is `partial` (in `_meta` and in the text), the rest is answered.
// fixtures/partial-go holds shapes/legacy.go, excluded by `//go:build !go1.21`: gopls answers
// "no package metadata" for every request about it (before: find_dead_code, coverage_report,
// depends-on and render_diagram failed whole with INTERNAL). lspgate reads that answer: SERVER_FAILED
// naming the constraint, not INTERNAL with gopls's bare message.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { gitCopy } from '../helpers/git-copy.js';
import { goAvailable } from '../helpers/go.js';
import type { JsonResult } from '../helpers/results.js';

const LEGACY = 'shapes/legacy.go';

function expectLegacySkipped(r: JsonResult): void {
  expect(r.skipped.map((s: { file: string; code: string }) => `${s.file} ${s.code}`)).toEqual([`${LEGACY} SERVER_FAILED`]);
  expect(r.skipped[0].reason).toContain("left out of the server's build (its GOOS, GOARCH, Go version and tags) by its build tags `//go:build !go1.21`");
  expect(r._meta.index_state).toBe('partial');
  expect(r._meta.warnings.join('\n')).toContain(`partial: 1 file(s) left out`);
}

describe.runIf(goAvailable)('partial answers: a Go file excluded by build constraints', async () => {
  const fx = await openFixture('partial-go');

  it('find_dead_code answers for the other files and skips it', async () => {
    const r = await fx.run('find_dead_code');
    expectLegacySkipped(r);
    expect(r.candidates.map((c: { category: string; symbol_id: string }) => `${c.category} ${c.symbol_id}`)).toEqual([
      'dead shapes/shape.go::unusedHelper#function',
      'entry_point cmd/app/main.go::main#function',
      // b2.go (the diamond's second file of package b) declares Right, which nothing calls
      'exported_api chain/b/b2.go::Right#function',
    ]);
    const text = await fx.runText('find_dead_code');
    expect(text.startsWith('> **index_state: partial**')).toBe(true);
    expect(text).toContain(`- ${LEGACY} (SERVER_FAILED): `);
  });

  it('coverage_report leaves the file out instead of counting it untested', async () => {
    const r = await fx.run('coverage_report', { format: 'detailed' });
    expectLegacySkipped(r);
    expect(r.files.map((f: { file: string }) => f.file)).not.toContain(LEGACY);
    expect([r.total, r.unchecked]).toEqual([11, 0]);
  });

  it('the import graph: imports-me of its package, depends-on through call trees, the diagram, validate_references', async () => {
    const importers = await fx.run('query_relationships', { query_type: 'imports-me', target: 'shapes/shape.go' });
    expectLegacySkipped(importers);
    expect(importers.results.map((x: { from: string; to: string }) => `${x.from} -> ${x.to}`)).toEqual(['cmd/app/main.go -> shapes']);
    const deps = await fx.run('query_relationships', { query_type: 'depends-on', target: 'cmd/app/main.go', max_depth: 1 });
    expectLegacySkipped(deps);
    expect(deps.results.map((x: { to: string; via: string[] }) => `${x.to} ${x.via.join('+')}`)).toEqual([
      'chain/a/a.go call+import',
      'shapes/shape.go call+import',
    ]);
    const diagram = await fx.run('render_diagram', { format: 'json' });
    expectLegacySkipped(diagram);
    expect(diagram.nodes).toBe(7);
    expectLegacySkipped(await fx.run('validate_references'));
    expectLegacySkipped(await fx.run('project_context'));
    expectLegacySkipped(await fx.run('analyze_impact', { element: 'shapes/shape.go' }));
  });

  it('an answer that does not depend on the file is complete: imports of a file that does not reach it', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports', target: 'chain/b/b.go' });
    expect([r.skipped, r._meta.index_state]).toEqual([[], 'ready']);
  });

  it('find_patterns over the other files', async () => {
    const r = await fx.run('find_patterns');
    expect(r.success).toBe(true);
    expect(r.skipped).toEqual([]);
  });

  it('a request about the file itself is the failure: nothing could be answered', async () => {
    const err = await fx.runError('query_relationships', { query_type: 'calls-me', target: 'shapes/legacy.go::LegacyTotal#function' });
    expect(err.code).toBe('SERVER_FAILED');
    expect(err.message).toContain('gopls builds no package with shapes/legacy.go');
  });

  it('a question about a position in the file names the constraint and how to include it, not INTERNAL', async () => {
    const err = await fx.runError('find_definition', { file: LEGACY, line: 14, column: 21 });
    expect(err.code).toBe('SERVER_FAILED');
    expect(err.details).toMatchObject({ file: LEGACY, reason: 'excluded_by_build_constraint', constraint: '//go:build !go1.21' });
    expect(err.message).toContain('buildFlags');
    // the file's outline still answers, from the parse tree
    const outline = await fx.run('get_file_outline', { file: LEGACY });
    expect(outline.symbols.map((s: { name: string }) => s.name)).toEqual(['legacyArea', 'LegacyTotal']);
  });
});

describe.runIf(goAvailable)('partial answers: changed_symbols with an edit in the excluded file', async () => {
  const fx = await gitCopy('partial-go');

  it('lists the changed symbol without an impact and the file in skipped', async () => {
    fx.edit(LEGACY, 'return side * side', 'return side * side * 1');
    const r = await fx.run();
    expect(
      r.symbols.map((s: { change: string; symbol_id: string; impact?: unknown }) => `${s.change} ${s.symbol_id} ${s.impact ? 'impact' : 'no impact'}`),
    ).toEqual([`modified ${LEGACY}::legacyArea#function no impact`]);
    expectLegacySkipped(r);
  });
});

describe('partial answers: a TypeScript project with .cjs and .mjs files', async () => {
  const fx = await openFixture('partial-ts');

  it('the import graph answers, and says partial exactly when it lists skipped files', async () => {
    for (const [query_type, target] of [
      ['imports-me', 'src/deep/bottom.ts'],
      ['imports', 'src/main.ts'],
      ['depends-on-me', 'src/deep/bottom.ts'],
    ] as const) {
      const r = await fx.run('query_relationships', { query_type, target });
      expect(r.success).toBe(true);
      expect(r._meta.index_state === 'partial').toBe(r.skipped.length > 0);
    }
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'src/deep/bottom.ts', max_depth: 1 });
    expect(r.results.map((x: { from: string }) => x.from)).toEqual(['src/deep/left.ts', 'src/deep/right.ts']);
  });
});
