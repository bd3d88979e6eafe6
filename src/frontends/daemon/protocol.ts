/**
 * The daemon's own methods, beside every operation (the sidecar's JSON-RPC, over its socket).
 * A client sends `lspgate/attach` first; `lspgate/status` and `lspgate/stop` need no attach.
 */
import { z } from 'zod';

export const ATTACH = 'lspgate/attach';
export const STATUS = 'lspgate/status';
export const STOP = 'lspgate/stop';

export const AttachParams = z.object({
  /** The client's lspgate version: a daemon of another version refuses it (reason version_skew). */
  version: z.string(),
  /** The client's --root: its default workspace and allowed root, for this client only. */
  root: z.string().min(1),
  /** What the client is (mcp, mcp-http, sidecar, repl, cli), for status. */
  frontend: z.string().max(40),
  pid: z.number().int().optional(),
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
