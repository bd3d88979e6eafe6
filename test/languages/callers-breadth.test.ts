// find_callers goes breadth first, non-test before test, and a cut says so in the first line of the
// markdown. Fixture callers-crowd-ts: Store.save has 3 direct callers in src/ (saveA, saveB, saveC)
// and 5 direct test callers; 50 test functions call saveA. A depth-first walk spent its 50-node
// budget on saveA's tests and left saveB and saveC out, saying so only in `_meta`.
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

interface Node {
  name: string;
  file: string;
  children?: Node[];
}

describe('find_callers: breadth first, cuts in the first line', async () => {
  const fx = await openFixture('callers-crowd-ts');

  it('depth 2, budget 50: every direct caller, non-test first; the cut is the first line', async () => {
    const input = { symbol: 'Store.save', depth: 2, max_results: 50 };
    const r = await fx.run('find_callers', input);
    const direct = (r.root.calls as Node[]).map((n) => n.name);
    expect(direct).toEqual(['saveA', 'saveB', 'saveC', 'testStoreDirect1', 'testStoreDirect2', 'testStoreDirect3', 'testStoreDirect4', 'testStoreDirect5']);
    const underA = (r.root.calls as Node[])[0]!.children ?? [];
    expect(underA).toHaveLength(42);
    expect(r._meta.truncated).toBe(true);
    expect(r._meta.limits_hit).toEqual([
      {
        limit: 'max_results',
        value: 50,
        detail: '8 caller(s) at depth 2 (8 of them in tests) not listed; raise max_results (up to 1000) or lower depth for the rest',
      },
    ]);
    const text = await fx.runText('find_callers', input);
    expect(text.split('\n')[0]).toBe(
      '> **truncated** — max_results 50: 8 caller(s) at depth 2 (8 of them in tests) not listed; raise max_results (up to 1000) or lower depth for the rest',
    );
    // the whole tree within a budget that holds it: no cut, no notice
    const all = await fx.run('find_callers', { ...input, max_results: 100 });
    expect(all._meta.truncated).toBe(false);
    expect(((all.root.calls as Node[])[0]!.children ?? []).length).toBe(50);
    expect((await fx.runText('find_callers', { ...input, max_results: 100 })).startsWith('## Callers of Store.save')).toBe(true);
  }, 180_000);

  it("files the callee's project holds are not opened: the hierarchy covers them", async () => {
    // test/ is in tsconfig.json: its ~50 files spelling `saveA` are callers tsserver lists unopened
    const r = await fx.run('find_callers', { symbol: 'saveA', max_results: 100 });
    expect((r.root.calls as Node[]).length).toBeGreaterThanOrEqual(42);
    const abs = path.join(fx.root, (r.root.calls as Node[])[0]!.file);
    const session = await fx.gateway.context.broker.sessionFor(abs, fx.root);
    expect((r.root.calls as Node[]).filter((n) => session.getDocument(path.join(fx.root, n.file)))).toEqual([]);
  }, 180_000);

  it('a lookup that opened fewer files than mention the name is a cut, said first', async () => {
    // extra/ is outside tsconfig.json: its 52 files spelling `helper` must be opened to be seen
    // one call: a second one finds the 50 files open already
    const { result: r, text } = await fx.gateway.run('find_callers', { symbol: 'helper', output_format: 'markdown' });
    expect(r._meta.truncated).toBe(true);
    expect(r._meta.limits_hit![0]).toMatchObject({ limit: 'files_opened', value: 50 });
    expect(text.split('\n')[0]).toMatch(/^> \*\*truncated\*\* — files_opened 50: 52 files mention `helper` .*search_text/);
  }, 180_000);
});
