/**
 * What needs no workspace is answered by the `lspgate` entry alone: run from a copy holding only
 * the entry, src/cli/thin (with its generated operation list), src/link and package.json — no full
 * CLI, no operation, no npm package to load — `--version`, `--help`, `<operation> --help`, `mcp
 * --help`, `daemon --help` print what the full CLI prints (full-main.js run directly), and `daemon
 * status [--json]` / `daemon stop` speak to a real daemon (or say none runs, exit 3).
 */
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type DaemonWorld, daemonWorld, stopDaemon } from '../helpers/daemon.js';
import { assertBuilt, removeDir, REPO, type Spawned, spawnNode, tempDir, waitGone } from '../helpers/spawn.js';
import { startLoggingDaemon } from '../helpers/thin.js';

const FULL = path.join(REPO, 'dist/src/cli/full-main.js');
let copy: string;
let entry: string;
let w: DaemonWorld;

/** Runs `script` to completion in the test world. */
async function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnNode(script, args, { cacheDir: w.cacheDir, env: { ...w.env, LSPGATE_DAEMON: 'auto' } });
  p.child.stdin?.end();
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

beforeAll(() => {
  assertBuilt();
  w = daemonWorld();
  copy = tempDir('lspgate-thin-only-');
  for (const dir of ['dist/src/cli/thin', 'dist/src/link']) cpSync(path.join(REPO, dir), path.join(copy, dir), { recursive: true });
  mkdirSync(path.join(copy, 'dist/src/cli'), { recursive: true });
  cpSync(path.join(REPO, 'dist/src/cli/main.js'), path.join(copy, 'dist/src/cli/main.js'));
  cpSync(path.join(REPO, 'package.json'), path.join(copy, 'package.json'));
  entry = path.join(copy, 'dist/src/cli/main.js');
});

afterAll(() => {
  removeDir(copy);
  removeDir(w.base);
});

describe('the entry alone', () => {
  it.each([['--version'], ['-v'], ['--help'], ['help'], [], ['find_definition', '--help'], ['get_symbol', '-h'], ['mcp', '--help'], ['daemon', '--help']])(
    '%j: what the full CLI prints',
    async (...args) => {
      const thin = await run(entry, args);
      const full = await run(FULL, args);
      expect(thin).toEqual(full);
      expect(thin.code).toBe(0);
      expect(thin.stdout.length).toBeGreaterThan(4);
    },
  );

  it('daemon status with no daemon: says so, exit 3; stop: nothing to stop, exit 0', async () => {
    const status = await run(entry, ['daemon', 'status']);
    expect(status).toEqual(await run(FULL, ['daemon', 'status']));
    expect(status.code).toBe(3);
    expect(status.stdout).toMatch(/^no lspgate daemon is running/);
    expect(JSON.parse((await run(entry, ['daemon', 'status', '--json'])).stdout)).toEqual({ running: false, socket: w.socket });
    expect((await run(entry, ['daemon', 'stop'])).code).toBe(0);
  });

  it('daemon status and stop of a running daemon', async () => {
    const daemon: Spawned = await startLoggingDaemon(w);
    try {
      const text = await run(entry, ['daemon', 'status']);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`pid ${daemon.child.pid}`);
      const json = JSON.parse((await run(entry, ['daemon', 'status', '--json'])).stdout) as { running: boolean; pid: number; clients: unknown[] };
      expect(json).toMatchObject({ running: true, pid: daemon.child.pid, clients: [] });
      const stop = await run(entry, ['daemon', 'stop']);
      expect(stop).toMatchObject({ code: 0, stdout: 'stopped the lspgate daemon\n' });
      // back only once the daemon has exited: nothing answers on its socket any more
      expect((await run(entry, ['daemon', 'status'])).code).toBe(3);
      expect(await waitGone([daemon.child.pid!])).toEqual([]);
    } finally {
      await stopDaemon(w);
      await daemon.exited;
    }
  });
});
