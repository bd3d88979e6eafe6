/**
 * `node dist/bench/daemon-idle.js [--idle-ms 60000]`: what the shared daemon holds after four roots
 * were used once and left, before and after its servers' idle stop. In a private XDG_RUNTIME_DIR
 * and cache directory, with LSPGATE_DAEMON_SERVER_IDLE_MS=--idle-ms (the default is 10 minutes; a
 * shorter one here so the run does not wait for it, long enough that no root's server stops before
 * the fourth has started): one `lspgate mcp` client stays attached the
 * whole time (as an agent's host would), and one one-shot call opens a file on each of four roots —
 * copies of the TypeScript, Python and Go fixtures and a second TypeScript one — starting a server
 * for each. Then the memory of the daemon and everything under it (RSS and PSS summed,
 * /proc/PID/smaps_rollup) is measured, the sessions are awaited until the daemon has stopped them
 * (its status says `stopped`), and measured again. Prints one JSON object; stops everything it started.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { alive, descendants } from '../fixtures/fault-server/proc-utils.js';
import { daemonPaths } from '../src/link/paths.js';

const { values } = parseArgs({ options: { 'idle-ms': { type: 'string' } } });
const IDLE_MS = Number(values['idle-ms'] ?? 60_000);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repo, 'dist/src/cli/main.js');

const ROOTS: { fixture: string; file: string }[] = [
  { fixture: 'ts-app', file: 'src/util/math.ts' },
  { fixture: 'py-app', file: 'app/models/user.py' },
  { fixture: 'go-app', file: 'router/router.go' },
  { fixture: 'ts-app', file: 'src/util/strings.ts' },
];

interface Memory {
  processes: number;
  rss_mb: number;
  pss_mb: number;
}

function memoryOf(pids: number[]): Memory {
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    try {
      const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
      rss += kb('Rss');
      pss += kb('Pss');
    } catch {
      // gone
    }
  }
  return { processes: pids.length, rss_mb: Math.round(rss / 1024), pss_mb: Math.round(pss / 1024) };
}

interface Status {
  pid: number;
  sessions: { server: string; root: string; state: string }[];
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'lspgate-daemon-idle-'));
  const run = path.join(tmp, 'run');
  mkdirSync(run, { mode: 0o700 });
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
    XDG_RUNTIME_DIR: run,
    LSPGATE_CACHE_DIR: path.join(tmp, 'cache'),
    LSPGATE_DAEMON: 'require',
    LSPGATE_DAEMON_SERVER_IDLE_MS: String(IDLE_MS),
  };
  const lspgate = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', cwd: tmp });
  const status = () => JSON.parse(lspgate(['daemon', 'status', '--json']).stdout) as Status;
  const roots = ROOTS.map((r, i) => {
    const root = path.join(tmp, `root-${i}-${r.fixture}`);
    cpSync(path.join(repo, 'fixtures', r.fixture), root, { recursive: true });
    return { root, file: r.file };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--tools', 'all', '--root', roots[0]!.root],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'daemon-idle-bench', version: '0' });
  try {
    await client.connect(transport);
    for (const r of roots) {
      const out = lspgate(['get_file_outline', '--file', r.file, '--root', r.root]);
      if (out.status !== 0) throw new Error(`get_file_outline on ${r.root}: ${out.stderr}`);
    }
    const daemon = status().pid;
    const running = () => status().sessions.filter((s) => s.state !== 'stopped' && s.state !== 'evicted');
    const before = { sessions: running().length, ...memoryOf([daemon, ...descendants(daemon)]) };
    const t0 = Date.now();
    while (running().length > 0 && Date.now() - t0 < IDLE_MS * 3 + 60_000) await new Promise((r) => setTimeout(r, 1000));
    const after = { sessions: running().length, ...memoryOf([daemon, ...descendants(daemon)]) };
    const out = {
      roots: roots.length,
      server_idle_ms: IDLE_MS,
      clients_attached: 1,
      before_idle_stop: before,
      after_idle_stop: after,
      stopped_after_s: Math.round((Date.now() - t0) / 1000),
    };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } finally {
    const clientPid = transport.pid;
    await client.close().catch(() => undefined);
    // a thin client that outlived the daemon would start a new one
    while (clientPid && alive(clientPid)) await new Promise((r) => setTimeout(r, 100));
    lspgate(['daemon', 'stop']);
    const socket = daemonPaths(env.LSPGATE_CACHE_DIR!, env).socket;
    for (let i = 0; i < 300 && existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
    // the stopping daemon still writes its catalogs' snapshots for a moment
    rmSync(tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
