// Wide answers take a deadline (`max_ms`) and answer at it with what they have, the first markdown
// line saying what was cut (`_meta.truncated` and `limits_hit` agreeing), and such an answer is
// not cached: the same call without the deadline answers whole. A deadline of 1 ms is the slow
// case made certain: no import graph is built and no second level of callers asked within it.
// Fixtures: callers-crowd-ts (Store.save: saveA, saveB, saveC, 5 direct test callers, 50 tests
// calling saveA), importers-ts (15 files import src/lib/shared.ts).
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

interface Node {
  name: string;
  children?: Node[];
}

const firstLine = (text: string) => text.split('\n', 1)[0]!;

describe('wide answers at their deadline', async () => {
  const callers = await openFixture('callers-crowd-ts');
  const importers = await openFixture('importers-ts');

  it('find_callers: the direct callers always, the deeper levels past the deadline left out, said first', async () => {
    const { result: r, text } = await callers.gateway.run('find_callers', { symbol: 'Store.save', depth: 3, max_ms: 1, output_format: 'markdown' });
    expect((r.root as { calls: Node[] }).calls.map((n) => n.name).slice(0, 3)).toEqual(['saveA', 'saveB', 'saveC']);
    expect((r.root as { calls: Node[] }).calls.every((n) => !n.children?.length)).toBe(true);
    expect(r._meta.truncated).toBe(true);
    expect(firstLine(text)).toBe('> **truncated** — max_ms 1: callers at depth 2-3 not asked; raise max_ms for the rest');
    // not cached: without the deadline the same question is walked whole
    const whole = await callers.run('find_callers', { symbol: 'Store.save', depth: 2, max_results: 100 });
    expect(whole._meta.truncated).toBe(false);
    expect((whole.root.calls as Node[])[0]!.children?.length).toBe(50);
  }, 180_000);

  it('analyze_impact: the callers past the deadline are a cut said first', async () => {
    const { result: r, text } = await callers.gateway.run('analyze_impact', { element: 'Store.save', max_depth: 3, max_ms: 1, output_format: 'markdown' });
    expect(r._meta.truncated).toBe(true);
    expect(firstLine(text)).toMatch(/^> \*\*truncated\*\* — max_ms 1: (.*; )?callers at depth 2-3 not asked; raise max_ms for the rest$/);
    expect(r._meta.limits_hit!.filter((h) => h.limit === 'max_ms')).toHaveLength(1);
    expect((r.impact as { total_affected_files: number }).total_affected_files).toBeGreaterThan(0);
  }, 180_000);

  it('imports-me on a fresh start: the graph so far, the files not yet resolved said first; then whole', async () => {
    const input = { query_type: 'imports-me', target: 'src/lib/shared.ts', max_depth: 1 };
    const { result: r, text } = await importers.gateway.run('query_relationships', { ...input, max_ms: 1, output_format: 'markdown' });
    expect(r._meta.truncated).toBe(true);
    expect(r._meta.limits_hit).toEqual([expect.objectContaining({ limit: 'max_ms', value: 1 })]);
    expect(firstLine(text)).toMatch(
      /^> \*\*truncated\*\* — max_ms 1: the (imports of \d+ of \d+ files|import graph of every file) not resolved yet \(.*\); raise max_ms for the rest$/,
    );
    expect((r.results as unknown[]).length).toBeLessThan(15);
    const whole = await importers.run('query_relationships', input);
    expect(whole._meta.truncated).toBe(false);
    expect(whole.results).toHaveLength(15);
  }, 180_000);
});
