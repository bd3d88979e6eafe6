/**
 * One client's pathological file does not take the shared daemon from another client. Two spawned
 * `lspgate mcp` thin clients of one daemon, on two workspaces: A's holds a Java file of 150,000
 * methods (tens of seconds to catalog, over the 15 s parse deadline the daemon is given), B's a
 * small Java file and a fault-server file. A indexes its workspace, then changes the file and asks
 * for its outline; all the while B calls search_symbols, get_file_outline and find_definition.
 * Every call of B answers, and B's calls answer while A's are still open; A's workspace ends
 * `partial` naming the file (TIMEOUT), and A's outline of the changed file is a TIMEOUT error.
 * Before, a changed file was parsed on the daemon's own thread: B's calls waited for the whole parse.
 * B's timings are printed (bench/ measures them; nothing here is timed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonWorld, stopDaemon, type DaemonWorld } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, type Spawned } from '../helpers/spawn.js';
import { mcpThin, startLoggingDaemon, type McpThin } from '../helpers/thin.js';

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
    // the daemon's limits: a 15 s parse deadline, and room for the 3 MB file
    w = daemonWorld([], { LSPGATE_PARSE_TIMEOUT_MS: '15000', LSPGATE_MAX_FILE_BYTES: '20000000' });
    wsA = path.join(w.base, 'wsA');
    mkdirSync(wsA);
    writeFileSync(path.join(wsA, 'Aaa.java'), manyMethods('Aaa', 150_000));
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
    if (timings.length) process.stderr.write(`[daemon-parse-bounds] B's calls while A's file was parsed (ms): ${timings.map((t) => t.toFixed(0)).join(', ')}\n`);
  });

  const call = (c: McpThin, name: string, args: Record<string, unknown>) => c.client.callTool({ name, arguments: { ...args, output_format: 'json' } }, { timeout: 300_000 });

  /** One round of B's calls; each must answer with what B's workspace holds. */
  async function roundOfB(): Promise<void> {
    for (const [name, args, expected] of [
      ['search_symbols', { query: 'otherTotal' }, 'Other.java'],
      ['get_file_outline', { file: 'Other.java' }, 'otherTotal'],
      ['find_definition', { file: 'a.fault', line: 1, column: 2 }, 'a.fault'],
    ] as const) {
      const t0 = performance.now();
      const r = await call(b, name, args);
      timings.push(performance.now() - t0);
      expect(r.isError, `${name}: ${textOf(r)}`).not.toBe(true);
      expect(textOf(r)).toContain(expected);
    }
  }

  it("B's calls answer while A's workspace is cataloged and while A's changed file is parsed", async () => {
    await roundOfB();
    let indexed = false;
    const index = call(a, 'index_folder', { path: wsA }).finally(() => (indexed = true));
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < 2; i++) await roundOfB();
    expect(indexed).toBe(false);
    const ir = await index;
    expect(ir.isError, textOf(ir)).not.toBe(true);
    const result = JSON.parse(textOf(ir)) as { state: string; files: number; errors: { file: string; code: string }[] };
    expect([result.state, result.files, result.errors.map((e) => [e.file, e.code])]).toEqual(['partial', 1, [['Aaa.java', 'TIMEOUT']]]);

    // A changes the file and asks for its outline: parsed again (not on the daemon's thread), over the deadline again
    writeFileSync(path.join(wsA, 'Aaa.java'), manyMethods('Aaa', 150_001));
    let outlined = false;
    const outline = call(a, 'get_file_outline', { file: 'Aaa.java' }).finally(() => (outlined = true));
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < 2; i++) await roundOfB();
    expect(outlined).toBe(false);
    const or = await outline;
    expect(or.isError).toBe(true);
    expect(textOf(or)).toContain('TIMEOUT');
  }, 300_000);
});
