/**
 * The daemon's fair scheduler (src/daemon/fair-scheduler.ts): at most `slots` calls run; a client
 * with nothing running starts at once; a free slot goes to the waiting client with the fewest calls
 * running (ties round-robin), each client's calls in their own order; a call cancelled or whose client left while waiting never runs.
 */
import { describe, expect, it } from 'vitest';

import { FairScheduler } from '../../src/daemon/fair-scheduler.js';
import { LspgateError } from '../../src/errors/errors.js';

/** A unit of work that ends when the test says so, logging its start. */
function unit(log: string[], name: string): { work: () => Promise<string>; end: () => void } {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    end: () => end(),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('FairScheduler', () => {
  it("one client's flood: another client's call starts at once, and its next one is served before the flood's", async () => {
    const s = new FairScheduler(2);
    const a = s.client();
    const b = s.client();
    const log: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) => unit(log, `a${i}`));
    const runs = flood.map((u) => a.run(u.work));
    await tick();
    expect(log).toEqual(['a0', 'a1']);
    expect(a.counts()).toEqual({ running: 2, queued: 4 });
    const b0 = unit(log, 'b0');
    const b1 = unit(log, 'b1');
    const rb0 = b.run(b0.work);
    const rb1 = b.run(b1.work);
    await tick();
    // b0 starts although both slots are A's: B had nothing running; b1 waits its turn
    expect(log).toEqual(['a0', 'a1', 'b0']);
    b0.end();
    await tick();
    // a slot is free: B (nothing running now) is served before A (a0, a1 running), though A's 4 waited longer
    expect(log).toEqual(['a0', 'a1', 'b0', 'b1']);
    b1.end();
    expect(await Promise.all([rb0, rb1])).toEqual(['b0', 'b1']);
    for (const u of flood) u.end();
    expect(await Promise.all(runs)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect(log.slice(4)).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(s.active).toBe(0);
  });

  it('a call cancelled while waiting never runs; a client that leaves has its waiting calls refused', async () => {
    const s = new FairScheduler(1);
    const a = s.client();
    const log: string[] = [];
    const first = unit(log, 'first');
    const p1 = a.run(first.work);
    const ac = new AbortController();
    const p2 = a.run(unit(log, 'cancelled').work, ac.signal);
    const p3 = a.run(unit(log, 'orphan').work);
    ac.abort();
    await expect(p2).rejects.toMatchObject({ code: 'CANCELLED' });
    a.close();
    await expect(p3).rejects.toBeInstanceOf(LspgateError);
    first.end();
    expect(await p1).toBe('first');
    await tick();
    expect(log).toEqual(['first']);
  });
});
