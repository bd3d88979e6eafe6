/**
 * Soak (npm run soak; not part of npm test): several concurrent clients run mixed operations
 * through one Gateway on fixtures/ts-app (stdio servers only, no network) while a chaos loop
 * SIGKILLs the server process groups at random. Bounded by count and time. Prints calls, errors
 * by code, p50/p99 latency, and RSS / open descriptors / child processes at start and end.
 *
 * Env: LSPGATE_SOAK_SECONDS (default 60), LSPGATE_SOAK_CALLS (default 3000),
 *      LSPGATE_SOAK_CLIENTS (default 4), LSPGATE_SOAK_KILL_MS (mean ms between kills, default 6000).
 *      LSPGATE_SOAK_DAEMON=1: the clients are connections to a real `lspgate daemon` (a child of
 *      this process, private XDG_RUNTIME_DIR), each attached with its own view; the chaos loop kills
 *      the servers the daemon's status lists; at the end the daemon is stopped and must leave no
 *      child process behind.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { packageRoot } from '../src/config/load.js';
import { isLspgateError } from '../src/errors/errors.js';
import { connect } from '../src/frontends/daemon-client/client.js';
import { RemoteGateway } from '../src/frontends/daemon-client/remote-gateway.js';
import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import { Gateway } from '../src/gateway/gateway.js';
import { createLogger } from '../src/util/logger.js';

const seconds = Number(process.env.LSPGATE_SOAK_SECONDS ?? 60);
const maxCalls = Number(process.env.LSPGATE_SOAK_CALLS ?? 3000);
const clients = Number(process.env.LSPGATE_SOAK_CLIENTS ?? 4);
const killMs = Number(process.env.LSPGATE_SOAK_KILL_MS ?? 6000);

const CALLS: [string, Record<string, unknown>][] = [
  ['get_file_outline', { file: 'src/models/user.ts' }],
  ['get_file_outline', { file: 'src/models/shape.ts' }],
  ['find_definition', { symbol: 'formatName' }],
  ['find_references', { symbol: 'buildReport' }],
  ['find_references', { symbol: 'User' }],
  ['find_callers', { symbol: 'formatName' }],
  ['find_callees', { symbol: 'buildReport' }],
  ['search_symbols', { query: 'User' }],
  ['open_at', { file: 'src/app.ts', line: 5 }],
];

/** Every descendant of this process (servers, reapers, tsserver children). */
function childCount(): number {
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parent.set(Number(name), Number(fields[1]));
    } catch {
      // exited while listing
    }
  }
  let n = 0;
  const queue = [process.pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [c, pp] of parent) {
      if (pp !== p) continue;
      n++;
      queue.push(c);
    }
  }
  return n;
}

function snapshot() {
  return {
    rssMb: Math.round(process.memoryUsage().rss / 1048576),
    heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
    fds: fs.readdirSync('/proc/self/fd').length,
    children: childCount(),
  };
}

interface Target {
  /** One runner per client (in-process: the same gateway for all). */
  clients: { run(name: string, input: unknown): Promise<unknown> }[];
  /** pids of the language servers now (the chaos loop's victims). */
  serverPids(): Promise<number[]>;
  sessions(): Promise<string>;
  close(): Promise<void>;
}

async function inProcess(root: string, cacheDir: string, override: string): Promise<Target> {
  const gateway = await Gateway.create({ root, cacheDir, serversFiles: [override], logger: createLogger('soak', 'error') });
  const broker = gateway.context.broker;
  return {
    clients: Array.from({ length: clients }, () => gateway),
    serverPids: async () => broker.existing().flatMap((s) => (s.pid !== undefined ? [s.pid] : [])),
    sessions: async () =>
      broker
        .info()
        .map((i) => `${i.serverId} gen ${i.generation} ${i.state} crashes ${i.crashes}`)
        .join('; '),
    close: () => gateway.close(),
  };
}

async function viaDaemon(root: string, cacheDir: string, override: string): Promise<Target> {
  const run = path.join(cacheDir, 'run');
  fs.mkdirSync(run, { mode: 0o700 });
  fs.mkdirSync(path.join(cacheDir, 'config', 'lspgate'), { recursive: true });
  fs.copyFileSync(override, path.join(cacheDir, 'config', 'lspgate', 'servers.json'));
  const env = { ...process.env, XDG_RUNTIME_DIR: run, XDG_CONFIG_HOME: path.join(cacheDir, 'config'), LSPGATE_CACHE_DIR: cacheDir };
  const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/main.js');
  const daemon = spawn(process.execPath, [cli, 'daemon'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const socketPath = daemonPaths(cacheDir, env).socket;
  const logger = createLogger('soak', 'error');
  const open = async () => {
    for (;;) {
      const s = await connect(socketPath);
      if (s) return RemoteGateway.open(s, root, logger, cacheDir);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const remotes = await Promise.all(Array.from({ length: clients }, open));
  for (const r of remotes) await r.attach('soak');
  const status = () => remotes[0]!.status();
  return {
    clients: remotes,
    serverPids: async () => (await status()).sessions.flatMap((s) => (s.pid !== undefined ? [s.pid] : [])),
    sessions: async () =>
      (await status()).sessions
        .map((i) => `${i.server} gen ${i.generation} ${i.state} crashes ${i.crashes} ${Math.round((i.rss_bytes ?? 0) / 1048576)} MB`)
        .join('; '),
    close: async () => {
      for (const r of remotes.slice(1)) await r.close();
      await remotes[0]!.stop();
      await remotes[0]!.close();
      await new Promise((r) => daemon.once('exit', r));
    },
  };
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const root = path.join(packageRoot(), 'fixtures/ts-app');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-soak-'));
  // random kills would trip the 5-crashes-in-3-minutes rule: raise it for this run only
  const override = path.join(cacheDir, 'servers.soak.json');
  fs.writeFileSync(override, JSON.stringify({ servers: [{ id: 'typescript-language-server', restart: { maxCrashes: 100000, windowMs: 1000 } }] }));
  const before = snapshot();
  const daemonMode = process.env.LSPGATE_SOAK_DAEMON === '1';
  const target = await (daemonMode ? viaDaemon : inProcess)(root, cacheDir, override);
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const samples = new Map<string, string>();
  let calls = 0;
  let kills = 0;
  let deadline = Number.POSITIVE_INFINITY;
  const more = () => Date.now() < deadline && calls < maxCalls;

  await target.clients[0]!.run('get_file_outline', { file: 'src/app.ts' }); // warm-up: the server starts and indexes
  const warm = snapshot();
  deadline = Date.now() + seconds * 1000;

  const client = async (id: number) => {
    let i = id;
    while (more()) {
      const [name, input] = CALLS[i++ % CALLS.length]!;
      calls++;
      const t0 = performance.now();
      try {
        await target.clients[id]!.run(name, input);
        latencies.push(performance.now() - t0);
      } catch (e) {
        const code = isLspgateError(e) ? e.code : 'UNCODED';
        errors.set(code, (errors.get(code) ?? 0) + 1);
        if (!samples.has(code)) samples.set(code, `${name}: ${(e as Error).message.slice(0, 300)}`);
      }
    }
  };
  const chaos = async () => {
    while (more()) {
      const wakeAt = Date.now() + killMs * (0.5 + Math.random());
      while (more() && Date.now() < wakeAt) await new Promise((r) => setTimeout(r, 200));
      const live = await target.serverPids();
      const victim = live[Math.floor(Math.random() * live.length)];
      if (!victim || !more()) continue;
      // the server's group when it leads one, else the server alone (under lspgate's reaper watchdog,
      // which leads the group, the server's own pid is no group id)
      for (const target of [-victim, victim]) {
        try {
          process.kill(target, 'SIGKILL');
          kills++;
          break;
        } catch {
          // no such group / already gone
        }
      }
    }
  };
  const t0 = Date.now();
  await Promise.all([...Array.from({ length: clients }, (_, i) => client(i)), chaos()]);
  const elapsed = (Date.now() - t0) / 1000;
  const beforeClose = snapshot();
  const info = await target.sessions();
  await target.close();
  await new Promise((r) => setTimeout(r, 1000));
  const after = snapshot();
  fs.rmSync(cacheDir, { recursive: true, force: true });

  latencies.sort((a, b) => a - b);
  const out = process.stdout;
  out.write(`\nlspgate soak${daemonMode ? ' (through lspgate daemon)' : ''}: ${clients} clients, ${elapsed.toFixed(1)} s, ${kills} server kills\n\n`);
  out.write(`| calls | ok | errors | p50 ms | p99 ms | max ms |\n|---:|---:|---:|---:|---:|---:|\n`);
  out.write(
    `| ${calls} | ${latencies.length} | ${calls - latencies.length} | ${pct(latencies, 50).toFixed(1)} | ${pct(latencies, 99).toFixed(1)} | ${(latencies.at(-1) ?? 0).toFixed(1)} |\n\n`,
  );
  out.write(`errors by code: ${errors.size ? [...errors].map(([c, n]) => `${c}=${n}`).join(', ') : 'none'}\n\n`);
  for (const [code, msg] of samples) out.write(`  first ${code}: ${msg}\n`);
  out.write(`\n| moment | RSS MB | heap MB | fds | children |\n|---|---:|---:|---:|---:|\n`);
  for (const [label, s] of [
    ['start', before],
    ['after warm-up', warm],
    ['end of load', beforeClose],
    ['after close', after],
  ] as const) {
    out.write(`| ${label} | ${s.rssMb} | ${s.heapMb} | ${s.fds} | ${s.children} |\n`);
  }
  out.write(`\nsessions at the end of load: ${info}\n`);
  if (after.children !== 0) {
    out.write(`LEFTOVER CHILD PROCESSES: ${after.children}\n`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  process.stderr.write(`soak failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
