/**
 * `lspgate daemon` (run it in the foreground), `lspgate daemon status [--json]` (clients,
 * sessions with their memory and state, workspaces) and `lspgate daemon stop`.
 */
import { LspgateError } from '../errors/errors.js';
import { connect } from '../frontends/daemon-client/client.js';
import type { DaemonStatus } from '../frontends/daemon-client/protocol.js';
import { RemoteGateway } from '../frontends/daemon-client/remote-gateway.js';
import { runDaemon } from '../daemon/server.js';
import { daemonPaths } from '../frontends/daemon-client/socket-dir.js';
import { defaultCacheDir } from '../gateway/gateway.js';
import { createLogger } from '../util/logger.js';
import { guardedParse } from '../frontends/operation-args.js';

const OPTIONS = {
  json: { type: 'boolean' },
  'idle-ms': { type: 'string' },
  'server-idle-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const DAEMON_HELP = [
  'lspgate daemon [--idle-ms N] [--server-idle-ms N]',
  '                                 run the shared daemon in the foreground: it exits after --idle-ms without clients (default 600000),',
  '                                 and stops a language server nobody used for --server-idle-ms (default 600000; 0: never)',
  'lspgate daemon status [--json]   clients, language-server sessions (state, memory) and workspaces of the running daemon',
  'lspgate daemon stop              stop the running daemon (its servers with it)',
].join('\n');

export async function runDaemonCommand(argv: string[]): Promise<void> {
  const { values, positionals } = guardedParse({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  const [sub, ...extra] = positionals;
  if (values.help || extra.length) {
    process.stdout.write(DAEMON_HELP + '\n');
    return;
  }
  if (sub === undefined) {
    const idle = intFlag(values['idle-ms'], '--idle-ms', 1);
    const sessionIdle = intFlag(values['server-idle-ms'], '--server-idle-ms', 0);
    return runDaemon({ ...(idle !== undefined ? { idleMs: idle } : {}), ...(sessionIdle !== undefined ? { sessionIdleMs: sessionIdle } : {}) });
  }
  if (sub !== 'status' && sub !== 'stop') throw new LspgateError('INVALID_INPUT', `unknown daemon command ${sub.slice(0, 40)}: status or stop`);
  const paths = daemonPaths(defaultCacheDir());
  const socket = await connect(paths.socket);
  if (!socket) {
    process.stdout.write(values.json ? JSON.stringify({ running: false, socket: paths.socket }) + '\n' : `no lspgate daemon is running (${paths.socket})\n`);
    process.exitCode = sub === 'status' ? 3 : 0;
    return;
  }
  const remote = RemoteGateway.open(socket, process.cwd(), createLogger(), defaultCacheDir());
  try {
    if (sub === 'stop') {
      const { clients } = await remote.stop(false);
      process.stdout.write(`stopping the lspgate daemon${clients ? ` (${clients} client(s) were attached)` : ''}\n`);
    } else {
      const status = await remote.status();
      process.stdout.write((values.json ? JSON.stringify({ running: true, ...status }, null, 2) : statusText(status)) + '\n');
    }
  } finally {
    await remote.close();
  }
}

function intFlag(raw: string | undefined, flag: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new LspgateError('INVALID_INPUT', `${flag} must be a ${min > 0 ? 'positive' : 'non-negative'} integer`);
  return n;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? '?' : `${Math.round(bytes / 1048576)} MB`;
}

export function statusText(s: DaemonStatus): string {
  const lines = [
    `lspgate daemon ${s.version}, pid ${s.pid}, ${mb(s.rss_bytes)}, since ${s.started_at}, idle exit after ${s.idle_exit_ms} ms without clients`,
    `socket ${s.socket}`,
    `language servers stop after ${s.server_idle_ms ? `${s.server_idle_ms} ms unused` : 'never (session idle stop off)'}; memory budget ${
      s.memory_budget.limit_bytes ? `${mb(s.memory_budget.limit_bytes)} (${s.memory_budget.source === 'machine' ? "half of the machine's memory" : 'configured'})` : 'none'
    }, servers use ${mb(s.memory_budget.servers_bytes)}`,
    `clients (${s.clients.length}):`,
    ...s.clients.map((c) => `  #${c.id} ${c.frontend} pid ${c.pid ?? '?'} root ${c.root} running ${c.running_requests}`),
    `sessions (${s.sessions.length}):`,
    ...s.sessions.map((x) => `  ${x.server} ${x.state} pid ${x.pid ?? '-'} ${mb(x.rss_bytes)} root ${x.root} generation ${x.generation} crashes ${x.crashes}${x.note ? ` (${x.note})` : ''}`),
    `workspaces (${s.workspaces.length}):`,
    ...s.workspaces.map((w) => `  ${w.id} ${w.root} (${w.clients} client(s))`),
  ];
  return lines.join('\n');
}
