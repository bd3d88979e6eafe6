/**
 * The flow corpus and the policy over a scratch copy of fixtures/corpus-flows (typescript-language-server):
 * its `.lspgate/corpus.jsonl` holds two flows, one of whose steps names `restock`, a symbol the code
 * no longer has, and a curated invariant; its `.lspgate/policy.json` two path rules. Every name is
 * verified against the catalog (the removed one listed as a stale citation, in index_stats and where
 * the flow is shown), a flow step cites its symbol's lines, and get_context, an edit preview and
 * analyze_impact show what must not break: invariants (curated ones too), guidance, flows. An edit of
 * a named file verifies the corpus again; `--flow-corpus` (LSPGATE_FLOW_CORPUS) takes another file.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { FLOW_CORPUS_ENV } from '../../src/service/search/corpus-sync.js';
import type { JsonResult } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

describe('search_code: flow corpus and policy', async () => {
  const fx = await openScratch('corpus-flows');
  const hits = async (query: string, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await fx.run('search_code', { query, filter, limit: 50, ...extra })).hits as JsonResult[];
  afterEach(() => {
    delete process.env[FLOW_CORPUS_ENV];
  });

  it('index_stats counts the flow kinds and lists the step naming a removed symbol as unresolved', async () => {
    const stats = await fx.run('index_stats');
    expect([stats.chunk_kinds.flow_spine, stats.chunk_kinds.flow_step]).toEqual([2, 4]);
    expect(stats.flow_corpus).toMatchObject({ file: '.lspgate/corpus.jsonl', flows: 2, steps: 4, curated_invariants: 1, unresolved_count: 2, problems: [] });
    expect(stats.flow_corpus.unresolved).toEqual([
      { line: 6, flow: 'cancel', step: '1', field: 'calls', ref: 'restock' },
      { line: 7, flow: 'cancel', step: '2', field: 'symbol', ref: 'restock' },
    ]);
    expect(stats.policy).toEqual({ file: '.lspgate/policy.json', rules: 2, categories: expect.any(Object), problems: [] });
    expect(stats.policy.categories.inventory).toBeGreaterThan(0);
    expect(stats.policy.categories.orders).toBeGreaterThan(0);
    const text = await fx.runText('index_stats');
    expect(text).toContain('flow corpus .lspgate/corpus.jsonl: 2 flows, 4 steps, 2 unresolved');
    expect(text).toContain('- **stale** line 7 cancel/2: symbol restock');
  });

  it("flow steps cite their symbol's lines; the removed symbol's step cites the corpus and is a stale citation", async () => {
    const steps = await hits('*', { chunk_kinds: ['flow_step'] });
    const brief = (h: JsonResult) => [h.chunk.flow_step.flow_id, h.chunk.flow_step.step_id, h.citation.file, h.citation.start_line, h.stale_citation];
    expect(steps.map(brief).sort()).toEqual([
      ['cancel', '1', 'src/cart.ts', 15, true],
      ['cancel', '2', '.lspgate/corpus.jsonl', 7, true],
      ['checkout', '1', 'src/cart.ts', 9, false],
      ['checkout', '2', 'src/stock.ts', 1, false],
    ]);
    const gone = steps.find((h) => h.chunk.flow_step.step_id === '2' && h.chunk.flow_step.flow_id === 'cancel')!;
    expect(gone.chunk.unresolved).toEqual(['symbol restock']);
    const reserve = steps.find((h) => h.chunk.symbol_name === 'reserve')!;
    expect(reserve.chunk.flow_step.branches).toEqual([{ when: 'have < qty', then: 'false: the order is out_of_stock', at: 'src/stock.ts:3' }]);
    expect([reserve.chunk.category, reserve.chunk.guidance.required_tests]).toEqual(['inventory', ['test/stock.test.ts']]);
    // a symptom finds its step
    expect((await hits('out of stock', { chunk_kinds: ['flow_step'] }))[0]!.chunk.symbol_name).toBe('reserve');
  });

  it('a curated invariant cites where it is enforced, with enforced_at and provenance curated', async () => {
    const found = await hits('*', { chunk_kinds: ['invariant'], path: 'src/stock.ts' });
    // beside the one its comment states
    expect(found.map((h) => h.chunk.provenance)).toEqual(['curated', 'auto']);
    const inv = found[0];
    expect([inv!.chunk.provenance, inv!.chunk.marker, inv!.chunk.tier, inv!.citation.start_line, inv!.stale_citation]).toEqual([
      'curated',
      'INV-stock-nonneg',
      2,
      3,
      false,
    ]);
    expect(inv!.chunk.enforced_at).toEqual([{ flow: 'checkout', step: '2', loc: 'src/stock.ts:3' }]);
  });

  it('get_context shows what must not break: the curated invariant, the guidance, the flows it is a step of', async () => {
    const ctx = await fx.run('get_context', { symbol: 'reserve', include: ['source'] });
    expect(ctx.invariants.map((i: JsonResult) => [i.marker, i.start_line, i.provenance])).toEqual([
      ['INVARIANT', 4, undefined],
      ['INV-stock-nonneg', 3, 'curated'],
    ]);
    expect(ctx.guidance).toEqual({
      category: 'inventory',
      also_review: ['src/cart.ts'],
      required_tests: ['test/stock.test.ts'],
      watch_out: ['two orders reserving the last unit at once'],
    });
    expect(ctx.flows).toEqual([{ flow_id: 'checkout', step_id: '2', trigger: 'POST /orders', invariants: ['INV-stock-nonneg'] }]);
    const text = await fx.runText('get_context', { symbol: 'reserve', include: ['source'] });
    expect(text).toContain('- flow checkout (step 2): POST /orders; keeps INV-stock-nonneg');
    expect(text).toContain('- watch out: two orders reserving the last unit at once');
  });

  it('an edit preview shows the flows with their stale names, and the guidance', async () => {
    const r = await fx.run('replace_symbol_body', {
      symbol: 'cancelOrder',
      body: 'export function cancelOrder(o: Order, stock: Map<string, number>): void {\n  stock.set(o.sku, o.qty);\n}',
    });
    expect(r.applied).toBe(false);
    expect(r.guidance).toEqual({ category: 'orders', required_tests: ['test/cart.test.ts'] });
    expect(r.flows.map((f: JsonResult) => [f.flow_id, f.step_id ?? 'entry', f.unresolved])).toEqual([
      ['cancel', 'entry', ['step 1: calls restock', 'step 2: symbol restock']],
      ['cancel', '1', ['step 1: calls restock', 'step 2: symbol restock']],
    ]);
    const text = await fx.runText('replace_symbol_body', { symbol: 'cancelOrder', body: 'export function cancelOrder(): void {}' });
    expect(text).toContain('- flow cancel (step 1): DELETE /orders/:id — **stale**: step 1: calls restock; step 2: symbol restock no longer resolve');
  });

  it('analyze_impact names the invariants and the flows reached', async () => {
    const r = await fx.run('analyze_impact', { element: 'reserve' });
    expect(r.impact.invariants.map((i: JsonResult) => i.marker)).toEqual(['INVARIANT', 'INV-stock-nonneg']);
    const flows = (r.impact.flows as JsonResult[]).map((f) => [f.flow_id, f.step_id ?? 'entry', f.reached_in ?? '']);
    expect(flows).toContainEqual(['checkout', '2', '']);
    expect(flows).toContainEqual(['checkout', '1', 'src/cart.ts']);
  });

  it('an edit of a named file verifies the corpus again: a renamed step symbol becomes unresolved', async () => {
    fx.write('src/stock.ts', fx.read('src/stock.ts').replace('function reserve(', 'function reserveStock('));
    // a hit citing the edited file's old lines has the catalog read it again (the watcher may lag)
    await hits('*', { path: 'src/stock.ts' });
    const steps = await hits('*', { chunk_kinds: ['flow_step'], path: '.lspgate/**' });
    expect(steps.map((h) => [h.chunk.flow_step.step_id, h.chunk.unresolved, h.stale_citation])).toEqual([
      ['2', ['symbol reserve'], true],
      ['2', ['symbol restock'], true],
    ]);
    const stats = await fx.run('index_stats');
    expect(stats.flow_corpus.unresolved.map((u: JsonResult) => `${u.flow}/${u.step} ${u.field} ${u.ref}`)).toEqual([
      'checkout/1 calls reserve',
      'checkout/2 symbol reserve',
      'cancel/1 calls restock',
      'cancel/2 symbol restock',
    ]);
    fx.write('src/stock.ts', fx.read('src/stock.ts').replace('function reserveStock(', 'function reserve('));
    await hits('*', { path: 'src/stock.ts' });
    expect((await fx.run('index_stats')).flow_corpus.unresolved_count).toBe(2);
  });

  it('--flow-corpus (LSPGATE_FLOW_CORPUS) names another corpus; a malformed line is a problem, the rest is kept', async () => {
    const alt = path.join(fx.root, '..', 'alt-corpus.jsonl');
    fs.writeFileSync(
      alt,
      [
        '{"chunk_kind":"flow_spine","text":"refund","flow_spine":{"flow_id":"refund","entry_point":"cancelOrder"}}',
        '[[[[[[[[[[[[1]]]]]]]]]]]]',
        '{"chunk_kind":"flow_step","flow_step":{"flow_id":"refund","step_id":"1","symbol":"cancelOrder","colour":"red"}}',
      ].join('\n'),
    );
    process.env[FLOW_CORPUS_ENV] = alt;
    const stats = await fx.run('index_stats');
    expect(stats.flow_corpus).toMatchObject({ file: alt, flows: 1, steps: 1, unresolved_count: 0 });
    expect(stats.flow_corpus.problems).toEqual(['line 2 nests deeper than 8', 'line 3 flow_step: unknown field "colour"']);
    const [spine] = await hits('*', { chunk_kinds: ['flow_spine'] });
    // outside the workspace: cited at the resolved entry point, not at a line of a file search could not read
    expect([spine!.citation.file, spine!.chunk.symbol_name]).toEqual(['src/cart.ts', 'cancelOrder']);
  });
});
