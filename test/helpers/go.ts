/**
 * Whether the Go tests can run: gopls resolved exactly as the broker resolves it (servers.json
 * entry: extraPath + PATH) and a `go` binary on that same PATH (gopls fails every request with
 * "go command required" without one).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadServers, resolveCommand } from '../../src/config/load.js';
import { FIXTURES } from './gateway.js';

function executable(file: string): boolean {
  try {
    return statSync(file).isFile() && (accessSync(file, constants.X_OK), true);
  } catch {
    return false;
  }
}

function detect(): { available: boolean; install: string; env: Record<string, string>; extraPath: string[] } {
  const root = path.join(FIXTURES, 'go-app');
  const entry = loadServers({ workspaceRoot: root }).find((e) => e.id === 'gopls');
  if (!entry) return { available: false, install: '', env: {}, extraPath: [] };
  const cmd = resolveCommand(entry, { cacheDir: os.tmpdir(), root });
  const dirs = (cmd?.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const go = dirs.some((d) => executable(path.join(d, 'go')));
  return { available: !!cmd && go, install: entry.install, env: cmd?.env ?? {}, extraPath: entry.extraPath };
}

const detected = detect();
export const goAvailable = detected.available;
export const goInstallHint = detected.install;
/** The environment gopls runs with (its PATH holds `go`): for tests that run the go command itself. */
export const goEnv: Record<string, string> = detected.env;
/** The shipped servers.json's extraPath for gopls (the Go toolchains, newest first). */
export const goExtraPath: string[] = detected.extraPath;

/** The version of the `go` gopls runs with (`1.26.11`), undefined without one. */
export const goVersion: string | undefined = goAvailable
  ? /^go(\d+\.\d+(?:\.\d+)?)/.exec(
      execFileSync('go', ['env', 'GOVERSION'], { env: { ...process.env, ...goEnv, GOWORK: 'off' } })
        .toString()
        .trim(),
    )?.[1]
  : undefined;

/** Whether the local go is at least `minor` (`1.26`); says loudly why not, for a describe.runIf. */
export function goAtLeast(minor: string, what: string): boolean {
  const [a, b] = minor.split('.').map(Number) as [number, number];
  const [x, y] = (goVersion ?? '0.0').split('.').map(Number) as [number, number];
  const ok = x > a || (x === a && y >= b);
  if (goAvailable && !ok) console.warn(`GO TESTS SKIPPED: ${what} needs Go ${minor}, the local go is ${goVersion} — run scripts/install-go.sh`);
  return goAvailable && ok;
}

if (!goAvailable) {
  console.warn('GO TESTS SKIPPED: gopls/go not installed — run scripts/install-go.sh');
}
