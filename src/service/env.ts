/**
 * What the service needs from the composition root, handed to it explicitly (the gateway builds
 * one per process): the servers, the broker that owns their sessions, the limits, the cache
 * directory and the logger. Operations pass it to every ServiceCall; nothing reaches it through
 * a workspace.
 */
import type { Broker } from '../broker/types.js';
import type { Limits, ServerEntry } from '../config/schema.js';
import type { CallMeta } from '../core/call-meta.js';
import type { DaemonStatusProvider } from '../core/daemon-status.js';
import type { Workspace } from '../core/workspace.js';
import type { Logger } from '../util/logger.js';
import type { Deadline } from './deadline.js';

export interface ServiceEnv {
  readonly servers: ServerEntry[];
  readonly broker: Broker;
  readonly limits: Limits;
  /** LSPGATE_CACHE_DIR, default ~/.cache/lspgate. */
  readonly cacheDir: string;
  readonly logger: Logger;
  /** Set by `lspgate daemon` at start (Gateway.provideDaemonStatus): the daemon_status operation's source. */
  daemonStatus?: DaemonStatusProvider;
  /** When servers start: after a build's syntax pass (default), or only at a semantic question (server-warmup.ts). */
  readonly serverStart?: 'after-syntax' | 'on-demand';
  /** Warnings every answer of this process carries in `_meta.warnings` (it runs its own servers because the daemon refused it). */
  readonly notices?: readonly string[];
  /** `--index` / LSPGATE_INDEX: the PostgreSQL index whose published entries each workspace takes first (catalog/published). */
  readonly index?: string;
}

/** One call's scope: the workspace it targets, the environment, its `_meta` and its signal. */
export interface CallScope {
  readonly workspace: Workspace;
  readonly env: ServiceEnv;
  readonly meta: CallMeta;
  readonly signal?: AbortSignal;
  /** How long the call may wait for a language server to start and load its project (wait_ms); unbounded when absent. */
  readonly waitMs?: number;
  /** A wide operation's deadline (`max_ms`), from the call's start. */
  readonly deadline?: Deadline;
}
