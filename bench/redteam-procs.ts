/**
 * Processes around `npm run redteam`: the stand-in npm registry (fixtures/fake-registry: counts what
 * tsserver's type acquisition would ask) and the orphan check — after every front-end was closed,
 * no process whose command line or environment names the run's temp dir (every lspgate, language
 * server and git it started carries LSPGATE_CACHE_DIR under it) may be left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { commandLine, isAlive, runCli } from '../test/helpers/spawn.js';

export interface Registry {
  child: ChildProcess;
  url: string;
  requests: () => string[];
}

export async function startRegistry(repo: string): Promise<Registry> {
  const child = spawn(process.execPath, [path.join(repo, 'fixtures/fake-registry/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fake registry did not start')), 10_000);
    child.stdout!.on('data', () => {
      const m = /\{"port":\s*(\d+)\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}/`, requests: () => out.split('\n').filter((l) => l.includes('"request"')) };
}

function mentions(pid: number, tmp: string): boolean {
  if (commandLine(pid).includes(tmp)) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(tmp);
  } catch {
    return false;
  }
}

function tagged(tmp: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!/^\d+$/.test(name) || pid === process.pid) continue;
    if (isAlive(pid) && mentions(pid, tmp)) pids.push(pid);
  }
  return pids;
}

/** Live processes of this run after a grace period of 20 s, as "pid command"; each one found is then killed. */
export async function leftovers(tmp: string, own: ChildProcess[]): Promise<string[]> {
  const until = Date.now() + 20_000;
  let pids = tagged(tmp);
  while (pids.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    pids = tagged(tmp);
  }
  const left = pids.map((pid) => `${pid} ${commandLine(pid).slice(0, 80)}`);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  for (const c of own) if (c.exitCode === null) c.kill('SIGKILL');
  return left;
}

/** `lspgate daemon stop` for the run's cache dir (the front-ends' shared daemon), as a table line. */
export async function stopDaemon(cacheDir: string): Promise<{ what: string; frontend: string; expected: string; outcome: string; pass: boolean; ms: number }> {
  const t0 = performance.now();
  const r = await runCli(['daemon', 'stop'], { cacheDir });
  const outcome = `exit ${r.code}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n').pop()!.slice(0, 80)}` : ''}`;
  return { what: 'lspgate daemon stop', frontend: 'daemon', expected: 'exit 0', outcome, pass: r.code === 0, ms: Math.round(performance.now() - t0) };
}
