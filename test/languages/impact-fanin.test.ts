// analyze_impact weighs fan-in: a helper behind more than 100 call sites in 3 files (every factory
// of the library checks its inputs with it) was MEDIUM by its 3 files alone. Fixture
// callers-crowd-ts: src/fanin/check.ts, called 45 times from each of 3 factories, no test.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

describe('analyze_impact: fan-in', async () => {
  const fx = await openFixture('callers-crowd-ts');

  it('a helper behind > 100 call sites is HIGH or CRITICAL, and the reason says why', async () => {
    const r = await fx.run('analyze_impact', { element: 'check', operation: 'modify' });
    expect(r.impact.affected_files).toBe(3);
    expect(r.impact.references).toBeGreaterThan(100);
    expect(r.impact.tests).toEqual([]);
    expect(r.impact.risk_level).toBe('CRITICAL');
    expect(r.impact.risk_reason).toMatch(
      /^modify of an element with \d+ reference\(s\): 3 file\(s\) use it directly: 3 affected file\(s\) \(LOW 0-2, MEDIUM 3-9, HIGH 10\+\); raised to CRITICAL: \d+ call sites and references and no test reaches it \(CRITICAL above 100 untested\)$/,
    );
  }, 180_000);
});
