/**
 * `lspgate daemon status [--json]` and `lspgate daemon stop` from the thin entry (node builtins
 * only): neither needs a workspace, so neither loads the full CLI. Both speak to a running daemon
 * only (`lspgate/status` and `lspgate/stop` need no attach) and never start one.
 */
import { readFileSync } from 'node:fs';

import type { JsonRpcReply } from '../../link/frame.js';
import { daemonPaths, defaultCacheDir } from '../../link/paths.js';
import { connect } from '../../link/start.js';
import { call } from './rpc.js';

/** What the status text shows of the daemon's `lspgate/status` answer (src/core/daemon-status.ts). */
export interface StatusView {
  version: string;
  pid: number;
  socket: string;
  started_at: string;
  idle_exit_ms: number;
  /** Unused language servers stop after this long (0: never). */
  server_idle_ms?: number;
  memory_budget?: { limit_bytes?: number; source?: string; servers_bytes?: number };
  rss_bytes: number;
  clients: { id: number; frontend: string; pid?: number; root: string; running_requests: number; queued_requests?: number }[];
  sessions: { server: string; root: string; state: string; pid?: number; rss_bytes?: number; generation: number; crashes: number; note?: string }[];
  workspaces: { id: string; root: string; clients: number }[];
}

export interface QueryOutput {
  stdout: string;
  stderr: string;
  exit_code: number;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? '?' : `${Math.round(bytes / 1048576)} MB`;
}

function serversLine(s: StatusView): string {
  const b = s.memory_budget ?? {};
  const stop = s.server_idle_ms ? `${s.server_idle_ms} ms unused` : 'never (session idle stop off)';
  const budget = b.limit_bytes ? `${mb(b.limit_bytes)} (${b.source === 'machine' ? "half of the machine's memory" : 'configured'})` : 'none';
  return `language servers stop after ${stop}; memory budget ${budget}, servers use ${mb(b.servers_bytes)}`;
}

export function statusText(s: StatusView): string {
  const lines = [
    `lspgate daemon ${s.version}, pid ${s.pid}, ${mb(s.rss_bytes)}, since ${s.started_at}, idle exit after ${s.idle_exit_ms} ms without clients`,
    `socket ${s.socket}`,
    ...(s.memory_budget ? [serversLine(s)] : []),
    `clients (${s.clients.length}):`,
    ...s.clients.map(
      (c) =>
        `  #${c.id} ${c.frontend} pid ${c.pid ?? '?'} root ${c.root} running ${c.running_requests}${c.queued_requests ? ` (${c.queued_requests} waiting their turn)` : ''}`,
    ),
    `sessions (${s.sessions.length}):`,
    ...s.sessions.map(
      (x) =>
        `  ${x.server} ${x.state} pid ${x.pid ?? '-'} ${mb(x.rss_bytes)} root ${x.root} generation ${x.generation} crashes ${x.crashes}${x.note ? ` (${x.note})` : ''}`,
    ),
    `workspaces (${s.workspaces.length}):`,
    ...s.workspaces.map((w) => `  ${w.id} ${w.root} (${w.clients} client(s))`),
  ];
  return lines.join('\n');
}

/** An error reply (or none) as the CLI prints errors: `CODE: message`, exit status 1. */
function failed(reply: JsonRpcReply | undefined, method: string): QueryOutput {
  const code = reply?.error?.data?.code ?? 'DAEMON_FAILED';
  const message = reply?.error?.message ?? `the lspgate daemon closed the connection without answering ${method}`;
  return { stdout: '', stderr: `${code}: ${message}\n`, exit_code: 1 };
}

/** How long `daemon stop` waits for the daemon to exit (its own close watchdog fires before). */
const STOP_WAIT_MS = 30_000;

/** A process that is gone, or a zombie nobody reaped yet (a container whose init does not reap). */
function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** Until nothing answers on the socket and the daemon's process has exited; false after `ms`. */
async function waitStopped(socketPath: string, pid: number | undefined, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const socket = await connect(socketPath);
    socket?.destroy();
    if (!socket && (pid === undefined || exited(pid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What `lspgate daemon status|stop` prints. */
export async function daemonQuery(sub: 'status' | 'stop', json: boolean): Promise<QueryOutput> {
  const paths = daemonPaths(defaultCacheDir());
  const socket = await connect(paths.socket);
  if (!socket) {
    const stdout = json ? JSON.stringify({ running: false, socket: paths.socket }) + '\n' : `no lspgate daemon is running (${paths.socket})\n`;
    // status says "not running" by its exit status too; stopping what is not running is no failure
    return { stdout, stderr: '', exit_code: sub === 'status' ? 3 : 0 };
  }
  try {
    if (sub === 'status') {
      const answer = await call(socket, 1, 'lspgate/status', {});
      const status = answer?.reply.result as StatusView | undefined;
      if (!status || typeof status !== 'object') return failed(answer?.reply, 'lspgate/status');
      return { stdout: (json ? JSON.stringify({ running: true, ...status }, null, 2) : statusText(status)) + '\n', stderr: '', exit_code: 0 };
    }
    // The daemon may close the connection as it stops, before its answer: stopped all the same.
    const answer = await call(socket, 1, 'lspgate/stop', { if_idle: false });
    if (answer?.reply.error) return failed(answer.reply, 'lspgate/stop');
    const result = (answer?.reply.result ?? {}) as { clients?: unknown; pid?: unknown };
    const n = typeof result.clients === 'number' ? result.clients : 0;
    const attached = n ? ` (${n} client(s) were attached)` : '';
    socket.destroy();
    // Back only once it is gone: a command run next must reach a new daemon, never the closing one.
    const gone = await waitStopped(paths.socket, typeof result.pid === 'number' ? result.pid : undefined, STOP_WAIT_MS);
    if (!gone)
      return {
        stdout: `stopping the lspgate daemon${attached}; it is still closing its language servers after ${STOP_WAIT_MS / 1000} s\n`,
        stderr: '',
        exit_code: 0,
      };
    return { stdout: `stopped the lspgate daemon${attached}\n`, stderr: '', exit_code: 0 };
  } finally {
    socket.destroy();
  }
}
