/**
 * The daemon stops a language-server session nobody used for its session idle time (here 1.5 s,
 * LSPGATE_DAEMON_SERVER_IDLE_MS; 10 minutes by default) with its server process, never while a
 * request runs (a definition the fault server answers after 3 s outlives the idle time and still
 * answers); `lspgate daemon status` and the daemon_status operation show the idle time, the memory
 * budget (half of the machine's memory when none is configured) and the stopped session; the next
 * call starts the server again and answers.
 */
import os from 'node:os';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder } from '../helpers/daemon.js';
import { endWorld } from '../helpers/daemon-procs.js';
import type { DaemonStatusAnswer } from '../helpers/results.js';
import { assertBuilt, isAlive, runCli, type Spawned, waitFor } from '../helpers/spawn.js';
import { startLoggingDaemon } from '../helpers/thin.js';

const IDLE_MS = 1500;

describe('the daemon stops sessions nobody uses', () => {
  let w: DaemonWorld;
  let daemon: Spawned;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld(['--slow-on=textDocument/definition', '--slow-ms=3000'], { LSPGATE_DAEMON_SERVER_IDLE_MS: String(IDLE_MS) });
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await endWorld(w);
    await daemon.exited;
  });

  const fault = async () => (await daemonStatus(w))?.sessions.find((s) => s.server === 'fault');
  const cli = (args: string[]) => runCli([...args, '--root', w.ws, '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });

  it('a call longer than the idle time is not cut; once unused the session stops with its server; the next call starts it again', async () => {
    const status = (await daemonStatus(w))!;
    expect(status.server_idle_ms).toBe(IDLE_MS);
    expect(status.memory_budget).toMatchObject({ source: 'machine', limit_bytes: Math.floor(os.totalmem() / 1048576 / 2) * 1048576 });

    // the definition takes 3 s, twice the idle time: the session is busy meanwhile, never stopped.
    // Its server is seen while the call runs (once it has answered, a slow machine may already have
    // stopped the unused session before a status call could look).
    const pending = cli(['find_definition', '--symbol', 'FaultSymbol', '--json']);
    let serverPid = 0;
    let firstPid: number | undefined;
    for (const until = Date.now() + 60_000; serverPid === 0; await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > until) throw new Error('timed out waiting for the fault server to run while the definition is asked');
      const s = await fault();
      if (s?.state !== 'ready' || s.generation !== 1) continue;
      firstPid = s.pid;
      serverPid = faultServersUnder(daemon.child.pid!)[0] ?? 0;
    }
    const def = await pending;
    expect(def.stderr).toBe('');
    expect(JSON.parse(def.stdout).found).toBe(true);

    await waitFor(() => !isAlive(serverPid), 'the unused server to be stopped', 60_000);
    const stopped = (await fault())!;
    expect(stopped.state).toBe('stopped');
    expect(stopped.note).toMatch(/unused for its idle time/);
    expect(faultServersUnder(daemon.child.pid!)).toEqual([]);
    expect((await daemonStatus(w))!.memory_budget.servers_bytes).toBe(0);

    const text = await runCli(['daemon', 'status'], { cacheDir: w.cacheDir, env: w.env });
    expect(text.stdout).toContain(`language servers stop after ${IDLE_MS} ms unused; memory budget `);
    expect(text.stdout).toContain("(half of the machine's memory)");
    expect(text.stdout).toMatch(/fault stopped pid - .* \(stopped \d+ s ago: unused for its idle time\)/);
    const op = await cli(['daemon_status', '--json']);
    expect(JSON.parse(op.stdout) as DaemonStatusAnswer).toMatchObject({ daemon: true, server_idle_ms: IDLE_MS, memory_budget: { source: 'machine' } });

    // the full outline asks the server (the default detail answers from the catalog entry)
    const again = await cli(['get_file_outline', '--file', 'a.fault', '--detail', 'full']);
    expect(again.stdout).toContain('FaultSymbol');
    const back = (await fault())!;
    expect(back.state).toBe('ready');
    expect(back.pid).not.toBe(firstPid);
    expect(daemon.stderr()).toMatch(/fault at \S+: stopped \d+ s ago unused: starting it again/);
  });
});
