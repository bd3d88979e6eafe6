/**
 * `node dist/bench/daemon-clients.js [--files 500] [--clients 4] [--cli-runs 10]`: what thin
 * clients of `lspgate daemon` cost. On a generated TypeScript repository (gen-repo.ts), in a
 * private XDG_RUNTIME_DIR and cache directory:
 *   1. one `lspgate mcp` (thin: the front-end runs in the daemon) after `index_folder`, then
 *      `--clients` of them on the same root: the sum of RSS and the sum of PSS
 *      (/proc/PID/smaps_rollup; PSS splits pages shared between processes, RSS counts Node's
 *      shared pages once per process) over every process — clients, the daemon, its server trees;
 *   2. one-shot `lspgate find_definition` against the warm daemon: wall time from spawn to exit,
 *      median of --cli-runs, beside `node -e 0` and `--daemon off` (3 runs: it starts a server).
 * Prints one JSON object. Every process it starts is stopped (the daemon by `lspgate daemon stop`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { descendants } from '../fixtures/fault-server/proc-utils.js';
import { daemonPaths } from '../src/link/paths.js';
import { generateRepo } from './gen-repo.js';
import { median } from './stats.js';

const { values } = parseArgs({ options: { files: { type: 'string' }, clients: { type: 'string' }, 'cli-runs': { type: 'string' } } });
const FILES = Number(values.files ?? 500);
const CLIENTS = Number(values.clients ?? 4);
const CLI_RUNS = Number(values['cli-runs'] ?? 10);
const cli = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/main.js');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'lspgate-daemon-clients-'));
const run = path.join(tmp, 'run');
mkdirSync(run, { mode: 0o700 });
const env: Record<string, string> = {
  ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
  XDG_RUNTIME_DIR: run,
  LSPGATE_DAEMON: 'require',
};
/** Each phase from a cold cache of its own (so a daemon of its own): the catalog is built, not loaded. */
function phase(name: string): void {
  env.LSPGATE_CACHE_DIR = path.join(tmp, `cache-${name}`);
}

/** RSS and PSS of one process in bytes (0 if it is gone). */
function memory(pid: number): { rss: number; pss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { rss: kb('Rss'), pss: kb('Pss') };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

const mb = (b: number) => Math.round(b / 1048576);

function sum(pids: number[]): { processes: number; rss_mb: number; pss_mb: number } {
  const m = pids.map(memory);
  return { processes: pids.length, rss_mb: mb(m.reduce((n, x) => n + x.rss, 0)), pss_mb: mb(m.reduce((n, x) => n + x.pss, 0)) };
}

function daemonPid(): number {
  const r = spawnSync(process.execPath, [cli, 'daemon', 'status', '--json'], { env, encoding: 'utf8' });
  return (JSON.parse(r.stdout) as { pid: number }).pid;
}

async function mcpClient(root: string): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--tools', 'all', '--root', root], env, stderr: 'ignore' });
  const client = new Client({ name: 'daemon-clients-bench', version: '0' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

function everything(clientPids: number[]): number[] {
  const d = daemonPid();
  return [...clientPids, d, ...descendants(d)];
}

async function measureClients(root: string, symbol: string, n: number) {
  const clients = [];
  for (let i = 0; i < n; i++) clients.push(await mcpClient(root));
  await clients[0]!.client.callTool({ name: 'index_folder', arguments: { path: root } }, { timeout: 600_000 });
  // every client asks the server itself (the catalog alone would answer without starting it)
  for (const c of clients) await c.client.callTool({ name: 'find_definition', arguments: { symbol } }, { timeout: 300_000 });
  await new Promise((r) => setTimeout(r, 2000));
  const all = sum(everything(clients.map((c) => c.pid)));
  const perClient = clients.map((c) => memory(c.pid));
  const result = { clients: n, ...all, client_rss_mb: perClient.map((m) => mb(m.rss)), client_pss_mb: perClient.map((m) => mb(m.pss)) };
  for (const c of clients) await c.client.close();
  return result;
}

function stopDaemon(): void {
  spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
  const socket = daemonPaths(env.LSPGATE_CACHE_DIR!, env).socket;
  const until = Date.now() + 30_000;
  while (existsSync(socket) && Date.now() < until) spawnSync('sleep', ['0.2']);
}

function wallMs(args: string[], extraEnv: Record<string, string> = {}): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(args[0]!, args.slice(1), { env: { ...env, ...extraEnv }, encoding: 'utf8', cwd: tmp });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function main(): Promise<void> {
  const repo = generateRepo({ files: FILES, out: path.join(tmp, 'repo') });
  const symbol = repo.files
    .map((f) => /export (?:function|class) (\w+)/.exec(readFileSync(path.join(repo.root, f), 'utf8'))?.[1])
    .find((n) => n !== undefined)!;
  phase('one');
  const one = await measureClients(repo.root, symbol, 1);
  stopDaemon();
  phase('many');
  const many = await measureClients(repo.root, symbol, CLIENTS);
  // the daemon is warm (the catalog and tsserver of this root): one-shot calls through it
  const def = [process.execPath, cli, 'find_definition', '--root', repo.root, '--symbol', symbol];
  const thin = Array.from({ length: CLI_RUNS }, () => wallMs(def));
  const bare = Array.from({ length: CLI_RUNS }, () => wallMs([process.execPath, '-e', '0']));
  stopDaemon();
  const off = Array.from({ length: 3 }, () => wallMs([...def, '--daemon', 'off']));
  const out = {
    files: repo.files.length,
    one_client: one,
    many_clients: many,
    rss_ratio: Math.round((many.rss_mb / one.rss_mb) * 100) / 100,
    pss_ratio: Math.round((many.pss_mb / one.pss_mb) * 100) / 100,
    cli_find_definition_ms: {
      thin_median: Math.round(median(thin)),
      node_e_0_median: Math.round(median(bare)),
      daemon_off_median: Math.round(median(off)),
      runs: CLI_RUNS,
    },
  };
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

main()
  .catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    stopDaemon();
    rmSync(tmp, { recursive: true, force: true });
  });
