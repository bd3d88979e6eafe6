/**
 * Front-ends hosted in the daemon for thin clients (`lspgate/attach` with `relay`): two
 * `lspgate mcp` stdio processes (the real MCP SDK client) share one typescript-language-server
 * under the daemon and answer real operations; killing one mid-request leaves the other's call
 * alone; stdin EOF detaches a client (exit 0); `lspgate sidecar` through the relay answers the
 * sidecar protocol (initialize, operations, $/cancelRequest, shutdown + exit); a hosted MCP
 * server relays progress of its own client's servers only (two clients, two roots).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';

import { daemonStatus, type DaemonWorld, daemonWorld, sidecarClient, stopDaemon } from '../helpers/daemon.js';
import { textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, commandLine, descendants, removeDir, type Spawned, spawnNode, TS_APP, waitFor } from '../helpers/spawn.js';
import { count, type McpThin, mcpThin, startLoggingDaemon } from '../helpers/thin.js';

/** Waits until every listed client pid has a call running in the daemon. */
async function untilRunning(w: DaemonWorld, pids: number[]): Promise<void> {
  for (;;) {
    const s = await daemonStatus(w);
    if (pids.every((pid) => s?.clients.some((c) => c.pid === pid && c.running_requests > 0))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tsServersUnder = (pid: number) =>
  descendants(pid).filter((p) => {
    const cmd = commandLine(p);
    return cmd.includes('typescript-language-server') && !cmd.includes('lspgate-reaper');
  });

describe('front-ends hosted in the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let ws2: string;
  const clients: McpThin[] = [];
  const spawned: Spawned[] = [];

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld();
    cpSync(path.join(TS_APP, 'src'), path.join(w.ws, 'src'), { recursive: true });
    for (const f of ['package.json', 'tsconfig.json']) cpSync(path.join(TS_APP, f), path.join(w.ws, f));
    ws2 = path.join(w.base, 'ws2');
    mkdirSync(ws2);
    writeFileSync(path.join(ws2, 'b.fault'), 'fault file\n');
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    for (const c of clients) await c.client.close().catch(() => undefined);
    for (const p of spawned) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await stopDaemon(w);
    await daemon.exited;
    removeDir(w.base);
  });

  it('two lspgate mcp clients share one typescript-language-server and answer real operations', async () => {
    const a = await mcpThin(w, w.ws);
    const logsOfA: string[] = [];
    a.client.setNotificationHandler('notifications/message', (n) => void logsOfA.push(JSON.stringify(n.params.data)));
    const b = await mcpThin(w, w.ws);
    clients.push(a, b);
    const [ra, rb] = await Promise.all([a, b].map((c) => c.client.callTool({ name: 'find_definition', arguments: { symbol: 'formatName' } })));
    expect(textOf(ra!)).toContain('src/util/strings.ts:7');
    expect(textOf(rb!)).toContain('src/util/strings.ts:7');
    expect(count(daemon.stderr(), 'hosting its mcp front-end')).toBe(2);
    // a's MCP log: its server's lifecycle, never the daemon's lines about other clients
    expect(logsOfA.some((l) => l.includes('typescript-language-server'))).toBe(true);
    expect(logsOfA.filter((l) => l.includes(`pid ${b.pid}`) || l.includes('attached'))).toEqual([]);
    expect(daemon.stderr()).toContain(`pid ${b.pid}`);
    expect(tsServersUnder(daemon.child.pid!)).toHaveLength(1);
    // the clients are thin: no server of theirs, no process under them
    expect(descendants(a.pid)).toEqual([]);
    expect(descendants(b.pid)).toEqual([]);
    const s = (await daemonStatus(w))!;
    expect(
      s.clients
        .filter((c) => c.frontend === 'mcp')
        .map((c) => c.pid)
        .sort(),
    ).toEqual([a.pid, b.pid].sort());
  });

  it('killing one client mid-request leaves the other call alone', async () => {
    const [a, b] = clients as [McpThin, McpThin];
    const slow = (c: McpThin) => c.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    const pa = slow(a).catch((e: unknown) => e);
    const pb = slow(b);
    await untilRunning(w, [a.pid, b.pid]);
    process.kill(a.pid, 'SIGKILL');
    const rb = await pb;
    expect(textOf(rb)).toContain('a.fault');
    await pa;
    for (;;) {
      const s = await daemonStatus(w);
      if (!s?.clients.some((c) => c.pid === a.pid)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    clients.splice(0, 1);
  });

  it('stdin EOF detaches a thin mcp client, which exits 0', async () => {
    const p = spawnNode(CLI, ['mcp', '--tools', 'all', '--root', w.ws], { cacheDir: w.cacheDir, env: w.env });
    spawned.push(p);
    p.child.stdin!.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) + '\n',
    );
    await waitFor(() => p.stdout().includes('"id":1'), 'the initialize answer');
    expect((await daemonStatus(w))!.clients.some((c) => c.pid === p.child.pid)).toBe(true);
    p.child.stdin!.end();
    expect(await p.exited).toEqual({ code: 0, signal: null });
    for (;;) {
      const s = await daemonStatus(w);
      if (!s?.clients.some((c) => c.pid === p.child.pid)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('lspgate sidecar through the relay: initialize, an operation, $/cancelRequest, shutdown and exit', async () => {
    const before = count(daemon.stderr(), 'hosting its sidecar front-end');
    const sc = sidecarClient(w);
    spawned.push(sc.proc);
    const init = await sc.conn.sendRequest<{ operations: { name: string }[] }>('initialize', {});
    expect(init.operations.map((o) => o.name)).toContain('find_definition');
    expect(count(daemon.stderr(), 'hosting its sidecar front-end')).toBe(before + 1);
    const def = await sc.conn.sendRequest<{ definitions: { file: string }[] }>('find_definition', { symbol: 'formatName' });
    expect(def.definitions[0]!.file).toBe('src/util/strings.ts');
    const cts = new CancellationTokenSource();
    const call = sc.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' }, cts.token).catch((e: unknown) => e);
    await untilRunning(w, [sc.proc.child.pid!]);
    cts.cancel();
    const err = (await call) as ResponseError<{ code: string }>;
    expect(err).toBeInstanceOf(ResponseError);
    expect(err.data?.code).toBe('CANCELLED');
    await sc.conn.sendRequest('shutdown');
    await sc.conn.sendNotification('exit');
    expect(await sc.proc.exited).toEqual({ code: 0, signal: null });
  });

  it("a hosted MCP server relays progress of its own client's servers only", async () => {
    const a = (clients[0] as McpThin | undefined) ?? (await mcpThin(w, w.ws));
    const b = await mcpThin(w, ws2);
    clients.push(b);
    const seenA: string[] = [];
    const seenB: string[] = [];
    // a's fault server ready first; its definition takes 3 s
    await a.client.callTool({ name: 'get_file_outline', arguments: { file: 'a.fault' } });
    const pa = a.client.callTool(
      { name: 'find_definition', arguments: { symbol: 'FaultSymbol' } },
      {
        onprogress: (p: { message?: string }) => seenA.push(p.message ?? ''),
      },
    );
    await untilRunning(w, [a.pid]);
    // b's first call starts a fault server of its own root
    await b.client.callTool(
      { name: 'get_file_outline', arguments: { file: 'b.fault' } },
      { onprogress: (p: { message?: string }) => seenB.push(p.message ?? '') },
    );
    expect(textOf(await pa)).toContain('a.fault');
    expect(seenB.some((m) => /^fault: starting/.test(m))).toBe(true);
    // without the client's own broker view, a's relay reported b's server starting too
    expect(seenA.filter((m) => /^fault: (starting|indexing|ready)/.test(m))).toEqual([]);
  });
});
