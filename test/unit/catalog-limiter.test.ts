/** The catalog's per-server limiter halves its concurrency when the server times out and earns it back on answers. */
import { describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Limiter } from '../../src/service/cataloging/limiter.js';

describe('adaptive limiter', () => {
  it('never runs more than its limit at once, and halves on timeouts down to 1', async () => {
    const l = new Limiter({ max: 8 });
    let active = 0;
    let peak = 0;
    const task = async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setImmediate(r));
      active--;
    };
    await Promise.all(Array.from({ length: 20 }, () => l.run(task)));
    expect(peak).toBe(8);
    const timeout = () => Promise.reject(new LspgateError('TIMEOUT', 'slow'));
    await l.run(timeout).catch(() => undefined);
    expect(l.concurrency).toBe(4);
    for (let i = 0; i < 5; i++) await l.run(timeout).catch(() => undefined);
    expect(l.concurrency).toBe(1);
    peak = 0;
    await Promise.all(Array.from({ length: 5 }, () => l.run(task)));
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('earns slots back one answer at a time, up to max', async () => {
    const l = new Limiter({ max: 4 });
    await l.run(() => Promise.reject(new LspgateError('TIMEOUT', 'slow'))).catch(() => undefined);
    expect(l.concurrency).toBe(2);
    await l.run(async () => undefined);
    await l.run(async () => undefined);
    expect(l.concurrency).toBe(3);
    for (let i = 0; i < 20; i++) await l.run(async () => undefined);
    expect(l.concurrency).toBe(4);
  });
});
