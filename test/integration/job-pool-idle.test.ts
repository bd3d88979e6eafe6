/**
 * The on-demand syntax jobs' workers (src/syntax/job-pool.ts) are kept between jobs and ended when
 * idle; one that ran a burst (chunking every file for search_code) ends a second after the burst, not
 * 20 s later: its heap and WASM memory grew with the burst and never shrink.
 */
import fs from 'node:fs';

import { describe, expect, it } from 'vitest';

import { boundedFileStructure } from '../../src/adapters/file-structure.js';

const threads = () => fs.readdirSync('/proc/self/task').length;

async function until(what: string, ok: () => boolean, withinMs: number): Promise<void> {
  const end = performance.now() + withinMs;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`still waiting for ${what}: ${threads()} threads`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const text = (i: number) => `export class C${i} {\n  run(): number {\n    return ${i};\n  }\n}\n`;

describe.skipIf(!fs.existsSync('/proc/self/task'))('syntax job pool: idle workers end', () => {
  it('keeps a worker after a few jobs, and ends a burst’s worker a second after the burst', async () => {
    await fs.promises.readFile(import.meta.filename); // libuv's pool started before the count
    const before = threads();
    for (let i = 0; i < 3; i++) expect((await boundedFileStructure(`a${i}.ts`, text(i)))?.types.length).toBe(1);
    const kept = threads();
    expect(kept).toBeGreaterThan(before);
    // a few jobs: the worker stays for the next (IDLE_MS, 20 s)
    await new Promise((r) => setTimeout(r, 3000));
    expect(threads()).toBe(kept);
    // a burst of LARGE_BURST_JOBS (512) or more, two at a time as a caller in a loop would
    let done = 0;
    const lanes = [0, 1].map(async (lane) => {
      for (let i = lane; i < 600; i += 2) {
        await boundedFileStructure(`b${i}.ts`, text(i));
        done++;
      }
    });
    await Promise.all(lanes);
    expect(done).toBe(600);
    await until('the burst’s workers to end', () => threads() === before, 5000);
  }, 120_000);
});
