/**
 * The daemon's own methods, beside every operation (the sidecar's JSON-RPC, over its socket).
 * A client sends `lspgate/attach` first; `lspgate/status` and `lspgate/stop` need no attach.
 * `lspgate/cli` answers `{stdout, stderr, exit_code}` of one one-shot call (one-shot.ts).
 */
import { z } from 'zod';

export const ATTACH = 'lspgate/attach';
export const STATUS = 'lspgate/status';
export const STOP = 'lspgate/stop';
/** One one-shot CLI call (after a plain attach): its words and directory in, what it prints out. */
export const CLI = 'lspgate/cli';

export const CliParams = z.object({
  argv: z.array(z.string().max(1_000_000)).min(1).max(10_000),
  cwd: z.string().min(1),
  /** The client prints progress (its stderr is a terminal): the daemon sends `$/progress` notifications ({token: 'cli', value}) while the call runs. */
  progress: z.boolean().optional(),
});

/** Variable (or file) name → a hash of its value. */
const HashedVariables = z.record(z.string().max(10_000), z.string().max(64)).refine((r) => Object.keys(r).length <= 10_000, 'too many variables');

export const AttachParams = z.object({
  /** The client's lspgate version: a daemon of another version refuses it (reason version_skew). */
  version: z.string(),
  /** The client's --root: its default workspace and allowed root, for this client only. */
  root: z.string().min(1),
  /** What the client is (mcp, mcp-http, sidecar, repl, cli), for status. */
  frontend: z.string().max(40),
  pid: z.number().int().optional(),
  /**
   * A thin client's front-end, hosted in the daemon: after the answer the socket is that
   * front-end's byte stream (MCP's newline-delimited JSON, or the sidecar's framed JSON-RPC).
   */
  relay: z.enum(['mcp', 'sidecar']).optional(),
  /** With relay mcp: the client's --tools (else the root's or the user's config decides). */
  tools: z.string().max(10_000).optional(),
  /**
   * The client's environment (src/link/config-env.ts): a daemon whose answers would differ under it
   * refuses (reason env_differs; src/daemon/env-check.ts). Absent: not checked (a program attaching
   * on its own).
   */
  environment: z
    .object({
      settings: HashedVariables,
      variables: HashedVariables,
      path: z.string().max(1_000_000),
      node: z.string().max(10_000),
      user_files: HashedVariables,
    })
    .optional(),
});
export type AttachParams = z.infer<typeof AttachParams>;

export interface AttachResult {
  version: string;
  pid: number;
  client_id: number;
}

export const StopParams = z.object({
  /** Stop only if no client is attached (a client restarting a daemon of another version). */
  if_idle: z.boolean().optional(),
});

export type { DaemonClientStatus, DaemonSessionStatus, DaemonStatus } from '../../core/daemon-status.js';
