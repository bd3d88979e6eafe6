/**
 * `lspgate daemon` with real spawned clients (`lspgate sidecar --daemon require`) and a real
 * language-server process (the fault server, slow on definitions) in a private XDG_RUNTIME_DIR:
 * two clients share one server; one client cancelling or dying leaves the other's call alone;
 * another version is refused; a socket directory others can enter is refused. Idle exit, reconnect
 * and version-skew restarts are in daemon-lifecycle.test.ts and daemon-version-skew.test.ts.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { connect } from '../../src/frontends/daemon-client/client.js';
import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder, sidecarClient, stopDaemon } from '../helpers/daemon.js';
import type { DaemonStatusAnswer } from '../helpers/results.js';
import { assertBuilt, isAlive, removeDir, runCli, type Spawned, waitFor } from '../helpers/spawn.js';

type Rpc = ReturnType<typeof sidecarClient>;
type ErrData = { code: string; details: Record<string, unknown> };

type Definition = { found: boolean; definitions: { file: string }[] };
const definition = (c: Rpc, cts?: CancellationTokenSource): Promise<Definition> =>
  cts ? c.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' }, cts.token) : c.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' });

async function rpcError(p: Promise<unknown>): Promise<ResponseError<ErrData>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ResponseError) return e as ResponseError<ErrData>;
    throw e;
  }
  throw new Error('expected a ResponseError');
}

/** Waits until every listed client pid has a call running in the daemon (the calls are on the wire). */
async function untilRunning(w: DaemonWorld, pids: number[]): Promise<void> {
  let ok = false;
  while (!ok) {
    const s = await daemonStatus(w);
    ok = pids.every((pid) => s?.clients.some((c) => c.pid === pid && c.running_requests > 0));
    if (!ok) await new Promise((r) => setTimeout(r, 100));
  }
}

describe('lspgate daemon shared by clients', () => {
  let w: DaemonWorld;
  let a: Rpc;
  let b: Rpc;
  let daemonPid = 0;
  const spawned: Spawned[] = [];

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld();
    a = sidecarClient(w);
    b = sidecarClient(w);
    spawned.push(a.proc, b.proc);
  });

  afterAll(async () => {
    for (const p of spawned) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await stopDaemon(w);
    if (daemonPid) await waitFor(() => !isAlive(daemonPid), 'the daemon to exit');
    removeDir(w.base);
  });

  it('two clients share one daemon and one language-server process', async () => {
    const [ra, rb] = await Promise.all([definition(a), definition(b)]);
    expect(ra.definitions[0]!.file).toBe('a.fault');
    expect(rb.definitions[0]!.file).toBe('a.fault');
    const s = (await daemonStatus(w))!;
    daemonPid = s.pid;
    expect(s.clients.map((c) => c.pid).sort()).toEqual([a.proc.child.pid, b.proc.child.pid].sort());
    expect(s.clients.every((c) => c.frontend === 'sidecar' && c.root === w.ws)).toBe(true);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ server: 'fault', root: w.ws, state: 'ready' });
    expect(s.sessions[0]!.rss_bytes).toBeGreaterThan(0);
    // the server runs under the daemon, none under either client
    expect(faultServersUnder(s.pid)).toEqual([s.sessions[0]!.pid]);
    expect(faultServersUnder(a.proc.child.pid!)).toEqual([]);
    expect(faultServersUnder(b.proc.child.pid!)).toEqual([]);
  });

  it('the daemon_status operation, asked by a client, lists both clients and the shared session', async () => {
    const r = (await a.conn.sendRequest('daemon_status', {})) as DaemonStatusAnswer;
    const s = (await daemonStatus(w))!;
    expect(r).toMatchObject({ daemon: true, pid: s.pid, version: s.version, socket: w.socket, idle_exit_ms: s.idle_exit_ms });
    expect(r.uptime_ms).toBeGreaterThan(0);
    expect(r.clients!.map((c) => c.pid).sort()).toEqual([a.proc.child.pid, b.proc.child.pid].sort());
    expect(r.clients!.every((c) => c.root === w.ws && c.frontend === 'sidecar' && c.attached_ms >= 0)).toBe(true);
    // the asking client's own call is in flight while the daemon answers it
    expect(r.clients!.find((c) => c.pid === a.proc.child.pid)!.in_flight).toBe(1);
    expect(r.sessions).toHaveLength(1);
    expect(r.sessions[0]).toMatchObject({ server: 'fault', root: w.ws, state: 'ready', pid: s.sessions[0]!.pid });
    expect(r.sessions[0]!.rss_bytes).toBeGreaterThan(0);
  });

  it("one client's $/cancelRequest cancels its own call only", async () => {
    const cts = new CancellationTokenSource();
    const pa = rpcError(definition(a, cts));
    const pb = definition(b);
    await untilRunning(w, [a.proc.child.pid!, b.proc.child.pid!]);
    cts.cancel();
    const err = await pa;
    expect(err.data?.code).toBe('CANCELLED');
    expect((await pb).found).toBe(true);
  });

  it('a client killed mid-request does not disturb the other; the daemon forgets it', async () => {
    const c = sidecarClient(w);
    spawned.push(c.proc);
    await c.conn.sendRequest('list_workspaces', {}); // attached
    void definition(c).catch(() => undefined);
    const pb = definition(b);
    await untilRunning(w, [c.proc.child.pid!, b.proc.child.pid!]);
    c.proc.child.kill('SIGKILL');
    expect((await pb).found).toBe(true);
    let s = await daemonStatus(w);
    while (s!.clients.some((x) => x.pid === c.proc.child.pid)) s = await daemonStatus(w);
    expect(s!.clients.map((x) => x.pid).sort()).toEqual([a.proc.child.pid, b.proc.child.pid].sort());
    expect(s!.sessions).toHaveLength(1);
    expect(s!.sessions[0]!.state).toBe('ready');
  });

  it('refuses a client of another version while clients are attached, naming both versions', async () => {
    const socket = (await connect(w.socket))!;
    const conn = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    conn.listen();
    const err = await rpcError(conn.sendRequest('lspgate/attach', { version: '0.0.0-other', root: w.ws, frontend: 'test' }));
    conn.dispose();
    socket.destroy();
    expect(err.data?.code).toBe('DAEMON_FAILED');
    expect(err.data?.details).toMatchObject({ reason: 'version_skew', client_version: '0.0.0-other' });
    expect(err.data?.details.clients).toBeGreaterThanOrEqual(2);
  });

  it("a client reaches only its own roots: another client's open workspace is not found, nor may it be opened", async () => {
    const ws2 = path.join(w.base, 'ws2');
    mkdirSync(ws2);
    writeFileSync(path.join(ws2, 'b.fault'), 'other root\n');
    const c = sidecarClient(w, ws2);
    spawned.push(c.proc);
    const own = (await c.conn.sendRequest('get_file_outline', { file: 'b.fault' })) as { symbols: unknown[] };
    expect(own.symbols.length).toBeGreaterThan(0);
    expect((await daemonStatus(w))!.workspaces.map((x) => x.root)).toContain(ws2);
    const byPath = await rpcError(a.conn.sendRequest('get_file_outline', { file: 'b.fault', workspace: ws2 }));
    expect(byPath.data?.code).toBe('WORKSPACE_NOT_FOUND');
    const opened = await rpcError(a.conn.sendRequest('index_folder', { path: ws2 }));
    expect(opened.data?.code).toBe('PATH_OUTSIDE_WORKSPACE');
  });
});

describe('lspgate daemon lifetime and safety', () => {
  it('refuses a socket directory that group or others can enter (0777)', async () => {
    const w = daemonWorld();
    try {
      const dir = path.dirname(w.socket);
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const d = await runCli(['daemon'], { cacheDir: w.cacheDir, env: w.env });
      expect(d.code).toBe(1);
      expect(d.stderr).toContain('DAEMON_FAILED');
      expect(d.stderr).toContain('mode 0777');
      const c = await runCli(['find_definition', '--root', w.ws, '--symbol', 'FaultSymbol', '--daemon', 'auto'], { cacheDir: w.cacheDir, env: w.env });
      expect(c.code).toBe(1);
      expect(c.stderr).toContain('socket_dir_unsafe');
      expect(existsSync(w.socket)).toBe(false);
    } finally {
      removeDir(w.base);
    }
  });
});
