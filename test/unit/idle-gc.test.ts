import { afterEach, describe, expect, it, vi } from 'vitest';

import { IDLE_GC_MS, workEnded } from '../../src/util/idle-gc.js';

const rssMb = () => process.memoryUsage().rss / 1048576;

afterEach(() => {
  vi.useRealTimers();
});

describe('idle memory reduction', () => {
  it('gives the garbage of a burst back to the system once idle', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // a burst of short-lived objects (~100 MB of heap): V8's own collections free them and keep the pages
    let burst: { i: number; s: string }[] | undefined = [];
    for (let i = 0; i < 1_500_000; i++) burst.push({ i, s: `x${i}` });
    expect(burst.length).toBe(1_500_000);
    burst = undefined;
    workEnded();
    vi.advanceTimersByTime(IDLE_GC_MS - 1);
    const before = rssMb();
    vi.advanceTimersByTime(1);
    expect(before - rssMb()).toBeGreaterThan(40);
  });
});
