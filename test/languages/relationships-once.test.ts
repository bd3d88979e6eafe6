// Relationships at depth >= 2 list each edge once, at its smallest depth (a diamond of callers or
// importers reached the shared part along several paths, and each path repeated its edges: a Go
// package's second file repeated every importer of the package). Impact says direct and
// transitive files apart.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { JsonResult } from '../helpers/results.js';

const rows = (r: JsonResult) =>
  r.results.map((x: { from: string; to: string; depth: number; paths?: number }) => `${x.depth} ${x.from} -> ${x.to}${x.paths ? ` (${x.paths} paths)` : ''}`);

describe.runIf(goAvailable)('relationships once: Go', async () => {
  const fx = await openFixture('partial-go');

  it('imports-me: the importer of a package with two importing files is listed once', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'chain/c/c.go', max_depth: 2 });
    expect(rows(r)).toEqual([
      '1 chain/a/a.go -> chain/c',
      '1 chain/b/b.go -> chain/c',
      '1 chain/b/b2.go -> chain/c',
      '2 cmd/app/main.go -> chain/a',
      '2 chain/a/a.go -> chain/b',
    ]);
  });

  it('calls-me: a caller reached along two paths is one edge at its smallest depth, with the paths count', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'chain/c/c.go::leaf#function', max_depth: 3 });
    expect(rows(r)).toEqual([
      '1 Bottom -> leaf',
      '1 Other -> leaf',
      '2 Top -> Bottom',
      '2 Left -> Bottom',
      '2 Left -> Other',
      '2 Right -> Other',
      '3 main -> Top',
      '3 Top -> Left (2 paths)',
    ]);
  });
});

describe('relationships once: TypeScript', async () => {
  const fx = await openFixture('partial-ts');

  it('calls-me through a diamond: main -> top once, at depth 3', async () => {
    const r = await fx.run('query_relationships', { query_type: 'calls-me', target: 'src/deep/bottom.ts::bottom#function', max_depth: 4 });
    expect(rows(r)).toEqual(['1 left -> bottom', '1 right -> bottom', '2 top -> left', '2 top -> right', '3 main -> top (2 paths)']);
  });

  it('impact says direct and transitive files apart, and the rule', async () => {
    const r = await fx.run('analyze_impact', { element: 'src/deep/bottom.ts::bottom#function', operation: 'delete' });
    expect(r.impact).toMatchObject({ affected_files: 4, total_affected_files: 4, direct_files: 2, transitive_files: 2, references: 4, risk_level: 'HIGH' });
    expect(r.impact.risk_reason).toBe(
      'delete of an element with 4 reference(s); 2 file(s) use it directly and 2 more are reached only through callers or importers: 4 affected file(s) (HIGH below 10 files, CRITICAL from 10)',
    );
  });
});
