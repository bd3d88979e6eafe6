/**
 * Process inventories and extra clients for daemon lifecycle tests: every process of a daemon
 * test world found through /proc (whatever its parent now is), `lspgate mcp --http` clients
 * attached to the daemon, and a second lspgate version built from this checkout's dist/.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Client } from '@modelcontextprotocol/client';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { type DaemonWorld, stopDaemon } from './daemon.js';
import { connectHttp } from './mcp-client.js';
import { CLI, commandLine, descendants, isAlive, removeDir, REPO, type Spawned, spawnNode, waitFor } from './spawn.js';

export interface WorldProcess {
  pid: number;
  cmd: string;
}

function environ(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Every live process that belongs to the world: its command line or environment names the
 * world's base directory (the daemon and every server it spawns inherit LSPGATE_CACHE_DIR and
 * XDG_RUNTIME_DIR under it, so a server re-parented to init after its daemon died is still found),
 * or it descends from one of `roots`. This test process itself is left out.
 */
export function worldProcesses(w: DaemonWorld, roots: number[] = []): WorldProcess[] {
  const found = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || !isAlive(pid)) continue;
    if (commandLine(pid).includes(w.base) || environ(pid).includes(w.base)) found.add(pid);
  }
  for (const r of roots) {
    if (isAlive(r)) found.add(r);
    for (const d of descendants(r)) if (isAlive(d)) found.add(d);
  }
  return [...found].map((pid) => ({ pid, cmd: commandLine(pid) }));
}

/**
 * Ends a daemon test world: stops its daemon, then waits for every process of the world to exit —
 * a client that lost its daemon re-attaches and may have started a new one that was not yet
 * listening when it was asked to stop (it would idle out only after 10 minutes) — and stops
 * that one too; anything still alive after that is killed and named on stderr. Then removes it.
 */
export async function endWorld(w: DaemonWorld): Promise<void> {
  await stopDaemon(w);
  const deadline = Date.now() + 10_000;
  while (worldProcesses(w).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    await stopDaemon(w);
  }
  const left = worldProcesses(w);
  for (const p of left) {
    process.stderr.write(`endWorld: killing ${p.pid} (${p.cmd.slice(0, 120)}), still alive 10 s after the daemon was stopped\n`);
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  removeDir(w.base);
}

/** The fault-server processes (not their watchdogs) among `procs`. */
export function faultServers(procs: WorldProcess[]): WorldProcess[] {
  return procs.filter((p) => p.cmd.includes('fault-server/server.mjs') && !p.cmd.includes('lspgate-reaper'));
}

/** A spawned `lspgate mcp --http --daemon require` and the real MCP SDK client connected to it. */
export interface McpHttpClient {
  proc: Spawned;
  client: Client;
}

export async function mcpHttpClient(w: DaemonWorld, root = w.ws): Promise<McpHttpClient> {
  const proc = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--daemon', 'require', '--root', root, '--port', '0'], { cacheDir: w.cacheDir, env: w.env });
  const ready = () => /bearer token written to (\S+)/.test(proc.stderr()) || proc.child.exitCode !== null;
  await waitFor(ready, 'lspgate mcp --http to listen', 60_000);
  if (proc.child.exitCode !== null) throw new Error(`lspgate mcp --http exited: ${proc.stderr()}`);
  const url = /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]!;
  const token = readFileSync(/bearer token written to (\S+)/.exec(proc.stderr())![1]!, 'utf8').trim();
  return { proc, client: await connectHttp(url, token) };
}

/**
 * Another lspgate version, made the way a user's upgrade leaves one: this checkout's built
 * package (dist/src, servers.json, the schemas) copied under `dir` with `version` in its
 * package.json, and node_modules linked. Its CLI starts daemons of its own version.
 */
export function otherVersion(dir: string, version: string): { cli: string; version: string } {
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(REPO, 'dist/src'), path.join(dir, 'dist/src'), { recursive: true });
  for (const f of ['servers.json', 'servers.schema.json', 'config.schema.json']) cpSync(path.join(REPO, f), path.join(dir, f));
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return { cli: path.join(dir, 'dist/src/cli/main.js'), version };
}

/** A `sidecar --daemon require` of the given CLI (another version's) and a JSON-RPC connection to it. */
export function sidecarOf(cli: string, w: DaemonWorld, root = w.ws): { proc: Spawned; conn: MessageConnection } {
  const proc = spawnNode(cli, ['sidecar', '--daemon', 'require', '--root', root], { cacheDir: w.cacheDir, env: w.env });
  const conn = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
  conn.onError(() => undefined);
  conn.listen();
  return { proc, conn };
}

/** Runs a CLI script (this version's or another's) to completion. */
export async function runScript(
  cli: string,
  args: string[],
  w: DaemonWorld,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnNode(cli, args, { cacheDir: w.cacheDir, cwd: REPO, env: { ...w.env, ...env } });
  p.child.stdin?.end('');
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}
