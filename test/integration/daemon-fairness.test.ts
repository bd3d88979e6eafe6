/**
 * One client's flood cannot starve another, through the daemon and two spawned `lspgate mcp` thin
 * clients. Client A sends 50 find_definition calls at once on a file whose definitions the fault
 * server holds until released (`--hold-definitions`): no clock, A's calls simply do not end. Client
 * B then asks find_definition on another file. B is answered while every one of A's calls is still
 * open: the daemon runs at most its call slots of A's calls and keeps the rest in A's own queue
 * (daemon status shows them waiting), so B's request is not behind A's 42 in the server's session
 * queue — where it waited before (until its TIMEOUT). After the release every call of A answers.
 */
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { packageVersion } from '../../src/link/paths.js';
import { daemonStatus, type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, type Spawned } from '../helpers/spawn.js';
import { type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

const FLOOD = 50;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; !(await check()); i++) {
    if (i > 600) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('fair scheduling of clients in the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let a: McpThin;
  let b: McpThin;
  let raw: MessageConnection;

  const faultRaw = (method: string) => raw.sendRequest('lspgate/raw', { server: 'fault', method }) as Promise<{ result: { held: number; answered: string[] } }>;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld(['--hold-definitions=a.fault']);
    writeFileSync(path.join(w.ws, 'b.fault'), 'another fault file\n');
    // one line per call: 50 different requests (identical ones in flight would be coalesced into one)
    writeFileSync(path.join(w.ws, 'a.fault'), Array.from({ length: FLOOD }, (_, i) => `line ${i + 1} of a fault file`).join('\n') + '\n');
    daemon = await startLoggingDaemon(w);
    a = await mcpThin(w, w.ws);
    b = await mcpThin(w, w.ws);
    const socket = net.connect(w.socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    raw = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    raw.listen();
    await raw.sendRequest('lspgate/attach', { version: packageVersion(), root: w.ws, frontend: 'test' });
  });

  afterAll(async () => {
    raw?.dispose();
    for (const c of [a, b]) await c?.client.close().catch(() => undefined);
    await stopDaemon(w);
    await daemon?.exited;
    removeDir(w.base);
  });

  const definition = (c: McpThin, file: string, line = 1) =>
    c.client.callTool({ name: 'find_definition', arguments: { file, line, column: 2, output_format: 'json' } }, { timeout: 120_000 });

  it("B is answered while all 50 of A's calls are open; A's wait in A's own queue", async () => {
    const warm = await definition(b, 'b.fault');
    expect(warm.isError, textOf(warm)).not.toBe(true);
    const floods = Array.from({ length: FLOOD }, (_, i) => definition(a, 'a.fault', i + 1));
    let answered = 0;
    for (const f of floods) void f.then(() => answered++);
    const mine = (s: Awaited<ReturnType<typeof daemonStatus>>) => s?.clients.find((c) => c.pid === a.pid);
    await until(
      async () => mine(await daemonStatus(w))?.running_requests === FLOOD && (await faultRaw('fault/stats')).result.held > 0,
      "A's 50 calls at the daemon, the first held",
    );
    const status = mine(await daemonStatus(w))!;
    expect(status.queued_requests).toBeGreaterThanOrEqual(FLOOD - 8);

    const r = await definition(b, 'b.fault');
    expect(r.isError, textOf(r)).not.toBe(true);
    expect(textOf(r)).toContain('b.fault');
    expect(answered).toBe(0);
    const held = (await faultRaw('fault/stats')).result;
    expect(held.answered.filter((x) => x.includes('a.fault') && x.startsWith('textDocument/definition'))).toEqual([]);

    await faultRaw('fault/release');
    const results = await Promise.all(floods);
    expect(results.filter((x) => x.isError)).toEqual([]);
    expect(answered).toBe(FLOOD);
  }, 120_000);
});
