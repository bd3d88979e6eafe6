/**
 * Clients under another environment than the daemon's share it whenever their servers would be the
 * same: a PATH with a duplicate entry, an extra directory without server binaries, or a variable no
 * server reads attaches to the same daemon and uses the same server process. Where a server would
 * differ — a program it runs found elsewhere on the client's PATH, a variable it reads set to
 * another value — or an lspgate setting differs, the attach is refused (DAEMON_FAILED, reason
 * env_differs, naming the server and what differs, never a variable's value): under `require` that
 * is the error, under `auto` the call runs in its own process and its answer says so in
 * `_meta.warnings`, not only on stderr.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonStatus, type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { assertBuilt, removeDir, runCli, type Spawned } from '../helpers/spawn.js';
import { count, startLoggingDaemon } from '../helpers/thin.js';

type Env = Record<string, string>;

/** A program the fault server's entry says it runs (runsPrograms): found only on some clients' PATH. */
const HELPER = 'lspgate-test-helper';

describe('a client under another environment than the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  let helperDir = '';
  const outline = () => ['get_file_outline', '--file', 'a.fault', '--root', w.ws];
  const PATH = process.env.PATH ?? '';

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld([], {}, { runsPrograms: [HELPER], readsEnv: ['FAULT_MODE'] });
    helperDir = path.join(w.base, 'helper-bin');
    mkdirSync(helperDir);
    writeFileSync(path.join(helperDir, HELPER), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(helperDir, HELPER), 0o755);
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await stopDaemon(w);
    await daemon.exited;
    removeDir(w.base);
  });

  const faultPid = async () => (await daemonStatus(w))!.sessions.find((s) => s.server === 'fault')?.pid;

  it('the same environment is served by the daemon', async () => {
    const before = count(daemon.stderr(), 'one-shot ');
    const r = await runCli([...outline(), '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('FaultSymbol');
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before + 1);
  });

  it.each([
    ['PATH with a duplicate entry', (): Env => ({ PATH: `${PATH}:${PATH.split(':')[0]}` })],
    ['PATH with directories holding no server binary', (): Env => ({ PATH: `${w.base}:/nonexistent/secret-value-1:${PATH}` })],
    ['a variable no server reads', (): Env => ({ SOME_UNRELATED_VARIABLE: 'secret-value-1' })],
  ])('%s: shares the daemon and its server', async (_name, extra) => {
    const pid = await faultPid();
    expect(pid).toBeGreaterThan(0);
    const before = count(daemon.stderr(), 'one-shot ');
    const r = await runCli([...outline(), '--daemon', 'require'], { cacheDir: w.cacheDir, env: { ...w.env, ...extra() } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('FaultSymbol');
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before + 1);
    const sessions = (await daemonStatus(w))!.sessions.filter((s) => s.server === 'fault');
    expect(sessions.map((s) => s.pid)).toEqual([pid]);
  });

  it.each([
    ['an LSPGATE_* setting', (): Env => ({ LSPGATE_ALLOWED_ROOTS: '/tmp/secret-value-1' }), (): string => 'LSPGATE_ALLOWED_ROOTS differs'],
    ['a variable the server reads', (): Env => ({ FAULT_MODE: 'secret-value-1' }), (): string => 'fault would differ (variable FAULT_MODE)'],
    [
      'a program the server runs, found on this PATH only',
      (): Env => ({ PATH: `${helperDir}:${PATH}` }),
      (): string => `fault would differ (program ${HELPER}: ${path.join(helperDir, HELPER)} for this client, (not found) for the daemon)`,
    ],
  ])('%s: require fails naming what differs, never a value', async (_name, extra, says) => {
    const before = count(daemon.stderr(), ' attached (');
    const r = await runCli([...outline(), '--daemon', 'require'], { cacheDir: w.cacheDir, env: { ...w.env, ...extra() } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^DAEMON_FAILED: the running lspgate daemon \(pid \d+\) would not answer as this client's own servers would: /);
    expect(r.stderr).toContain(says());
    expect(r.stderr).toContain('"reason": "env_differs"');
    expect(r.stderr).not.toContain('secret-value-1');
    expect(r.stdout).toBe('');
    expect(count(daemon.stderr(), ' attached (')).toBe(before);
  });

  it('auto answers in its own process and says so in _meta.warnings and on stderr', async () => {
    const before = count(daemon.stderr(), 'one-shot ');
    const r = await runCli([...outline(), '--json', '--daemon', 'auto'], { cacheDir: w.cacheDir, env: { ...w.env, FAULT_MODE: 'other' } });
    expect(r.code).toBe(0);
    const warnings = (JSON.parse(r.stdout) as { _meta: { warnings?: string[] } })._meta.warnings ?? [];
    expect(warnings.join('\n')).toContain('not using the shared lspgate daemon, this process runs its own language servers');
    expect(warnings.join('\n')).toContain('fault would differ (variable FAULT_MODE)');
    expect(r.stderr).toContain('not using the lspgate daemon, running in this process');
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before);
  });

  it('a thin lspgate mcp under require exits 1 with the error', async () => {
    const r = await runCli(['mcp', '--root', w.ws, '--daemon', 'require'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_ALLOWED_ROOTS: '/tmp' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('LSPGATE_ALLOWED_ROOTS differs');
    expect(r.stdout).toBe('');
  });
});
