// The import graph of a TypeScript project that also holds JavaScript (.js, .mjs, .cjs): each file
// is scanned with the import query of its own grammar, so the JavaScript files' `import`, `export …
// from`, `import()` and `require()` are found and resolved by tsserver like the TypeScript ones
// (a TypeScript-only query node compiled against the JavaScript grammar used to fail the whole graph).
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import type { JsonResult, Relationship } from '../helpers/results.js';

type ListedRelationship = Relationship & { specifier?: string; kind?: string };

/** `from -> to @file:line [status]`: one line per import, in answer order. */
function lines(r: JsonResult): string[] {
  return r.results.map((x: ListedRelationship) => `${x.from} -> ${x.to} @${x.file}:${x.line} [${x.status}]`);
}

describe('import graph: a TypeScript project with .js/.mjs/.cjs files', async () => {
  const fx = await openFixture('ts-js-mixed');
  const imports = async (target: string) => lines(await fx.run('query_relationships', { query_type: 'imports', target, max_depth: 1 }));

  it('TypeScript files import JavaScript modules (.js, .mjs) and `import x = require()` a .cjs one', async () => {
    expect(await imports('src/main.ts')).toEqual([
      'src/main.ts -> src/lib/strings.js @src/main.ts:1 [workspace]',
      'src/main.ts -> src/lib/config.mjs @src/main.ts:2 [workspace]',
    ]);
    expect(await imports('src/legacy.cts')).toEqual(['src/legacy.cts -> src/lib/defaults.cjs @src/legacy.cts:1 [workspace]']);
  });

  it('JavaScript files: import, export … from, import() and require() are edges', async () => {
    expect(await imports('src/lib/strings.js')).toEqual([
      'src/lib/strings.js -> src/lib/case.mjs @src/lib/strings.js:1 [workspace]',
      'src/lib/strings.js -> src/lib/case.mjs @src/lib/strings.js:7 [workspace]',
    ]);
    expect(await imports('src/lib/case.mjs')).toEqual(['src/lib/case.mjs -> src/lib/strings.js @src/lib/case.mjs:6 [workspace]']);
    expect(await imports('src/lib/config.mjs')).toEqual(['src/lib/config.mjs -> src/lib/defaults.cjs @src/lib/config.mjs:1 [workspace]']);
    expect(await imports('src/lib/defaults.cjs')).toEqual(['src/lib/defaults.cjs -> src/lib/case-cjs.cjs @src/lib/defaults.cjs:1 [workspace]']);
  });

  it('imports-me of a CommonJS module lists its ES-module and TypeScript importers', async () => {
    const r = await fx.run('query_relationships', { query_type: 'imports-me', target: 'src/lib/defaults.cjs', max_depth: 2 });
    expect(lines(r)).toEqual([
      'src/legacy.cts -> src/lib/defaults.cjs @src/legacy.cts:1 [workspace]',
      'src/lib/config.mjs -> src/lib/defaults.cjs @src/lib/config.mjs:1 [workspace]',
      'src/main.ts -> src/lib/config.mjs @src/main.ts:2 [workspace]',
    ]);
  });
});
