import fs from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { parseInWorkers } from '../../src/service/cataloging/syntax-pool.js';

/** The threads of this process: Node's own, libuv's pool, and a thread per syntax worker alive. */
const threads = () => fs.readdirSync('/proc/self/task').length;

async function until(what: string, ok: () => boolean, withinMs = 20_000): Promise<void> {
  const end = performance.now() + withinMs;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`still waiting for ${what}: ${threads()} threads`);
    await new Promise((r) => setImmediate(r));
  }
}

const root = fs.mkdtempSync(path.join(tmpdir(), 'lspgate-pool-idle-'));
afterAll(() => {
  vi.useRealTimers();
  fs.rmSync(root, { recursive: true, force: true });
});

// Two workers are needed (the second ends at the pass's end, the first is kept for the next edit)
describe.skipIf(availableParallelism() < 2 || !fs.existsSync('/proc/self/task'))('syntax pool: idle workers end', () => {
  it('ends the worker kept for the next edit once idle, after the pass ended the others', async () => {
    const files = Array.from({ length: 40 }, (_, i) => {
      const rel = `m${i}.ts`;
      fs.writeFileSync(path.join(root, rel), `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`);
      return { abs: path.join(root, rel), rel };
    });
    await fs.promises.readFile(files[0]!.abs); // libuv's pool started before the count
    const before = threads();
    // only the pool's timers are faked: its idle timer is run at once below
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const answers: string[] = [];
    await parseInWorkers(files, { root, maxFileBytes: 1 << 20, deadlineMs: 60_000, maxHeapMb: 256 }, (a) => {
      expect(a.error).toBeUndefined();
      answers.push(a.rel);
    });
    expect(answers.sort()).toEqual(files.map((f) => f.rel).sort());
    // the pass's other workers end now; one stays
    await until('the pass workers but one to end', () => threads() === before + 1);
    // and the pool hears of their exit (a thread is gone from /proc before its 'exit' event)
    const heard = performance.now() + 1000;
    await until('a second', () => performance.now() > heard);
    vi.advanceTimersByTime(20_001);
    await until('the kept worker to end', () => threads() === before);
    expect(threads()).toBe(before);
  });

  it('keeps no worker after a large pass: each grew with it, the next edit starts a fresh one', async () => {
    vi.useRealTimers();
    const dir = path.join(root, 'large');
    fs.mkdirSync(dir);
    // LARGE_PASS_FILES (512) or more in one pass
    const files = Array.from({ length: 520 }, (_, i) => {
      const rel = `large/m${i}.ts`;
      fs.writeFileSync(path.join(root, rel), `export const v${i} = ${i};\n`);
      return { abs: path.join(root, rel), rel };
    });
    const before = threads();
    let answered = 0;
    await parseInWorkers(files, { root, maxFileBytes: 1 << 20, deadlineMs: 60_000, maxHeapMb: 256 }, (a) => {
      expect(a.error).toBeUndefined();
      answered++;
    });
    expect(answered).toBe(files.length);
    // every worker of the pass ends at once (no 20 s wait for the one a small parse would keep)
    await until('every pass worker to end', () => threads() === before, 5000);
    // and an edit after it is parsed by a fresh worker, which is then kept
    let edit = 0;
    await parseInWorkers([files[0]!], { root, maxFileBytes: 1 << 20, deadlineMs: 60_000, maxHeapMb: 256, interactive: true }, (a) => {
      expect(a.error).toBeUndefined();
      edit++;
    });
    expect(edit).toBe(1);
    const kept = performance.now() + 1000;
    await until('a second', () => performance.now() > kept);
    expect(threads()).toBe(before + 1);
  });
});
