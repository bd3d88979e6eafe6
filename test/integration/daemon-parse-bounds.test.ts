/**
 * One client's pathological file does not take the shared daemon from another client. Two spawned
 * `lspgate mcp` thin clients of one daemon, on two workspaces: A's holds a Java file of 600,000
 * methods (about 20 s to catalog on an idle 2-core machine, far over the 3 s parse deadline the
 * daemon is given, whatever the machine's speed), B's a small Java file and a fault-server file.
 * A indexes its workspace, then changes the file and asks for its outline; all the while B calls
 * search_symbols, get_file_outline and find_definition, round after round until A's call answers.
 * Every call of B answers, and at least one of B's calls ends before A's answer: had the parse held
 * the daemon's thread, every call B started after A's would end after A's. A's workspace ends
 * `partial` naming the file (TIMEOUT), and A's outline of the changed file is a TIMEOUT error.
 * B's timings are printed (bench/ measures them; nothing here is timed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, type Spawned } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

const METHODS = 600_000;

function manyMethods(name: string, n: number): string {
  const lines = [`class ${name} {`];
  for (let i = 0; i < n; i++) lines.push(`  void m${i}() {}`);
  return lines.join('\n') + '\n}\n';
}

describe('a pathological file in one client’s workspace does not hold another client', () => {
  let w: DaemonWorld;
  let wsA: string;
  let daemon: Spawned;
  let a: McpThin;
  let b: McpThin;
  const timings: number[] = [];

  beforeAll(async () => {
    assertBuilt();
    // the daemon's limits: a 3 s parse deadline, room for the 13 MB file, and a heap cap the
    // parse cannot reach before its deadline (the test is about the deadline, not the heap)
    w = daemonWorld([], { LSPGATE_PARSE_TIMEOUT_MS: '3000', LSPGATE_MAX_FILE_BYTES: '20000000', LSPGATE_PARSE_HEAP_MB: '4096' });
    wsA = path.join(w.base, 'wsA');
    mkdirSync(wsA);
    writeFileSync(path.join(wsA, 'Aaa.java'), manyMethods('Aaa', METHODS));
    writeFileSync(path.join(wsA, 'Fine.java'), 'class Fine {\n  int total(int a, int b) { return a + b; }\n}\n');
    writeFileSync(path.join(w.ws, 'Other.java'), 'class Other {\n  int otherTotal(int a) { return a; }\n}\n');
    daemon = await startLoggingDaemon(w);
    a = await mcpThin(w, wsA);
    b = await mcpThin(w, w.ws);
  }, 120_000);

  afterAll(async () => {
    for (const c of [a, b]) await c?.client.close().catch(() => undefined);
    await stopDaemon(w);
    await daemon?.exited;
    removeDir(w.base);
    if (timings.length) {
      const sorted = [...timings].sort((x, y) => x - y);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
      process.stderr.write(`[daemon-parse-bounds] B's ${sorted.length} calls (ms): median ${at(0.5)}, p95 ${at(0.95)}, max ${at(1)}\n`);
    }
  });

  const call = (c: McpThin, name: string, args: Record<string, unknown>) =>
    c.client.callTool({ name, arguments: { ...args, output_format: 'json' } }, { timeout: 300_000 });

  /** B's calls, round after round, until `open()` is false; each must answer with what B's workspace holds. Returns when each call ended. */
  async function roundsOfBWhile(open: () => boolean): Promise<number[]> {
    const ends: number[] = [];
    do {
      for (const [name, args, expected] of [
        ['search_symbols', { query: 'otherTotal' }, 'Other.java'],
        ['get_file_outline', { file: 'Other.java' }, 'otherTotal'],
        ['find_definition', { file: 'a.fault', line: 1, column: 2 }, 'a.fault'],
      ] as const) {
        const t0 = performance.now();
        const r = await call(b, name, args);
        ends.push(performance.now());
        timings.push(performance.now() - t0);
        expect(r.isError, `${name}: ${textOf(r)}`).not.toBe(true);
        expect(textOf(r)).toContain(expected);
      }
    } while (open());
    return ends;
  }

  /** Starts A's call, runs B's rounds until it answers; A's answer, and how many of B's calls ended before it. */
  async function aWhileB(start: () => Promise<Awaited<ReturnType<typeof call>>>): Promise<{ answer: Awaited<ReturnType<typeof call>>; bBefore: number }> {
    let answeredAt = Infinity;
    const pending = start().then((r) => {
      answeredAt = performance.now();
      return r;
    });
    const ends = await roundsOfBWhile(() => answeredAt === Infinity);
    const answer = await pending;
    return { answer, bBefore: ends.filter((t) => t < answeredAt).length };
  }

  it("B's calls answer while A's workspace is cataloged and while A's changed file is parsed", async () => {
    await roundsOfBWhile(() => false);
    const indexed = await aWhileB(() => call(a, 'index_folder', { path: wsA }));
    expect(indexed.bBefore).toBeGreaterThan(0);
    const ir = indexed.answer;
    expect(ir.isError, textOf(ir)).not.toBe(true);
    const result = JSON.parse(textOf(ir)) as { state: string; files: number; errors: { file: string; code: string }[] };
    expect([result.state, result.files, result.errors.map((e) => [e.file, e.code])]).toEqual(['partial', 1, [['Aaa.java', 'TIMEOUT']]]);

    // A changes the file and asks for its outline: parsed again (not on the daemon's thread), over the deadline again
    writeFileSync(path.join(wsA, 'Aaa.java'), manyMethods('Aaa', METHODS + 1));
    const outlined = await aWhileB(() => call(a, 'get_file_outline', { file: 'Aaa.java' }));
    expect(outlined.bBefore).toBeGreaterThan(0);
    expect(outlined.answer.isError).toBe(true);
    expect(textOf(outlined.answer)).toContain('TIMEOUT');
  }, 300_000);
});
