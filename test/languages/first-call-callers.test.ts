// The first question on a fresh server answers as the later ones do, or says what it left out.
// Fixture callers-crowd-ts: `helper` (src/helper.ts) is called once from each of 52 files under
// extra/, outside tsconfig.json's project: tsserver sees them only once open, and a question opens
// at most 50 files (mentions.ts). analyze_impact used to ask its references before the walk had
// opened them, and the walk's own references fallback was answered from that cached answer (an
// open did not start a new cache epoch on tsserver): 0 effects, `ready`, not truncated.
import { describe, expect, it } from 'vitest';

import { type FixtureGateway, openFixture } from '../helpers/gateway.js';

const firstLine = (text: string) => text.split('\n', 1)[0]!;
const CUT = /^> \*\*truncated\*\* — files_opened 50: 52 files mention `helper` /;

interface Effect {
  file: string;
  impact: string;
  depth: number;
}

async function impact(fx: FixtureGateway) {
  const { result, text } = await fx.gateway.run('analyze_impact', { element: 'helper', max_depth: 2, max_results: 1000, output_format: 'markdown' });
  const r = result as unknown as { impact: { ripple_effects: Effect[]; references: number; risk_level: string }; _meta: { truncated: boolean } };
  return { effects: r.impact.ripple_effects.map((e) => `${e.file} ${e.impact} ${e.depth}`), impact: r.impact, truncated: r._meta.truncated, text };
}

async function callers(fx: FixtureGateway) {
  const { result, text } = await fx.gateway.run('find_callers', { symbol: 'helper', max_results: 100, output_format: 'markdown' });
  const r = result as unknown as { root: { calls?: { file: string }[] }; _meta: { truncated: boolean } };
  return { files: (r.root.calls ?? []).map((c) => c.file), truncated: r._meta.truncated, text };
}

/** The 2 files past the budget (the first 50 in path order are opened): a first answer may lack them. */
const cutFiles = (list: string[]) => list.filter((e) => !/^extra\/use5[12]\.ts/.test(e));

describe('the first question on a fresh server', async () => {
  const first = await openFixture('callers-crowd-ts');
  const second = await openFixture('callers-crowd-ts');

  it('analyze_impact first: the later answer, but for the files the budget left unopened, said first', async () => {
    const a = await impact(first);
    const b = await impact(first);
    expect(b.truncated).toBe(false);
    expect(b.effects.filter((e) => e.startsWith('extra/use'))).toHaveLength(52);
    // every extra/ file the first question opened is in its answer, and its references were asked after
    expect(cutFiles(a.effects)).toEqual(cutFiles(b.effects));
    expect(a.impact.references).toBeGreaterThanOrEqual(100);
    expect(a.truncated).toBe(true);
    expect(firstLine(a.text)).toMatch(CUT);
  }, 240_000);

  it('find_callers first, then analyze_impact: each says its cut or lists every caller', async () => {
    const c = await callers(second);
    expect(c.truncated).toBe(true);
    expect(firstLine(c.text)).toMatch(CUT);
    expect(c.files.filter((f) => f.startsWith('extra/use'))).toHaveLength(50);
    // the walk opens the 2 files left: an answer from before they were open would miss them silently
    const a = await impact(second);
    expect(a.truncated).toBe(false);
    expect(a.effects.filter((e) => e.startsWith('extra/use'))).toHaveLength(52);
    expect(a.impact.references).toBe(104);
    const again = await callers(second);
    expect(again.truncated).toBe(false);
    expect(again.files.filter((f) => f.startsWith('extra/use'))).toHaveLength(52);
  }, 240_000);
});
