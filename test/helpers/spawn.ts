/**
 * Spawning the built CLI (or the test front-end) and watching process trees through /proc, for
 * front-end and lifecycle tests. No timing assertions: waits are bounded only to fail instead of
 * hanging.
 */
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: the first folder upwards holding package.json (this file also runs compiled, from dist/test/helpers, in bench/redteam). */
export const REPO = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();
export const CLI = path.join(REPO, 'dist/src/cli/main.js');
export const TEST_FRONTEND = path.join(REPO, 'test/helpers/test-frontend.mjs');
export const TS_APP = path.join(REPO, 'fixtures/ts-app');
/** The fault-injection language server, a real process speaking JSON-RPC. */
export const FAULT_SERVER = path.join(REPO, 'fixtures/fault-server/server.mjs');

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx tsc -p .\` (npm test builds first)`);
}

export function tempDir(prefix = 'lspgate-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** process.env plus the given values, as the string record child_process and the MCP SDK want. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  return { ...env, ...extra };
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnNode(script: string, args: string[], opts: SpawnOptions & { cacheDir: string }): Spawned {
  const { cacheDir, ...rest } = opts;
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...rest,
    env: childEnv({ LSPGATE_CACHE_DIR: cacheDir, ...(rest.env as Record<string, string> | undefined) }),
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs the CLI to completion with optional stdin text. */
export async function runCli(
  args: string[],
  opts: { cacheDir: string; input?: string; cwd?: string; env?: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnNode(CLI, args, { cacheDir: opts.cacheDir, cwd: opts.cwd ?? REPO, env: opts.env });
  p.child.stdin?.end(opts.input ?? '');
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Waits until `predicate` holds, checking every 50 ms; throws after `limitMs` with `what`. */
export async function waitFor(predicate: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface ProcStat {
  pid: number;
  ppid: number;
  state: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: parse after the last ')'.
    const after = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, state: after[0]!, ppid: Number(after[1]) };
  } catch {
    return undefined;
  }
}

function allStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st) out.push(st);
  }
  return out;
}

/** Every descendant of `pid` (children, grandchildren, ...) by walking ppid links in /proc. */
export function descendants(pid: number): number[] {
  const stats = allStats();
  const found: number[] = [];
  const frontier = [pid];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const s of stats) {
      if (s.ppid === parent && !found.includes(s.pid)) {
        found.push(s.pid);
        frontier.push(s.pid);
      }
    }
  }
  return found;
}

/** Alive = has a /proc entry that is not a zombie. */
export function isAlive(pid: number): boolean {
  const st = readStat(pid);
  return st !== undefined && st.state !== 'Z' && st.state !== 'X';
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Waits for every pid to be gone; returns the ones still alive when the bound ran out. */
export async function waitGone(pids: number[], limitMs = 20_000): Promise<number[]> {
  const until = Date.now() + limitMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > until) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}
