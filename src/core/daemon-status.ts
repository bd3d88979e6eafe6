/**
 * What `lspgate daemon status` (lspgate/status) and the daemon_status operation report: types
 * only, so the daemon (a front-end) can hand its status to operations through ServiceEnv.
 */

export interface DaemonClientStatus {
  id: number;
  frontend: string;
  pid?: number;
  root: string;
  attached_at: string;
  /** Calls in flight, those waiting for their turn at the fair scheduler included. */
  running_requests: number;
  /** Of those, the calls waiting for their turn. */
  queued_requests?: number;
}

export interface DaemonSessionStatus {
  server: string;
  root: string;
  state: string;
  pid?: number;
  /** RSS of the server's process tree (undefined where /proc cannot be read). */
  rss_bytes?: number;
  generation: number;
  crashes: number;
  open_documents: number;
  /** Why it is stopped or evicted (the broker stopped it: unused, over the memory budget). */
  note?: string;
}

export interface DaemonMemoryBudget {
  limit_bytes: number;
  /** `config`: limits.serverMemoryMb (config.json, LSPGATE_SERVER_MEMORY_MB); `machine`: half of its memory. */
  source: 'config' | 'machine';
  /** The RSS of every running server's process tree, summed. */
  servers_bytes: number;
}

export interface DaemonStatus {
  version: string;
  pid: number;
  socket: string;
  started_at: string;
  idle_exit_ms: number;
  /** A session unused this long stops with its server (0: never). */
  server_idle_ms: number;
  /** The budget for all servers' memory (0: none), where it comes from, and what they use now. */
  memory_budget: DaemonMemoryBudget;
  /** RSS of the daemon process alone. */
  rss_bytes: number;
  clients: DaemonClientStatus[];
  sessions: DaemonSessionStatus[];
  workspaces: { id: string; root: string; clients: number }[];
}

/** Registered on the ServiceEnv by the daemon at start; absent in a process that is no daemon. */
export type DaemonStatusProvider = () => DaemonStatus;
