/**
 * A client whose answer-relevant environment (LSPGATE_* settings, PATH, XDG_CONFIG_HOME, HOME)
 * differs from the running daemon's does not get answers under the daemon's settings: the attach is
 * refused (DAEMON_FAILED, reason env_differs, the variables named and never their values) — under
 * `require` that is the error, under `auto` the call runs in its own process with a warning. The
 * same environment attaches as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonWorld, stopDaemon, type DaemonWorld } from '../helpers/daemon.js';
import { assertBuilt, removeDir, runCli, type Spawned } from '../helpers/spawn.js';
import { count, startLoggingDaemon } from '../helpers/thin.js';

describe('a client under another environment than the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;
  const outline = () => ['get_file_outline', '--file', 'a.fault', '--root', w.ws];

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld([]);
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await stopDaemon(w);
    await daemon.exited;
    removeDir(w.base);
  });

  it('the same environment is served by the daemon', async () => {
    const before = count(daemon.stderr(), 'one-shot ');
    const r = await runCli([...outline(), '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('FaultSymbol');
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before + 1);
  });

  it.each([
    ['an LSPGATE_* setting', { LSPGATE_ALLOWED_ROOTS: '/tmp/secret-value-1' }, 'LSPGATE_ALLOWED_ROOTS'],
    ['PATH', { PATH: `/nonexistent/secret-value-1:${process.env.PATH ?? ''}` }, 'PATH'],
  ])('%s: require fails naming the variable, not its value', async (_name, extra, variable) => {
    const before = count(daemon.stderr(), ' attached (');
    const r = await runCli([...outline(), '--daemon', 'require'], { cacheDir: w.cacheDir, env: { ...w.env, ...extra } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^DAEMON_FAILED: the running lspgate daemon \(pid \d+\) was started with another environment: /);
    expect(r.stderr).toContain(`${variable} differs`);
    expect(r.stderr).toContain('"reason": "env_differs"');
    expect(r.stderr).not.toContain('secret-value-1');
    expect(r.stdout).toBe('');
    expect(count(daemon.stderr(), ' attached (')).toBe(before);
  });

  it('auto answers in its own process, with a warning naming the variable', async () => {
    const before = count(daemon.stderr(), 'one-shot ');
    const r = await runCli([...outline(), '--daemon', 'auto'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_ALLOWED_ROOTS: '/tmp' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('FaultSymbol');
    expect(r.stderr).toContain('not using the lspgate daemon, running in this process');
    expect(r.stderr).toContain('LSPGATE_ALLOWED_ROOTS differs');
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before);
  });

  it('a thin lspgate mcp under require exits 1 with the error', async () => {
    const r = await runCli(['mcp', '--root', w.ws, '--daemon', 'require'], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_ALLOWED_ROOTS: '/tmp' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('LSPGATE_ALLOWED_ROOTS differs');
    expect(r.stdout).toBe('');
  });
});
