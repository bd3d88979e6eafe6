/**
 * The syntax pool yields to a loading server: while a semantic question holds it back
 * (yieldToServers), a bulk pass sends no new batch — the batches already out finish — a question
 * someone waits for is still parsed, and the release lets the pass finish every file. Real workers,
 * real files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { heldForServers, MAX_YIELD_MS, parseInWorkers, yieldToServers } from '../../src/service/cataloging/syntax-pool.js';

const FILES = 600;
/** At most this many bulk files are out when the hold begins: one batch (8) on each of at most 4 workers. */
const IN_FLIGHT = 4 * 8;

describe('the syntax pool while a semantic question waits for its server', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-yield-')));
  const jobs = Array.from({ length: FILES }, (_, i) => {
    const rel = `f${i}.ts`;
    fs.writeFileSync(path.join(root, rel), `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`);
    return { abs: path.join(root, rel), rel };
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  // a heap cap of its own: this pool is not shared with another test's
  const opts = { root, maxFileBytes: 1 << 20, deadlineMs: 60_000, maxHeapMb: 97 };

  it('sends no bulk batch while held, parses a waited-for file, and finishes the pass once released', async () => {
    let answered = 0;
    const pass = parseInWorkers(jobs, opts, (a) => {
      expect(a.error).toBeUndefined();
      answered++;
    });
    const release = yieldToServers();
    expect(heldForServers()).toBe(1);
    // a question someone waits for still goes out (a file parsed ahead of the pass)
    let early: string | undefined;
    await parseInWorkers([jobs[FILES - 1]!], { ...opts, interactive: true }, (a) => (early = a.entry?.symbols[0]?.name));
    expect(early).toBe(`f${FILES - 1}`);
    // the batches out when the hold began may finish; no other goes out
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(answered).toBeLessThanOrEqual(IN_FLIGHT);
    release();
    expect(heldForServers()).toBe(0);
    await pass;
    expect(answered).toBe(FILES);
  });

  it('ends a hold nobody released after MAX_YIELD_MS, and counts a release once', () => {
    vi.useFakeTimers();
    try {
      yieldToServers();
      const other = yieldToServers();
      other();
      other();
      expect(heldForServers()).toBe(1);
      vi.advanceTimersByTime(MAX_YIELD_MS);
      expect(heldForServers()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
