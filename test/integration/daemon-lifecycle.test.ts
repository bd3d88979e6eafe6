/**
 * The daemon's life and death with real spawned clients and the fault server as the language
 * server, each test in a private world (XDG_RUNTIME_DIR, cache dir, workspace):
 * - idle exit: the daemon, every server it started and the socket file are gone (found through
 *   /proc by the world's directory, whoever their parent is now), and the next client starts a
 *   fresh daemon;
 * - `lspgate mcp --http` attached to the daemon shares one server process with a sidecar client;
 * - the daemon killed (SIGKILL) under an `lspgate mcp --http` client: the call in flight answers
 *   DAEMON_FAILED (reason connection), the dead daemon's servers end, and the client's next call
 *   starts a daemon again and answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonPaths } from '../../src/frontends/daemon/socket-dir.js';
import { daemonStatus, daemonWorld, faultServersUnder, sidecarClient, stopDaemon, type DaemonWorld } from '../helpers/daemon.js';
import { faultServers, mcpHttpClient, worldProcesses, type McpHttpClient } from '../helpers/daemon-procs.js';
import { errorOf } from '../helpers/mcp-client.js';
import { assertBuilt, descendants, removeDir, runCli, waitFor, waitGone, type Spawned } from '../helpers/spawn.js';

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
  });
});
