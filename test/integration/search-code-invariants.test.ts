/**
 * search_code over fixtures/corpus-ts (typescript-language-server): invariant chunks beside the code
 * chunks, `filter.chunk_kinds` / `tier` / `symbol`, query `*` listing what the filter keeps, source
 * chunks pointing at their invariants, index_stats counting chunks per kind, and an edit on disk
 * re-reading that file's invariants (incremental like the code chunks).
 */
import { describe, expect, it } from 'vitest';

import type { JsonResult } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

describe('search_code: invariant chunks', async () => {
  const fx = await openScratch('corpus-ts');
  const hits = async (query: string, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await fx.run('search_code', { query, filter, limit: 50, ...extra })).hits as JsonResult[];
  const brief = (h: JsonResult) => [h.citation.file, h.citation.start_line, h.chunk.tier, h.chunk.marker, h.chunk.symbol_name];

  it('`*` filtered to invariants lists a path’s invariants by line, with tier, marker and the symbol they constrain', async () => {
    const found = await hits('*', { chunk_kinds: ['invariant'], path: 'src/payments.ts' });
    expect(found.map(brief)).toEqual([
      ['src/payments.ts', 7, 1, 'CRITICAL', 'charge'],
      ['src/payments.ts', 10, 3, 'throw', 'charge'],
      ['src/payments.ts', 19, 1, '@deprecated', 'refund'],
      ['src/payments.ts', 22, 2, 'INVARIANT', 'refund'],
    ]);
    expect(found.every((h) => h.chunk.provenance === 'auto' && h.stale_citation === false)).toBe(true);
  });

  it('tier and symbol narrow it; a word query ranks invariants like any chunk', async () => {
    expect((await hits('*', { tier: [2] })).map(brief)).toEqual([
      ['src/auth.ts', 4, 2, 'SECURITY', 'TokenCheck.matches'],
      ['src/payments.ts', 22, 2, 'INVARIANT', 'refund'],
    ]);
    expect((await hits('*', { chunk_kinds: ['invariant'], symbol: 'refund' })).map((h) => h.chunk.marker)).toEqual(['@deprecated', 'INVARIANT']);
    const top = (await hits('constant time timing', { chunk_kinds: ['invariant'] }))[0]!;
    expect(brief(top)).toEqual(['src/auth.ts', 4, 2, 'SECURITY', 'TokenCheck.matches']);
  });

  it('the source chunk lists the invariants in its lines and right above it', async () => {
    const [charge] = await hits('*', { chunk_kinds: ['symbol'], symbol: 'charge' });
    expect(charge!.chunk.invariants.map((r: JsonResult) => [r.tier, r.marker])).toEqual([
      [1, 'CRITICAL'],
      [3, 'throw'],
    ]);
    const [inv] = await hits('*', { chunk_kinds: ['invariant'], symbol: 'charge', tier: [1] });
    expect(charge!.chunk.invariants[0].chunk_id).toBe(inv!.chunk.id);
  });

  it("a package's convention chunk: its files' idioms summed, its directory cited, never stale by content", async () => {
    const [c, ...more] = await hits('*', { chunk_kinds: ['convention'] }, { include_text: true });
    expect(more).toEqual([]);
    expect([c!.citation.file, c!.chunk.language, c!.stale_citation]).toEqual(['src/', 'typescript', false]);
    expect(c!.chunk.convention_stats).toEqual({ files: 2, throw: 2, name_lower: 3, name_camel: 1 });
    expect(c!.chunk.text).toContain('error handling: throw 2');
    const top = (await hits('error handling throw naming conventions', {}))[0]!;
    expect(top.chunk.chunk_kind).toBe('convention');
    // `search` anchors at a line of a file: no directory
    const anchors = (await fx.run('search', { query: 'error handling throw naming conventions' })).results as JsonResult[];
    expect(anchors.filter((r) => r.anchor.file.endsWith('/'))).toEqual([]);
  });

  it("get_context lists the symbol's invariants: in its lines and in the doc comment above it", async () => {
    const ctx = await fx.run('get_context', { symbol: 'refund', include: ['source'] });
    expect(ctx.invariants.map((i: JsonResult) => [i.tier, i.marker, i.start_line, i.text])).toEqual([
      [1, '@deprecated', 19, ' * @deprecated use settleRefund, which records the ledger entry.'],
      [2, 'INVARIANT', 22, '  // INVARIANT: a refund never exceeds the original charge.'],
    ]);
    expect((await fx.run('get_context', { symbol: 'settleRefund', include: ['source'] })).invariants).toEqual([]);
    expect(await fx.runText('get_context', { symbol: 'charge', include: ['source'] })).toContain('- tier 1 CRITICAL (line 7)');
  });

  it("analyze_impact names the element's invariants", async () => {
    const r = await fx.run('analyze_impact', { element: 'charge' });
    expect(r.impact.invariants.map((i: JsonResult) => [i.tier, i.marker, i.start_line])).toEqual([
      [1, 'CRITICAL', 7],
      [3, 'throw', 10],
    ]);
  });

  it('index_stats counts chunks per kind', async () => {
    const stats = await fx.run('index_stats');
    expect(stats.chunk_kinds.convention).toBe(1);
    expect(stats.chunk_kinds.invariant).toBe(5);
    expect(stats.invariant_tiers).toEqual({ 1: 2, 2: 2, 3: 1 });
    expect(stats.chunk_kinds.symbol).toBeGreaterThanOrEqual(5);
  });

  it('an edit preview lists what must not break: the edited symbol’s invariants', async () => {
    const r = await fx.run('replace_symbol_body', {
      symbol: 'refund',
      body: 'export function refund(p: Payment): number {\n  return -Math.abs(p.cents);\n}',
    });
    expect(r.applied).toBe(false);
    expect((r.invariants as JsonResult[]).map((i) => [i.tier, i.marker, i.start_line])).toEqual([
      [1, '@deprecated', 19],
      [2, 'INVARIANT', 22],
    ]);
    const text = await fx.runText('replace_symbol_body', { symbol: 'charge', body: 'export function charge(p: Payment): number {\n  return p.cents;\n}' });
    expect(text).toContain('must not break (tier 1, CRITICAL, line 7)');
  });

  it('an edit re-reads that file’s invariants', async () => {
    fx.write('src/auth.ts', fx.read('src/auth.ts').replace('// SECURITY:', '// WARNING:'));
    const found = await hits('*', { chunk_kinds: ['invariant'], path: 'src/auth.ts' });
    expect(found.map(brief)).toEqual([['src/auth.ts', 4, 1, 'WARNING', 'TokenCheck.matches']]);
  });
});
