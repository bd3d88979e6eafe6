// fixtures/narrow-ts: a TypeScript project whose tsconfig.json includes only `src`; tests/ and examples/
// call its helper and its method from outside it, and examples/run.ts calls them only through a caller
// (it never spells `total` or `helper`). tsserver loads such a file in an inferred project of its own
// once it is open; its call hierarchy answers from the project of the callee's file only (no caller
// outside src), its references and rename combine every loaded project.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

interface Node {
  name: string;
  file: string;
  call_sites: { line: number }[];
  children?: Node[];
}

/** `name file:lines` per node, children indented under their caller. */
function tree(nodes: Node[], indent = ''): string[] {
  return nodes.flatMap((n) => [`${indent}${n.name} ${n.file}:${n.call_sites.map((s) => s.line).join(',')}`, ...tree(n.children ?? [], `${indent}  `)]);
}

const edges = (r: JsonResult) =>
  r.results.map((x: { depth: number; from: string; to: string; file: string; line: number }) => `${x.depth} ${x.from} -> ${x.to} @${x.file}:${x.line}`);

describe('narrow TypeScript project: callers outside tsconfig.json, from a cold start', async () => {
  const fx = await openFixture('narrow-ts');

  it('find_callers lists the callers in tests/ and examples/, and their callers at depth 2', async () => {
    const helper = await fx.run('find_callers', { symbol: 'helper', depth: 2 });
    expect(tree(helper.root.calls)).toEqual([
      'basket examples/demo.ts:5',
      '  main examples/run.ts:4,5',
      'summary src/report.ts:4',
      'testHelper tests/cart.test.ts:17,18',
    ]);
  });

  it('calls-me at depth 1 and 2: the callers outside src, and a caller of a caller in a file that never spells the name', async () => {
    const one = await fx.run('query_relationships', { query_type: 'calls-me', target: 'Cart#total', max_depth: 1 });
    expect(edges(one)).toEqual([
      '1 basket -> Cart.total @examples/demo.ts:5',
      '1 sumOf -> Cart.total @tests/cart.test.ts:8',
      '1 testTotal -> Cart.total @tests/cart.test.ts:13',
    ]);
    // tsserver's call hierarchy lists none of the three; its references find them
    expect(one._meta.warnings.join('\n')).toContain(
      "3 call site(s) that typescript-language-server's call hierarchy does not list were found by its references",
    );
    const two = await fx.run('query_relationships', { query_type: 'calls-me', target: 'Cart#total', max_depth: 2 });
    expect(edges(two)).toEqual([
      '1 basket -> Cart.total @examples/demo.ts:5',
      '1 sumOf -> Cart.total @tests/cart.test.ts:8',
      '1 testTotal -> Cart.total @tests/cart.test.ts:13',
      '2 main -> basket @examples/run.ts:4',
      '2 testTotal -> sumOf @tests/cart.test.ts:12',
    ]);
  });
});

describe('narrow TypeScript project: rename sites outside tsconfig.json', async () => {
  const fx = await openScratch('narrow-ts');

  it('tsserver renames the uses in the files lspgate opened; not_renamed lists what it left (a doc comment); apply needs accept_not_renamed', async () => {
    const preview = await fx.run('rename_symbol', { symbol: 'Cart.total', new_name: 'sumAll' });
    expect(preview.files.map((f: { file: string; edits: number }) => `${f.file} ${f.edits}`)).toEqual([
      'examples/demo.ts 1',
      'src/cart.ts 1',
      'tests/cart.test.ts 2',
    ]);
    const comment = "/** A basket's total, plus the helper's share. */";
    expect(fx.read('examples/demo.ts').split('\n')[2]).toBe(comment);
    expect(preview.not_renamed).toEqual([{ file: 'examples/demo.ts', line: 3, column: comment.indexOf('total') + 1, text: comment, resolves: 'nothing' }]);
    expect(preview._meta.warnings.join('\n')).toContain('1 occurrence(s) of `total` in 1 file(s) are not renamed by typescript-language-server');
    const before = ['src/cart.ts', 'tests/cart.test.ts', 'examples/demo.ts'].map((f) => fx.read(f));
    const refused = await fx.runError('rename_symbol', { symbol: 'Cart.total', new_name: 'sumAll', apply: true });
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details?.not_renamed).toHaveLength(1);
    expect(['src/cart.ts', 'tests/cart.test.ts', 'examples/demo.ts'].map((f) => fx.read(f))).toEqual(before);
    const applied = await fx.run('rename_symbol', { symbol: 'Cart.total', new_name: 'sumAll', apply: true, accept_not_renamed: true });
    expect([applied.applied, applied.not_renamed.length]).toEqual([true, 1]);
    expect(fx.read('src/cart.ts')).toContain('  sumAll(prices: number[]): number {');
    expect(fx.read('tests/cart.test.ts')).toContain('return new Cart().sumAll(prices);');
    expect(fx.read('tests/cart.test.ts')).toContain('check(new Cart().sumAll([3]) === 3);');
    expect(fx.read('examples/demo.ts')).toContain(`${comment}\nexport function basket(): number {\n  return new Cart().sumAll([4, 5]) + helper(1);`);
  });
});
