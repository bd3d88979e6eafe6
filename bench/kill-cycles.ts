/**
 * `node dist/bench/kill-cycles.js [--cycles 100] [--root fixtures/ts-app] [--grace-ms 20000]`:
 * start/kill cycles of `lspgate mcp`. Each cycle spawns lspgate, makes a real tool call that starts
 * typescript-language-server (get_file_outline), records the whole process tree from /proc, ends
 * lspgate by SIGTERM, SIGKILL or stdin EOF (in turn), and waits up to --grace-ms for every process
 * of that tree to disappear. Prints a table per ending and the surviving language-server processes
 * (must be 0). Exit status 1 if any survived.
 *
 * `--daemon`: every cycle's `lspgate mcp --daemon require` attaches to one daemon (private
 * XDG_RUNTIME_DIR and cache dir). The killed client's own tree must vanish, the daemon must keep
 * exactly one language-server tree whatever its clients do, and after the run `lspgate daemon stop`
 * must leave no process of the daemon's tree behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { alive, descendants } from '../fixtures/fault-server/proc-utils.js';
import { connect } from '../src/frontends/daemon-client/client.js';
import { RemoteGateway } from '../src/frontends/daemon-client/remote-gateway.js';
import { daemonPaths } from '../src/frontends/daemon-client/socket-dir.js';
import { createLogger } from '../src/util/logger.js';

type Ending = 'SIGTERM' | 'SIGKILL' | 'EOF';
const ENDINGS: Ending[] = ['SIGTERM', 'SIGKILL', 'EOF'];

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repo, 'dist/src/cli/main.js');

interface CycleResult {
  ending: Ending;
  treeSize: number;
  callMs: number;
  /** From the ending to the last process of the tree gone (undefined if some survived). */
  goneMs?: number;
  survivors: { pid: number; cmd: string }[];
  error?: string;
  /** Daemon mode: language-server processes (typescript-language-server) under the daemon after the cycle. */
  daemonServers?: number;
}

/** Daemon mode: one runtime dir and cache dir for every cycle. */
interface DaemonSetup {
  env: Record<string, string>;
  cacheDir: string;
  socket: string;
}

async function daemonPid(d: DaemonSetup): Promise<number | undefined> {
  const socket = await connect(d.socket);
  if (!socket) return undefined;
  const remote = RemoteGateway.open(socket, repo, createLogger('bench', 'error'), d.cacheDir);
  try {
    return (await remote.status()).pid;
  } finally {
    await remote.close();
  }
}

/** typescript-language-server processes under `pid` (not their lspgate-reaper watchdogs, whose command line names it too). */
function serversUnder(pid: number): number {
  return descendants(pid).filter((p) => {
    const cmd = cmdline(p);
    return /typescript-language-server\/lib\/cli/.test(cmd) && !cmd.includes('lspgate-reaper');
  }).length;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Newline-delimited JSON-RPC over the child's stdio (the MCP stdio binding), 2025-11-25 handshake. */
function mcpDriver(child: ChildProcess) {
  let buf = '';
  let nextId = 1;
  const pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (typeof msg.id === 'number') pending.get(msg.id)?.(msg);
    }
  });
  const request = (method: string, params: unknown) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.once('exit', () => reject(new Error(`lspgate exited during ${method}`)));
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  return {
    async initialize() {
      await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'kill-cycles', version: '1' } });
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    },
    callTool: (name: string, args: unknown) => request('tools/call', { name, arguments: args }),
  };
}

async function waitAllGone(pids: number[], graceMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < graceMs) {
    if (!pids.some(alive)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 25));
  }
  return pids.some(alive) ? undefined : Date.now() - start;
}

async function cycle(ending: Ending, root: string, file: string, graceMs: number, daemon?: DaemonSetup): Promise<CycleResult> {
  const cacheDir = daemon ? daemon.cacheDir : mkdtempSync(path.join(os.tmpdir(), 'lspgate-kill-'));
  const child = spawn(process.execPath, [cli, 'mcp', '--tools', 'all', '--root', root, '--daemon', daemon ? 'require' : 'off'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LSPGATE_CACHE_DIR: cacheDir, ...daemon?.env },
  });
  // The stderr tail explains a cycle whose lspgate died on its own.
  let stderrTail = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderrTail = (stderrTail + d).slice(-600)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const result: CycleResult = { ending, treeSize: 0, callMs: 0, survivors: [] };
  try {
    const mcp = mcpDriver(child);
    await mcp.initialize();
    const t0 = performance.now();
    const r = await mcp.callTool('get_file_outline', { file });
    result.callMs = performance.now() - t0;
    if (r.error || (r.result as { isError?: boolean }).isError) result.error = JSON.stringify(r.error ?? r.result).slice(0, 200);
  } catch (e) {
    result.error = `${(e as Error).message}${stderrTail ? `; stderr: ${stderrTail.trim()}` : ''}`;
  }
  const tree = descendants(child.pid!);
  result.treeSize = tree.length;
  if (ending === 'EOF') child.stdin!.end();
  else child.kill(ending);
  await exited;
  result.goneMs = await waitAllGone(tree, graceMs);
  result.survivors = tree.filter(alive).map((pid) => ({ pid, cmd: cmdline(pid) }));
  for (const s of result.survivors) {
    try {
      process.kill(s.pid, 'SIGKILL'); // do not let one bad cycle poison the next ones
    } catch {
      // already gone
    }
  }
  if (daemon) {
    const pid = await daemonPid(daemon);
    result.daemonServers = pid === undefined ? 0 : serversUnder(pid);
  } else rmSync(cacheDir, { recursive: true, force: true });
  return result;
}

function daemonSetup(): DaemonSetup {
  const base = mkdtempSync(path.join(os.tmpdir(), 'lspgate-kill-daemon-'));
  const run = path.join(base, 'run');
  mkdirSync(run, { mode: 0o700 });
  const cacheDir = path.join(base, 'cache');
  const env = { XDG_RUNTIME_DIR: run };
  return { env, cacheDir, socket: daemonPaths(cacheDir, env).socket };
}

/** Stops the daemon and returns the processes of its tree still alive after graceMs. */
async function stopDaemon(d: DaemonSetup, graceMs: number): Promise<{ pid: number; cmd: string }[]> {
  const pid = await daemonPid(d);
  if (pid === undefined) return [];
  const tree = [pid, ...descendants(pid)];
  const socket = await connect(d.socket);
  if (socket) {
    const remote = RemoteGateway.open(socket, repo, createLogger('bench', 'error'), d.cacheDir);
    await remote.stop(false).catch(() => undefined);
    await remote.close();
  }
  await waitAllGone(tree, graceMs);
  return tree.filter(alive).map((p) => ({ pid: p, cmd: cmdline(p) }));
}

/** Language-server processes anywhere on the machine that belong to this root and have no lspgate parent. */
function orphansFor(root: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const cmd = cmdline(pid);
    if (!/typescript-language-server|tsserver/.test(cmd) || !alive(pid)) continue;
    let ppid: number;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      continue;
    }
    if (ppid === 1 && (cmd.includes(root) || readCwd(pid) === root)) out.push({ pid, cmd });
  }
  return out;
}

function readCwd(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '';
  }
}

function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cycles: { type: 'string', default: '100' },
      root: { type: 'string', default: path.join(repo, 'fixtures/ts-app') },
      file: { type: 'string', default: 'src/util/strings.ts' },
      'grace-ms': { type: 'string', default: '20000' },
      daemon: { type: 'boolean', default: false },
    },
  });
  const daemon = values.daemon ? daemonSetup() : undefined;
  const cycles = Number(values.cycles);
  const root = path.resolve(values.root);
  const graceMs = Number(values['grace-ms']);
  const results: CycleResult[] = [];
  for (let i = 0; i < cycles; i++) {
    const r = await cycle(ENDINGS[i % ENDINGS.length]!, root, values.file, graceMs, daemon);
    results.push(r);
    process.stderr.write(
      `cycle ${i + 1}/${cycles} ${r.ending}: tree ${r.treeSize}, call ${r.callMs.toFixed(0)} ms, gone ${r.goneMs === undefined ? 'NO' : `${r.goneMs} ms`}` +
        `${r.survivors.length ? `, ${r.survivors.length} SURVIVOR(S)` : ''}${r.error ? `, call error ${r.error}` : ''}` +
        `${r.daemonServers !== undefined ? `, servers under the daemon ${r.daemonServers}` : ''}\n`,
    );
  }
  const lines = ['| ending | cycles | call errors | tree size (min-max) | gone p50 ms | gone max ms | survivors |', '|---|---|---|---|---|---|---|'];
  for (const ending of ENDINGS) {
    const rs = results.filter((r) => r.ending === ending);
    if (!rs.length) continue;
    const gone = rs.flatMap((r) => (r.goneMs === undefined ? [] : [r.goneMs]));
    const sizes = rs.map((r) => r.treeSize);
    lines.push(
      `| ${ending} | ${rs.length} | ${rs.filter((r) => r.error).length} | ${Math.min(...sizes)}-${Math.max(...sizes)} | ${pct(gone, 50)} | ${gone.length ? Math.max(...gone) : 'n/a'} | ${rs.reduce((n, r) => n + r.survivors.length, 0)} |`,
    );
  }
  const daemonLeft = daemon ? await stopDaemon(daemon, graceMs) : [];
  const survivors = [...results.flatMap((r) => r.survivors), ...daemonLeft];
  const orphans = orphansFor(root);
  process.stdout.write(`\nlspgate mcp${daemon ? ' --daemon require' : ''} start/kill cycles on ${root}\n\n${lines.join('\n')}\n\n`);
  if (daemon) {
    const counts = results.map((r) => r.daemonServers ?? 0);
    process.stdout.write(`language-server trees under the daemon after each cycle: min ${Math.min(...counts)}, max ${Math.max(...counts)} (want 1)\n`);
    process.stdout.write(`daemon processes left after \`lspgate daemon stop\`: ${daemonLeft.length}\n`);
  }
  process.stdout.write(`surviving language-server processes: ${survivors.length}\n`);
  for (const s of survivors) process.stdout.write(`  ${s.pid} ${s.cmd}\n`);
  process.stdout.write(`orphaned (ppid 1) language servers for this root after the run: ${orphans.length}\n`);
  for (const o of orphans) process.stdout.write(`  ${o.pid} ${o.cmd}\n`);
  const callErrors = results.filter((r) => r.error).length;
  if (callErrors) process.stdout.write(`cycles whose tool call failed (the server may not have started): ${callErrors}\n`);
  process.exit(survivors.length || orphans.length ? 1 : 0);
}

void main();
