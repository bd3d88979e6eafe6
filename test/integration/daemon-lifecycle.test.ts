/**
 * The daemon's life and death with real spawned clients and the fault server as the language
 * server, each test in a private world (XDG_RUNTIME_DIR, cache dir, workspace):
 * - idle exit: the daemon, every server it started and the socket file are gone (found through
 *   /proc by the world's directory, whoever their parent is now), and the next client starts a
 *   fresh daemon;
 * - `lspgate mcp --http` attached to the daemon shares one server process with a sidecar client;
 * - the daemon killed (SIGKILL) under an `lspgate mcp --http` client: the call in flight answers
 *   DAEMON_FAILED (reason connection), the dead daemon's servers end, and the client's next call
 *   starts a daemon again and answers; killed with no call in flight, a call made right after is
 *   answered by a new daemon; two clients reconnecting at once end on one new daemon and server;
 *   `lspgate daemon stop` under an attached client is a restart for it;
 * - a call written to a daemon that died before the client noticed is sent to the next daemon.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import { connect } from '../../src/frontends/daemon-client/client.js';
import { RemoteGateway } from '../../src/frontends/daemon-client/remote-gateway.js';
import { daemonPaths } from '../../src/frontends/daemon-client/socket-dir.js';
import { createLogger } from '../../src/util/logger.js';
import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder, sidecarClient, stopDaemon } from '../helpers/daemon.js';
import { faultServers, type McpHttpClient, mcpHttpClient, worldProcesses } from '../helpers/daemon-procs.js';
import { errorOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, descendants, removeDir, runCli, type Spawned, spawnNode, waitFor, waitGone } from '../helpers/spawn.js';

type Definition = { found: boolean; definitions: { file: string }[] };

let world: DaemonWorld | undefined;
const spawned: Spawned[] = [];
const clients: McpHttpClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.client.close().catch(() => undefined);
  for (const p of spawned.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  if (!world) return;
  const w = world;
  world = undefined;
  await stopDaemon(w);
  const left = await waitGone(worldProcesses(w).map((p) => p.pid));
  removeDir(w.base);
  expect(left, 'processes of the test world left after stop').toEqual([]);
});

function newWorld(...args: Parameters<typeof daemonWorld>): DaemonWorld {
  assertBuilt();
  world = daemonWorld(...args);
  return world;
}

/**
 * Whether every thread of `pid` has exited (it is a zombie or gone): only then has it released its
 * files. The leader shows as a zombie, and its fd list empty, while other threads still run.
 */
function allThreadsExited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') && readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    return true;
  }
}

/** Waits until the daemon lists a client of `pid` with a call running (the call is on the wire). */
async function untilRunning(w: DaemonWorld, pid: number): Promise<void> {
  for (;;) {
    const s = await daemonStatus(w);
    if (s?.clients.some((c) => c.pid === pid && c.running_requests > 0)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('lspgate daemon lifetime', () => {
  it('exits when idle leaving no process and no socket behind; the next client starts a fresh one', { timeout: 240_000 }, async () => {
    const w = newWorld([], { LSPGATE_DAEMON_IDLE_MS: '1500', LSPGATE_LOG: 'info' });
    // a client holds the daemon up while its processes are counted
    const c = sidecarClient(w);
    spawned.push(c.proc);
    expect(((await c.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' })) as Definition).found).toBe(true);
    const s = (await daemonStatus(w))!;
    const server = s.sessions[0]!.pid!;
    const before = worldProcesses(w);
    const pids = before.map((p) => p.pid);
    // what the scan must see for its "nothing left" to mean anything: the daemon, the server, its watchdog
    expect(pids).toContain(s.pid);
    expect(pids).toContain(server);
    expect(descendants(s.pid)).toContain(server);
    expect(before.some((p) => p.cmd.includes('lspgate-reaper'))).toBe(true);

    c.proc.child.stdin!.end(); // the client goes; the idle period starts
    await c.proc.exited;
    await waitFor(() => worldProcesses(w).length === 0, 'every process of the world to exit after the idle period', 120_000);
    expect(existsSync(w.socket)).toBe(false);
    expect(readFileSync(daemonPaths(w.cacheDir, w.env).log, 'utf8')).toContain('no client for 1500 ms');

    const again = await runCli(['find_definition', '--root', w.ws, '--symbol', 'FaultSymbol', '--json'], { cacheDir: w.cacheDir, env: w.env });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Definition).found).toBe(true);
    const fresh = await daemonStatus(w);
    // (a fresh daemon that already went idle again has no status to give: its log says it started twice)
    if (fresh) expect(fresh.pid).not.toBe(s.pid);
    else expect(readFileSync(daemonPaths(w.cacheDir, w.env).log, 'utf8').match(/listening on/g)).toHaveLength(2);
  });

  it('lspgate mcp --http attached to the daemon shares one server process with a sidecar client', { timeout: 180_000 }, async () => {
    const w = newWorld([]);
    const h = await mcpHttpClient(w);
    clients.push(h);
    spawned.push(h.proc);
    const sc = sidecarClient(w);
    spawned.push(sc.proc);
    const viaMcp = await h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    expect(viaMcp.isError, JSON.stringify(viaMcp.content)).toBeFalsy();
    expect((viaMcp.structuredContent as Definition).definitions[0]!.file).toBe('a.fault');
    expect(((await sc.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' })) as Definition).found).toBe(true);

    const s = (await daemonStatus(w))!;
    expect(s.clients.map((c) => [c.frontend, c.pid]).sort()).toEqual(
      [
        ['mcp-http', h.proc.child.pid],
        ['sidecar', sc.proc.child.pid],
      ].sort(),
    );
    expect(s.sessions).toHaveLength(1);
    // one fault server in the whole world, under the daemon; none under either client
    const servers = faultServers(worldProcesses(w, [h.proc.child.pid!, sc.proc.child.pid!]));
    expect(servers.map((p) => p.pid)).toEqual([s.sessions[0]!.pid]);
    expect(faultServersUnder(s.pid)).toEqual([s.sessions[0]!.pid]);
    expect(faultServersUnder(h.proc.child.pid!)).toEqual([]);
    expect(faultServersUnder(sc.proc.child.pid!)).toEqual([]);
  });

  it('an mcp --http client survives its daemon killed: the call in flight fails, the next one starts a daemon again', { timeout: 240_000 }, async () => {
    const w = newWorld(); // the fault server answers definitions after 3 s: a call is in flight long enough
    const h = await mcpHttpClient(w);
    clients.push(h);
    spawned.push(h.proc);
    const first = await h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    const dead = (await daemonStatus(w))!;
    const deadTree = [dead.pid, ...descendants(dead.pid)];
    expect(faultServersUnder(dead.pid)).toHaveLength(1);

    const inFlight = h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    await untilRunning(w, h.proc.child.pid!);
    process.kill(dead.pid, 'SIGKILL');
    const failed = await inFlight;
    expect(failed.isError).toBe(true);
    expect(errorOf(failed)).toMatchObject({ code: 'DAEMON_FAILED', details: { reason: 'connection' } });
    // no orphans: the killed daemon's servers end with it (their watchdogs watch the daemon)
    expect(await waitGone(deadTree)).toEqual([]);
    expect(worldProcesses(w).map((p) => p.pid)).toEqual([h.proc.child.pid]);

    const next = await h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
    expect((next.structuredContent as Definition).found).toBe(true);
    expect(h.proc.child.exitCode).toBeNull();
    const s = (await daemonStatus(w))!;
    expect(s.pid).not.toBe(dead.pid);
    expect(s.clients.map((c) => [c.frontend, c.pid])).toEqual([['mcp-http', h.proc.child.pid]]);
    expect(faultServersUnder(s.pid)).toEqual([s.sessions[0]!.pid]);

    // killed with no call in flight, and called again as soon as its pid is gone (before the client
    // may have seen its socket close): a call whose write fails is sent again and answered; one the
    // kernel still accepted in the ~50 ms while the dead daemon's threads exit fails like a call in
    // flight (docs/front-ends.md, When the daemon dies) — under load either happens — and the call after it answers
    const second = [s.pid, ...descendants(s.pid)];
    process.kill(s.pid, 'SIGKILL');
    expect(await waitGone([s.pid])).toEqual([]);
    let right = await h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    if (right.isError) {
      expect(errorOf(right)).toMatchObject({ code: 'DAEMON_FAILED', details: { reason: 'connection' } });
      right = await h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    }
    expect(right.isError, JSON.stringify(right.content)).toBeFalsy();
    expect(await waitGone(second)).toEqual([]);
    const third = (await daemonStatus(w))!;
    expect(third.pid).not.toBe(s.pid);
    expect(third.clients.map((c) => c.pid)).toEqual([h.proc.child.pid]);
  });

  it('two mcp --http clients whose daemon is killed reconnect at once to one new daemon with one server', { timeout: 240_000 }, async () => {
    const w = newWorld([]);
    const [h1, h2] = await Promise.all([mcpHttpClient(w), mcpHttpClient(w)]);
    for (const h of [h1!, h2!]) {
      clients.push(h);
      spawned.push(h.proc);
    }
    const call = (h: McpHttpClient) => h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    for (const r of await Promise.all([call(h1!), call(h2!)])) expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const dead = (await daemonStatus(w))!;
    expect(dead.clients).toHaveLength(2);
    const deadTree = [dead.pid, ...descendants(dead.pid)];
    process.kill(dead.pid, 'SIGKILL');
    expect(await waitGone(deadTree)).toEqual([]);
    // both start a daemon; one wins the socket, the other gives up and both clients attach to the winner
    for (const r of await Promise.all([call(h1!), call(h2!)])) expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const s = (await daemonStatus(w))!;
    expect(s.pid).not.toBe(dead.pid);
    expect(s.clients.map((c) => c.pid).sort()).toEqual([h1!.proc.child.pid, h2!.proc.child.pid].sort());
    const mine = [h1!.proc.child.pid!, h2!.proc.child.pid!, s.pid, ...descendants(s.pid)];
    await waitFor(() => worldProcesses(w).every((p) => mine.includes(p.pid)), 'only the clients and one daemon tree to remain');
    expect(faultServers(worldProcesses(w)).map((p) => p.pid)).toEqual([s.sessions[0]!.pid]);
  });

  it("lspgate daemon stop with a client attached: the old daemon ends, the client's next call restarts one", { timeout: 180_000 }, async () => {
    const w = newWorld([]);
    const h = await mcpHttpClient(w);
    clients.push(h);
    spawned.push(h.proc);
    const call = () => h.client.callTool({ name: 'find_definition', arguments: { symbol: 'FaultSymbol' } });
    expect((await call()).isError).toBeFalsy();
    const old = (await daemonStatus(w))!;
    const oldTree = [old.pid, ...descendants(old.pid)];
    const stop = await runCli(['daemon', 'stop'], { cacheDir: w.cacheDir, env: w.env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(await waitGone(oldTree)).toEqual([]);
    const next = await call();
    expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
    const s = (await daemonStatus(w))!;
    expect(s.pid).not.toBe(old.pid);
    expect(s.clients.map((c) => c.pid)).toEqual([h.proc.child.pid]);
  });

  it('a call written to a daemon that died before the client noticed goes to the next daemon', { timeout: 180_000 }, async () => {
    const w = newWorld([]);
    const daemons: Spawned[] = [];
    const dial = async () => {
      const d = spawnNode(CLI, ['daemon'], { cacheDir: w.cacheDir, env: w.env });
      daemons.push(d);
      spawned.push(d);
      for (;;) {
        const s = await connect(w.socket);
        if (s) return s;
        if (d.child.exitCode !== null) throw new Error(`the daemon exited: ${d.stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const remote = RemoteGateway.open(await dial(), w.ws, createLogger('test', 'error'), w.cacheDir).reconnectWith(dial);
    try {
      await remote.attach('test');
      expect((await remote.run('find_definition', { symbol: 'FaultSymbol' })).result).toMatchObject({ found: true });
      const first = daemons[0]!.child.pid!;
      const tree = [first, ...descendants(first)];
      process.kill(first, 'SIGKILL');
      // No await until the call is written: this process's event loop must not see the socket close
      // first. Wait (without yielding) until its last thread is gone, so its end of the socket is closed.
      const until = Date.now() + 10_000;
      while (!allThreadsExited(first) && Date.now() < until);
      expect(allThreadsExited(first)).toBe(true);
      const r = await remote.run('find_definition', { symbol: 'FaultSymbol' });
      expect(r.result).toMatchObject({ found: true });
      expect(daemons).toHaveLength(2);
      expect(remote.daemonPid).toBe(daemons[1]!.child.pid);
      expect(await waitGone(tree)).toEqual([]);
    } finally {
      await remote.close();
    }
  });
});
