/**
 * The sessions part of `lspgate daemon status` and the daemon_status operation, built in one
 * place: the daemon's lspgate/status uses sessionStatuses, the operation daemonStatusAnswer.
 */
import type { Broker } from '../../broker/types.js';
import type { DaemonMemoryBudget, DaemonSessionStatus } from '../../core/daemon-status.js';
import type { ServiceEnv } from '../env.js';

/** Every session of the broker (live, and evicted under the memory budget) with its tree's RSS. */
export function sessionStatuses(broker: Broker): DaemonSessionStatus[] {
  return broker.info().map((s) => ({
    server: s.serverId,
    root: s.root,
    state: s.state,
    ...(s.pid !== undefined ? { pid: s.pid } : {}),
    ...(s.rssBytes !== undefined ? { rss_bytes: s.rssBytes } : {}),
    generation: s.generation,
    crashes: s.crashes,
    open_documents: s.openDocuments,
    ...(s.stopReason !== undefined ? { note: s.stopReason } : {}),
  }));
}

export interface DaemonClientAnswer {
  id: number;
  frontend: string;
  root: string;
  pid?: number;
  attached_ms: number;
  in_flight: number;
}

export interface DaemonStatusAnswer {
  daemon: boolean;
  pid?: number;
  version?: string;
  socket?: string;
  uptime_ms?: number;
  idle_exit_ms?: number;
  server_idle_ms?: number;
  memory_budget?: DaemonMemoryBudget;
  rss_bytes?: number;
  clients?: DaemonClientAnswer[];
  sessions: DaemonSessionStatus[];
}

const since = (iso: string, now: number): number => Math.max(0, now - Date.parse(iso));

/**
 * Through the daemon (it registered env.daemonStatus at start): the daemon's status with its
 * clients; in a process of its own: `daemon: false` and this process's sessions.
 */
export function daemonStatusAnswer(env: ServiceEnv, now = Date.now()): DaemonStatusAnswer {
  const provider = env.daemonStatus;
  if (!provider) return { daemon: false, sessions: sessionStatuses(env.broker) };
  const s = provider();
  return {
    daemon: true,
    pid: s.pid,
    version: s.version,
    socket: s.socket,
    uptime_ms: since(s.started_at, now),
    idle_exit_ms: s.idle_exit_ms,
    server_idle_ms: s.server_idle_ms,
    memory_budget: s.memory_budget,
    rss_bytes: s.rss_bytes,
    clients: s.clients.map((c) => ({
      id: c.id,
      frontend: c.frontend,
      root: c.root,
      ...(c.pid !== undefined ? { pid: c.pid } : {}),
      attached_ms: since(c.attached_at, now),
      in_flight: c.running_requests,
    })),
    sessions: s.sessions,
  };
}
