// get_context on the ctx-* fixtures (one per language, the same shop: cartTotal is called from its
// own file, its directory, another directory and a test; it calls a helper of its file and a logger
// elsewhere; its signature names Item and Money). Real servers: tsserver, gopls, pyright, intelephense.
import { describe, expect, it } from 'vitest';

import { type FixtureGateway, openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { CallNode, JsonResult } from '../helpers/results.js';

interface Case {
  fixture: string;
  symbol: string;
  /** Callers nearest first: same file, same directory, elsewhere. */
  callers: string[];
  callees: string[];
  types: string[];
  testFiles: string[];
}

const tokens = (r: JsonResult) => Math.ceil(Buffer.byteLength(JSON.stringify(r)) / 4);
const refKey = (x: { name: string; file: string; line: number }) => `${x.name}@${x.file}:${x.line}`;
const treeKeys = (r: JsonResult) => (r.root.calls as CallNode[]).map(refKey).sort();

function contextSuite(c: Case, gate = true): void {
  describe.runIf(gate)(`get_context: ${c.fixture}`, async () => {
    const fx: FixtureGateway = await openFixture(c.fixture);

    it('callers and callees are find_callers / find_callees, one hop, ranked by proximity', async () => {
      const r = await fx.run('get_context', { symbol: c.symbol });
      expect(r.truncated).toBe(false);
      expect(r.omitted).toEqual([]);
      const callers = await fx.run('find_callers', { symbol_id: r.symbol_id });
      const callees = await fx.run('find_callees', { symbol_id: r.symbol_id });
      expect(r.callers.map(refKey).sort()).toEqual(treeKeys(callers));
      expect(r.callees.map(refKey).sort()).toEqual(treeKeys(callees));
      expect(r.callers.map((x: JsonResult) => x.name)).toEqual(c.callers);
      expect(r.callees.map((x: JsonResult) => x.name)).toEqual(c.callees);
      const rank = { same_file: 0, same_dir: 1, elsewhere: 2 } as const;
      const order = r.callers.map((x: { proximity: keyof typeof rank }) => rank[x.proximity]);
      expect(order).toEqual([...order].sort());
      // The descriptors come from the catalog: the logger's doc sentence travels with it.
      expect(r.callees.find((x: JsonResult) => /log/i.test(x.file)).summary).toMatch(/^(Log )?[Ww]rites one message to the log\.$/);
    });

    it("source, the signature types resolved by the server, tests and references (the callers' call sites not repeated)", async () => {
      const r = await fx.run('get_context', { symbol: c.symbol });
      const sym = await fx.run('get_symbol', { symbol_id: r.symbol_id });
      // Whole lines (get_symbol starts at the declaration's first byte, after the indentation).
      expect(r.source.text.trimStart()).toBe(sym.source);
      expect(r.types.map((t: JsonResult) => t.name).sort()).toEqual(c.types);
      for (const t of r.types) expect(t.symbol_id).toMatch(/#(class|interface|struct)$/);
      expect([...new Set(r.tests.map((t: JsonResult) => t.file))]).toEqual(c.testFiles);
      const refs = await fx.run('find_references', { symbol_id: r.symbol_id, include_declaration: false, max_results: 1000 });
      const callSites = new Set(r.callers.flatMap((x: { file: string; call_lines: number[] }) => x.call_lines.map((l) => `${x.file}:${l}`)));
      const at = (x: { file: string; line: number }) => `${x.file}:${x.line}`;
      // every call site of a caller outside the tests is a reference: not listed again under references
      for (const x of r.references) expect(callSites.has(at(x)), at(x)).toBe(false);
      const others = refs.references.filter((x: { file: string; line: number }) => !c.testFiles.includes(x.file));
      expect(r.references.map(at)).toEqual(others.filter((x: { file: string; line: number }) => !callSites.has(at(x))).map(at));
      expect(r.tests.length).toBe(refs.references.length - others.length);
      for (const x of r.references) expect(c.testFiles).not.toContain(x.file);
    });

    it('the whole answer stays within max_tokens, and what is cut is listed with the call that fetches it', async () => {
      const full = await fx.run('get_context', { symbol: c.symbol });
      const budgets = [600, 650, 700, tokens(full) - 20].filter((m) => m >= 600 && m < tokens(full));
      expect(budgets.length).toBeGreaterThanOrEqual(3);
      for (const max_tokens of budgets) {
        const r = await fx.run('get_context', { symbol: c.symbol, max_tokens });
        expect(tokens(r), `max_tokens ${max_tokens}`).toBeLessThanOrEqual(max_tokens);
        expect(r.truncated).toBe(true);
        expect(r._meta.truncated).toBe(true);
        // Honest counts: what is shown plus what is omitted is the full answer, part by part.
        for (const part of ['callers', 'callees', 'types', 'tests', 'references']) {
          const cut = r.omitted.find((o: JsonResult) => o.part === part)?.count ?? 0;
          expect(r[part].length + cut, `${part} at ${max_tokens}`).toBe(full[part].length);
        }
        const sourceCut = r.omitted.find((o: JsonResult) => o.part === 'source')?.count ?? 0;
        const shown = r.source ? r.source.end_line - r.source.start_line + 1 : 0;
        expect(shown + sourceCut).toBe(full.end_line - full.line + 1);
      }
      const tiny = await fx.run('get_context', { symbol: c.symbol, max_tokens: 600 });
      const callers = tiny.omitted.find((o: JsonResult) => o.part === 'callers');
      expect(callers.fetch).toEqual({ operation: 'find_callers', input: { symbol_id: full.symbol_id } });
      const fetched = await fx.run(callers.fetch.operation, callers.fetch.input);
      expect(treeKeys(fetched)).toEqual(full.callers.map(refKey).sort());
    });

    it('include picks parts; a type has no call hierarchy to show and says so', async () => {
      const r = await fx.run('get_context', { symbol: c.symbol, include: ['callees'] });
      expect(Object.keys(r).filter((k) => ['source', 'callers', 'callees', 'types', 'tests', 'references'].includes(k))).toEqual(['callees']);
      const t = await fx.run('get_context', { symbol: 'Money', include: ['callers', 'source'] });
      expect(t.callers).toBeUndefined();
      expect(t._meta.warnings.join(' ')).toMatch(/callers: .*Money is a (class|struct|interface)/);
      expect(t.source.text).toContain('Money');
    });
  });
}

contextSuite({
  fixture: 'ctx-ts',
  symbol: 'cartTotal',
  callers: ['checkout', 'summary', 'main', 'testCartTotal'],
  callees: ['price', 'log'],
  types: ['Item', 'Money'],
  testFiles: ['test/cart.test.ts'],
});
contextSuite(
  {
    fixture: 'ctx-go',
    symbol: 'CartTotal',
    // nearest first; within a distance, source before tests
    callers: ['Checkout', 'Summary', 'TestCartTotal', 'main'],
    callees: ['price', 'Log'],
    types: ['Item', 'Money'],
    testFiles: ['shop/cart_test.go'],
  },
  goAvailable,
);
contextSuite({
  fixture: 'ctx-py',
  symbol: 'cart_total',
  callers: ['checkout', 'summary', 'main', 'test_cart_total'],
  callees: ['price', 'log'],
  types: ['Item', 'Money'],
  testFiles: ['tests/test_cart.py'],
});
contextSuite({
  fixture: 'ctx-php',
  symbol: 'Cart.total',
  callers: ['checkout', 'render', 'run', 'testTotal'],
  callees: ['price', 'write'],
  types: ['Money'],
  testFiles: ['tests/CartTest.php'],
});

describe('get_context: errors a caller can cause', async () => {
  const fx = await openFixture('ctx-ts');
  it('a function tsserver prepares no call hierarchy at (a test callback) still gets its context; callers say why they are absent', async () => {
    const r = await fx.run('get_context', { symbol_id: "test/cart.test.ts::describeCart('cart') callback#function" });
    expect(r.source.text).toContain('testCartTotal();');
    expect(r.callers).toBeUndefined();
    expect(r.callees).toBeUndefined();
    expect(r._meta.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/^callers: not available \(SYMBOL_NOT_FOUND/), expect.stringMatching(/^callees: not available/)]),
    );
  });

  it('an unknown name is SYMBOL_NOT_FOUND; a budget under 600 is INVALID_INPUT', async () => {
    expect((await fx.runError('get_context', { symbol: 'noSuchThing' })).code).toBe('SYMBOL_NOT_FOUND');
    expect((await fx.runError('get_context', { symbol: 'cartTotal', max_tokens: 599 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('get_context', { symbol: 'cartTotal', include: ['everything'] })).code).toBe('INVALID_INPUT');
  });
});
