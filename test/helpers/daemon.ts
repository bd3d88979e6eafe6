/**
 * A private world for daemon tests: XDG_RUNTIME_DIR (the socket directory), XDG_CONFIG_HOME
 * (a user servers.json running the fault server, slow on textDocument/definition), a cache
 * directory and a workspace with one `.fault` file. Clients are spawned `lspgate` processes with
 * `--daemon require`; status comes over the daemon's own socket.
 */
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

import { FAULT_SERVER } from '../../fixtures/fault-server/entry.js';
import { connect } from '../../src/frontends/daemon-client/client.js';
import type { DaemonStatus } from '../../src/frontends/daemon-client/protocol.js';
import { RemoteGateway } from '../../src/frontends/daemon-client/remote-gateway.js';
import { daemonPaths } from '../../src/frontends/daemon-client/socket-dir.js';
import { createLogger } from '../../src/util/logger.js';
import { CLI, commandLine, descendants, type Spawned, spawnNode, tempDir } from './spawn.js';

export interface DaemonWorld {
  base: string;
  ws: string;
  cacheDir: string;
  env: Record<string, string>;
  socket: string;
}

export function daemonWorld(
  faultArgs: string[] = ['--slow-on=textDocument/definition', '--slow-ms=3000'],
  extraEnv: Record<string, string> = {},
  entryFields: Record<string, unknown> = {},
): DaemonWorld {
  const base = realpathSync(tempDir('lspgate-daemon-'));
  const ws = path.join(base, 'ws');
  const run = path.join(base, 'run');
  const cfg = path.join(base, 'cfg', 'lspgate');
  const cacheDir = path.join(base, 'cache');
  for (const d of [ws, run, cfg, cacheDir]) mkdirSync(d, { recursive: true });
  chmodSync(run, 0o700);
  writeFileSync(path.join(ws, 'a.fault'), 'fault file\nsecond line\n');
  const entry = {
    id: 'fault',
    languages: ['fault'],
    extensions: ['.fault'],
    command: process.execPath,
    args: [FAULT_SERVER, ...faultArgs],
    install: 'it is in fixtures/fault-server',
    readiness: { kind: 'first-reply' },
    timeouts: { startMs: 20_000, readyMs: 20_000, requestMs: 30_000, shutdownMs: 1_000, idleMs: 0 },
    ...entryFields,
  };
  writeFileSync(path.join(cfg, 'servers.json'), JSON.stringify({ servers: [entry] }));
  const env = {
    XDG_RUNTIME_DIR: run,
    XDG_CONFIG_HOME: path.join(base, 'cfg'),
    LSPGATE_DAEMON: 'require',
    // every call reaches the (slow) server: no answer is served from a cache
    LSPGATE_RESPONSE_CACHE: 'off',
    ...extraEnv,
  };
  return { base, ws, cacheDir, env, socket: daemonPaths(cacheDir, env).socket };
}

/** A spawned `lspgate sidecar --daemon require` and a JSON-RPC connection to it. */
export function sidecarClient(w: DaemonWorld, root = w.ws): { proc: Spawned; conn: MessageConnection } {
  const proc = spawnNode(CLI, ['sidecar', '--daemon', 'require', '--root', root], { cacheDir: w.cacheDir, env: w.env });
  const conn = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
  conn.onError(() => undefined);
  conn.listen();
  return { proc, conn };
}

/** The running daemon's status over its socket; undefined when none listens. */
export async function daemonStatus(w: DaemonWorld): Promise<DaemonStatus | undefined> {
  const socket = await connect(w.socket);
  if (!socket) return undefined;
  const remote = RemoteGateway.open(socket, w.ws, createLogger('test', 'error'), w.cacheDir);
  try {
    return await remote.status();
  } finally {
    await remote.close();
  }
}

export async function stopDaemon(w: DaemonWorld): Promise<void> {
  const socket = await connect(w.socket);
  if (!socket) return;
  const remote = RemoteGateway.open(socket, w.ws, createLogger('test', 'error'), w.cacheDir);
  await remote.stop(false).catch(() => undefined);
  await remote.close();
}

/** Fault-server processes under `pid` (not their lspgate-reaper watchdogs, whose command line names the server too). */
export function faultServersUnder(pid: number): number[] {
  return descendants(pid).filter((p) => {
    const cmd = commandLine(p);
    return cmd.includes('fault-server/server.mjs') && !cmd.includes('lspgate-reaper');
  });
}
