import fs from 'node:fs';
import { availableParallelism } from 'node:os';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { boundedFileStructure } from '../../src/adapters/file-structure.js';

/** The threads of this process: Node's own, libuv's pool, and a thread per syntax worker alive. */
const threads = () => fs.readdirSync('/proc/self/task').length;

async function until(what: string, ok: () => boolean): Promise<void> {
  const end = performance.now() + 20_000;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`still waiting for ${what}: ${threads()} threads`);
    await new Promise((r) => setImmediate(r));
  }
}

afterAll(() => {
  vi.useRealTimers();
});

// a burst on two workers at once: the pool's size is at least 2
describe.skipIf(availableParallelism() < 2 || !fs.existsSync('/proc/self/task'))('syntax job pool: idle workers end', () => {
  it("ends a burst's spare workers soon and keeps one for the next job until idle", async () => {
    await fs.promises.readFile(import.meta.filename); // libuv's pool started before the count
    const before = threads();
    // only the pool's timers are faked: its idle timers are run below
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const texts = Array.from({ length: 8 }, (_, i) => `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`);
    const answers = await Promise.all(texts.map((t, i) => boundedFileStructure(`m${i}.ts`, t)));
    expect(answers.every((a) => a !== undefined && Array.isArray(a.types))).toBe(true);
    await until('the burst to start two workers', () => threads() >= before + 2);
    // a second after the burst: the spare worker ends, one stays
    vi.advanceTimersByTime(1001);
    await until('the spare workers to end', () => threads() === before + 1);
    const heard = performance.now() + 1000;
    await until('a second', () => performance.now() > heard);
    expect(threads()).toBe(before + 1);
    vi.advanceTimersByTime(20_001);
    await until('the kept worker to end', () => threads() === before);
    expect(threads()).toBe(before);
  });
});
