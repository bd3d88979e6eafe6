import { afterEach, describe, expect, it, vi } from 'vitest';

import { burstEnded, IDLE_GC_MS, memoryReadings, reduceMemory, RELEASED_MS, workEnded, workStarted } from '../../src/util/idle-gc.js';

const rssMb = () => process.memoryUsage().rss / 1048576;

/** A burst of short-lived objects (~100 MB of heap), garbage once it returns. */
function burst(n = 1_500_000): number {
  const objects: { i: number; s: string }[] = [];
  for (let i = 0; i < n; i++) objects.push({ i, s: `x${i}` });
  return objects.length;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('idle memory reduction', () => {
  it('gives the garbage of a burst back to the system once idle', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // V8's own collections free the burst's objects and keep the pages
    expect(burst()).toBe(1_500_000);
    workEnded();
    vi.advanceTimersByTime(IDLE_GC_MS - 1);
    const before = rssMb();
    vi.advanceTimersByTime(1);
    expect(before - rssMb()).toBeGreaterThan(40);
  });

  it('waits for the operations being answered', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(burst()).toBe(1_500_000);
    workStarted();
    workEnded(); // a pass ended while an operation is answered
    const before = rssMb();
    vi.advanceTimersByTime(IDLE_GC_MS * 2);
    expect(before - rssMb()).toBeLessThan(20);
    workEnded(true);
    vi.advanceTimersByTime(IDLE_GC_MS);
    expect(before - rssMb()).toBeGreaterThan(40);
  });

  it("gives a pass's garbage back as the pass ends, unless a question is being answered", () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(burst()).toBe(1_500_000);
    let before = rssMb();
    burstEnded();
    expect(before - rssMb()).toBeGreaterThan(40);
    expect(burst()).toBe(1_500_000);
    workStarted();
    before = rssMb();
    burstEnded();
    expect(before - rssMb()).toBeLessThan(20);
    workEnded(true);
    vi.advanceTimersByTime(IDLE_GC_MS);
    expect(before - rssMb()).toBeGreaterThan(40);
  });

  it("collects after a burst that grew V8's heap, though not the RSS, enough; not after less", async () => {
    // the RSS can stay put while the heap grows (a syntax worker ended meanwhile): 4 MB of the heap's
    // growth is enough, 15 MB of the RSS's alone is not
    expect(await collectsAfter({ rss: 150, heap: 45 })).toBe(true);
    expect(await collectsAfter({ rss: 165, heap: 43 })).toBe(false);
    expect(await collectsAfter({ rss: 167, heap: 40 })).toBe(true);
  });

  it('measures growth from what is resident once the collection has given its pages back', async () => {
    // pages the collection freed stay resident a while (V8 gives some back later): 200 MB resident as
    // it returns, 150 MB once they are back, then 25 MB of growth
    expect(await collectsAfter({ rssAtCollection: 200, rss: 175, heap: 40 })).toBe(true);
  });
});

/**
 * Whether the idle collection runs after work, the readings arranged (MB): the RSS at the last
 * collection (150 unless said), 150 once its pages are back, and then `rss`; the heap 40, then `heap`.
 */
async function collectsAfter(then: { rssAtCollection?: number; rss: number; heap: number }): Promise<boolean> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const mb = 1048576;
  const rss = vi.spyOn(memoryReadings, 'rss').mockReturnValue((then.rssAtCollection ?? 150) * mb);
  const heap = vi.spyOn(memoryReadings, 'heap').mockReturnValue(40 * mb);
  try {
    reduceMemory();
    rss.mockReturnValue(150 * mb);
    vi.advanceTimersByTime(RELEASED_MS);
    rss.mockReturnValue(then.rss * mb);
    heap.mockReturnValue(then.heap * mb);
    const garbage = new WeakRef({ garbage: true });
    await new Promise((resolve) => setImmediate(resolve)); // the WeakRef no longer keeps it
    workEnded();
    vi.advanceTimersByTime(IDLE_GC_MS);
    // an object nothing holds is gone once a collection ran
    return garbage.deref() === undefined;
  } finally {
    rss.mockRestore();
    heap.mockRestore();
    vi.useRealTimers();
  }
}
