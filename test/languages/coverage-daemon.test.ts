/**
 * Coverage files that amplify, through the daemon and two spawned `lspgate mcp` thin clients: a
 * 48-byte Go coverprofile naming lines 1 to 20,000,000 of a 5-line file (it took 19 s, 1 GB and
 * answered INTERNAL, blocking the daemon's event loop), beside a 40 MB lcov.info of 3.3 million
 * lines. Client A asks coverage_report; client B asks search_symbols again and again meanwhile. A's
 * answer is a line report with the range clamped to the file and the lcov cut at its cap, both in
 * `_meta.limits_hit`; B is answered many times while A's call is outstanding (the parse runs in a
 * worker thread, not on the event loop every client shares). No timing: B's answers are counted
 * while A's call is open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, type Spawned } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

const GO = 'package x\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n';
const LCOV_LINES = 3_300_000;

interface LimitHit {
  limit: string;
  value: number;
  detail?: string;
}

describe('coverage files that amplify, through the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let a: McpThin;
  let b: McpThin;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld();
    writeFileSync(path.join(w.ws, 'go.mod'), 'module example.com/x\n\ngo 1.21\n');
    writeFileSync(path.join(w.ws, 'a.go'), GO);
    writeFileSync(path.join(w.ws, 'coverage.out'), 'mode: set\nexample.com/x/a.go:1.1,20000000.2 1 1\n');
    mkdirSync(path.join(w.ws, 'coverage'));
    const lcov = ['TN:', 'SF:gen/big.ts'];
    for (let l = 1; l <= LCOV_LINES; l++) lcov.push(`DA:${l},${l % 1000 === 0 ? 0 : 1}`);
    writeFileSync(path.join(w.ws, 'coverage', 'lcov.info'), lcov.join('\n') + '\nend_of_record\n');
    daemon = await startLoggingDaemon(w);
    a = await mcpThin(w, w.ws);
    b = await mcpThin(w, w.ws);
  }, 180_000);

  afterAll(async () => {
    for (const c of [a, b]) await c?.client.close().catch(() => undefined);
    await stopDaemon(w);
    await daemon?.exited;
    removeDir(w.base);
  });

  it("A's coverage_report is a clamped line report; B is answered meanwhile, again and again", async () => {
    const search = async () => {
      const r = await b.client.callTool({ name: 'search_symbols', arguments: { query: 'Add', output_format: 'json' } }, { timeout: 120_000 });
      expect(r.isError, textOf(r)).not.toBe(true);
      expect(textOf(r)).toContain('a.go');
    };
    await search(); // the catalog is built (gopls) before the race starts
    let done = false;
    const report = a.client
      .callTool({ name: 'coverage_report', arguments: { format: 'detailed', output_format: 'json' } }, { timeout: 170_000 })
      .finally(() => (done = true));
    let answeredMeanwhile = 0;
    while (!done) {
      await search();
      if (!done) answeredMeanwhile++;
    }
    const r = await report;
    expect(r.isError, textOf(r)).not.toBe(true);
    const out = r.structuredContent as { mode: string; files: { file: string; total: number }[]; _meta: { limits_hit?: LimitHit[] } };
    expect(out.mode).toBe('line');
    // the 20,000,000-line range is clamped to a.go's 6 lines
    expect(out.files.find((f) => f.file === 'a.go')?.total).toBe(GO.split('\n').length - 1);
    const limits = out._meta.limits_hit ?? [];
    expect(limits.find((l) => l.limit === 'coverage_line_range')).toMatchObject({ value: 20_000_000 - 6 });
    expect(limits.find((l) => l.limit === 'coverage_lines')?.detail).toContain('coverage/lcov.info');
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(5);
  }, 180_000);

  it('asked again, the same line report (from the cache: coverage-cache.test.ts counts the parses)', async () => {
    const r = await a.client.callTool({ name: 'coverage_report', arguments: { output_format: 'json' } }, { timeout: 60_000 });
    expect(r.isError, textOf(r)).not.toBe(true);
    expect((r.structuredContent as { mode: string }).mode).toBe('line');
    expect(daemon.stderr()).not.toMatch(/INTERNAL/);
  }, 60_000);
});
