/**
 * The one-shot CLI as a thin client of the daemon (`lspgate/cli`): the same stdout, stderr and
 * exit status as the same call run in its own process (`--daemon off`) — markdown, --json, an
 * INVALID_INPUT usage error, UNKNOWN_OPERATION, a missing relative --root — on a real
 * typescript-language-server (--json: but for the call's timing and the process's savings total); the daemon's log shows each call was run there. A bad --tools given
 * to a thin `lspgate mcp` is the full CLI's startup error (exit 2, the same text), said without
 * attaching to the daemon or starting one. A daemon that does not
 * start is started and waited for once, not again by the full CLI the thin client falls back to.
 * (An operation's --help needs no daemon: the entry answers it, test/integration/thin-local.test.ts.)
 */
import { existsSync, readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { daemonPaths } from '../../src/link/paths.js';
import { type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { assertBuilt, removeDir, runCli, type Spawned, TS_APP } from '../helpers/spawn.js';
import { count, startLoggingDaemon } from '../helpers/thin.js';

const CASES: [string, string[]][] = [
  ['markdown', ['find_definition', '--symbol', 'formatName', '--root', TS_APP]],
  ['--json', ['find_definition', '--symbol', 'formatName', '--root', TS_APP, '--json']],
  ['INVALID_INPUT', ['find_definition', '--root', TS_APP, '--no-such-flag', 'x']],
  ['UNKNOWN_OPERATION', ['no_such_operation', '--root', TS_APP]],
  ['a root that does not exist (relative)', ['get_file_tree', '--root', 'no/such/dir']],
];

/** --json carries the call's own timing and the process's running savings total: those two may differ. */
function normalised(r: { code: number | null; stdout: string; stderr: string }) {
  if (!r.stdout.startsWith('{')) return r;
  const json = JSON.parse(r.stdout) as { _meta?: Record<string, unknown> };
  expect(typeof json._meta?.timing_ms).toBe('number');
  delete json._meta!.timing_ms;
  delete json._meta!.total_tokens_saved;
  return { ...r, stdout: JSON.stringify(json) };
}

describe('one-shot CLI through the daemon', () => {
  let w: DaemonWorld;
  let daemon: Spawned;

  beforeAll(async () => {
    assertBuilt();
    w = daemonWorld();
    daemon = await startLoggingDaemon(w);
  });

  afterAll(async () => {
    await stopDaemon(w);
    await daemon.exited;
    removeDir(w.base);
  });

  it.each(CASES)('%s: the same bytes and exit status as --daemon off', async (_name, args) => {
    const before = count(daemon.stderr(), 'one-shot ');
    const thin = await runCli([...args, '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });
    const own = await runCli([...args, '--daemon', 'off'], { cacheDir: w.cacheDir, env: w.env });
    expect(normalised(thin)).toEqual(normalised(own));
    // it ran in the daemon (lspgate/cli), not through the full CLI's fallback
    expect(count(daemon.stderr(), 'one-shot ')).toBe(before + 1);
    if (_name === 'markdown') expect(thin.stdout).toContain('src/util/strings.ts:7');
    if (_name === 'INVALID_INPUT') expect(thin.code).toBe(2);
    if (_name === 'UNKNOWN_OPERATION') expect(thin.stderr).toMatch(/^UNKNOWN_OPERATION: /);
  });

  it('a bad --tools of a thin lspgate mcp is a startup error with exit status 2, the daemon not attached', async () => {
    const before = count(daemon.stderr(), ' attached (');
    const r = await runCli(['mcp', '--root', TS_APP, '--tools', 'no_such_tool', '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('INVALID_INPUT: unknown tool no_such_tool');
    expect(r.stdout).toBe('');
    expect(count(daemon.stderr(), ' attached (')).toBe(before);
  });
});

describe('a bad --tools with no daemon running', () => {
  it.each([['no_such_tool'], [' , ']])('%j: the full CLI error, exit 2, and no daemon started', async (tools) => {
    const w = daemonWorld();
    try {
      const thin = await runCli(['mcp', '--root', TS_APP, '--tools', tools], { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_DAEMON: 'auto' } });
      const own = await runCli(['mcp', '--root', TS_APP, '--tools', tools, '--daemon', 'off'], { cacheDir: w.cacheDir, env: w.env });
      expect(thin).toEqual(own);
      expect(thin.code).toBe(2);
      expect(thin.stderr).toMatch(/^INVALID_INPUT: /);
      // nothing reached for a daemon: no socket, no log of a start
      expect(existsSync(w.socket)).toBe(false);
      expect(existsSync(daemonPaths(w.cacheDir, w.env).log)).toBe(false);
    } finally {
      removeDir(w.base);
    }
  });
});

describe('a daemon that does not start', () => {
  it('is started and waited for once: the full CLI reports the thin try instead of trying again', async () => {
    // the daemon refuses this setting at start and exits
    const w = daemonWorld(undefined, { LSPGATE_DAEMON_IDLE_MS: 'soon' });
    try {
      const r = await runCli(['find_definition', '--symbol', 'formatName', '--root', TS_APP, '--daemon', 'require'], { cacheDir: w.cacheDir, env: w.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('DAEMON_FAILED: the lspgate daemon did not start within');
      const log = readFileSync(daemonPaths(w.cacheDir, w.env).log, 'utf8');
      expect(count(log, 'LSPGATE_DAEMON_IDLE_MS must be a positive integer')).toBe(1);
    } finally {
      removeDir(w.base);
    }
  }, 120_000);
});
