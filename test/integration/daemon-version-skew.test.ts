/**
 * Version skew between a client and a running daemon, with a real second lspgate version: this
 * checkout's built package copied to a temp dir with another version in its package.json (its
 * CLI starts daemons of its own version). The scenario of an upgrade while an old client runs:
 * - an old-version client holds an old daemon: a new client is refused, the error naming both
 *   versions and the attached client, and the old daemon keeps serving its client;
 * - once no client is attached, the new client stops the old daemon (its servers end with it),
 *   starts one of its own version and gets its answer.
 */
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packageVersion } from '../../src/frontends/version.js';
import { daemonStatus, type DaemonWorld, daemonWorld, faultServersUnder, stopDaemon } from '../helpers/daemon.js';
import { otherVersion, runScript, sidecarOf, worldProcesses } from '../helpers/daemon-procs.js';
import { assertBuilt, CLI, descendants, removeDir, type Spawned, waitGone } from '../helpers/spawn.js';

type Definition = { found: boolean };
const OLD = '0.0.1-old';
const defArgs = (w: DaemonWorld) => ['find_definition', '--root', w.ws, '--symbol', 'FaultSymbol', '--json'];

describe('lspgate daemon version skew (a real second version)', () => {
  let w: DaemonWorld;
  let oldCli: string;
  const spawned: Spawned[] = [];

  beforeAll(() => {
    assertBuilt();
    w = daemonWorld([], { LSPGATE_LOG: 'info' });
    oldCli = otherVersion(path.join(w.base, 'old-lspgate'), OLD).cli;
  });

  afterAll(async () => {
    for (const p of spawned) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await stopDaemon(w);
    const left = await waitGone(worldProcesses(w).map((p) => p.pid));
    removeDir(w.base);
    expect(left, 'processes of the test world left after stop').toEqual([]);
  });

  it('the copy is another version', async () => {
    expect(OLD).not.toBe(packageVersion());
    const v = await runScript(oldCli, ['--version'], w);
    expect(v.stdout.trim()).toBe(OLD);
  });

  it('an old daemon with an old client attached refuses a new client, naming both versions, and keeps serving', { timeout: 180_000 }, async () => {
    const old = sidecarOf(oldCli, w);
    spawned.push(old.proc);
    expect(((await old.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' })) as Definition).found).toBe(true);
    const before = (await daemonStatus(w))!;
    expect(before.version).toBe(OLD);

    for (const mode of ['require', 'auto']) {
      const r = await runScript(CLI, [...defArgs(w), '--daemon', mode], w);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('DAEMON_FAILED');
      expect(r.stderr).toContain(`the running lspgate daemon is version ${OLD}, this client is ${packageVersion()}`);
      expect(r.stderr).toContain('1 client(s) still use it');
      expect(r.stderr).toContain('"reason": "version_skew"');
    }
    // the old daemon and its client are untouched
    expect(((await old.conn.sendRequest('find_definition', { symbol: 'FaultSymbol' })) as Definition).found).toBe(true);
    const after = (await daemonStatus(w))!;
    expect(after).toMatchObject({ pid: before.pid, version: OLD });
    expect(after.clients.map((c) => c.pid)).toEqual([old.proc.child.pid]);
  });

  it('with no client attached, a new client stops the old daemon and starts its own version', { timeout: 180_000 }, async () => {
    const old = spawned[0]!;
    old.child.stdin!.end(); // the old client leaves
    await old.exited;
    let s = (await daemonStatus(w))!;
    while (s.clients.length > 0) {
      await new Promise((r) => setTimeout(r, 100));
      s = (await daemonStatus(w))!;
    }
    expect(s.version).toBe(OLD);
    const oldTree = [s.pid, ...descendants(s.pid)];
    expect(faultServersUnder(s.pid)).toHaveLength(1);

    const r = await runScript(CLI, [...defArgs(w), '--daemon', 'require'], w);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Definition).found).toBe(true);
    expect(r.stderr).toContain(`restarting the lspgate daemon: it was version ${OLD}`);
    // the old daemon and its servers are gone; the one answering now is this version
    expect(await waitGone(oldTree)).toEqual([]);
    const fresh = (await daemonStatus(w))!;
    expect(fresh.version).toBe(packageVersion());
    expect(fresh.pid).not.toBe(s.pid);
    expect(faultServersUnder(fresh.pid)).toHaveLength(1);
  });
});
