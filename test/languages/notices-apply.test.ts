// The "answered from syntax trees" notice and its install hints head an answer only when an item
// of it comes from a file no server handles. A TypeScript workspace holding a CSS file and a shell
// script (grammar-only languages) put the notice on every answer, search_symbols included after
// every server was ready, and impact listed the CSS and shell files as partial with install hints.
import { describe, expect, it } from 'vitest';

import { openScratch } from '../helpers/scratch.js';

const EXTRA = {
  'styles/add.css': '.add { color: red; }\n.multiply { color: blue; }\n',
  'scripts/add.sh': '#!/bin/sh\nadd() {\n  echo "$1"\n}\nadd 1\n',
};

describe('notices only where they apply', async () => {
  const fx = await openScratch('rel-ts', EXTRA);

  const firstLine = async (op: string, input: Record<string, unknown>) => (await fx.runText(op, input)).split('\n')[0]!;

  it('TypeScript answers carry no syntax notice', async () => {
    for (const [op, input] of [
      ['find_definition', { symbol_id: 'src/lib/math.ts::add#function' }],
      ['find_references', { symbol_id: 'src/lib/math.ts::add#function' }],
      ['find_callers', { symbol_id: 'src/lib/math.ts::add#function', depth: 2 }],
      ['query_relationships', { query_type: 'calls-me', target: 'src/lib/math.ts::add#function' }],
      ['query_relationships', { query_type: 'imports-me', target: 'src/lib/math.ts' }],
    ] as const) {
      const r = await fx.run(op, input);
      expect(r._meta.index_state, op).toBe('ready');
      expect(await firstLine(op, input), op).not.toMatch(/syntax trees|index_state/);
    }
  }, 180_000);

  it('search_symbols and search_code: only when a hit comes from a grammar-only file', async () => {
    const ts = await fx.run('search_symbols', { query: 'multiply', kind: 'function' });
    expect(ts.results.map((h: { file: string }) => h.file)).toEqual(['src/lib/math.ts']);
    expect(ts._meta.index_state).toBe('ready');
    const code = await fx.run('search_code', { query: 'square of a number multiply' });
    expect(code.hits.length).toBeGreaterThan(0);
    if (code.hits.every((h: { citation: { file: string } }) => h.citation.file.endsWith('.ts'))) expect(code._meta.index_state).toBe('ready');
    // a hit in the CSS file is an item from a file without a server: said
    const css = await fx.run('search_symbols', { query: 'multiply' });
    expect(css.results.map((h: { file: string }) => h.file)).toContain('styles/add.css');
    expect(css._meta.index_state).toBe('syntax');
  }, 180_000);

  it('impact of a TypeScript function leaves out CSS and shell files, with no install hints', async () => {
    const r = await fx.run('analyze_impact', { element: 'src/lib/math.ts::add#function', operation: 'modify' });
    expect(r._meta.index_state).toBe('ready');
    const said = JSON.stringify(r);
    expect(said).not.toMatch(/add\.css|add\.sh|SERVER_NOT_INSTALLED|install/);
    expect((await fx.runText('analyze_impact', { element: 'src/lib/math.ts::add#function', operation: 'modify' })).split('\n')[0]).not.toMatch(
      /syntax trees|index_state/,
    );
  }, 180_000);
});
