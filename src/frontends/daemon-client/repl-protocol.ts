/**
 * The daemon's methods for the REPL (repl-methods.ts), beside protocol.ts: raw LSP requests, LSP
 * traffic, sessions and completion names, each for the sessions of the asking client's workspaces.
 */
import { z } from 'zod';

import type { TraceEvent } from '../../lsp/types.js';

/** A traced LSP message as it crosses the daemon's socket: its payload clipped to a string. */
export interface WireTraceEvent extends Omit<TraceEvent, 'payload'> {
  payload?: string;
}

/** A raw LSP request → the server's raw reply: {result, server, root, ms} (RawAnswer). */
export const RAW = 'lspgate/raw';
/** Request {on}: → {on}. Notification daemon → client while on: TraceNotification, or TraceDropped (trace-limit.ts). */
export const TRACE = 'lspgate/trace';
/** → {servers, sessions} (ServersView): configured servers, sessions of this client's roots. */
export const SERVERS = 'lspgate/servers';
/** → string[]: catalog symbol names of the client's default workspace once built. */
export const SYMBOL_NAMES = 'lspgate/symbol_names';

export const RawParams = z.object({
  server: z.string().min(1).max(200),
  method: z.string().min(1).max(200),
  params: z.unknown().optional(),
  /** A workspace the client holds (id or path); default: its root. */
  workspace: z.string().min(1).max(4096).optional(),
});

export const TraceParams = z.object({ on: z.boolean() });

export interface TraceNotification {
  server: string;
  root: string;
  event: WireTraceEvent;
}

/** Lines of this client's trace the daemon dropped in the last second (over `per_second`, or the client fell behind). */
export interface TraceDropped {
  dropped: number;
  per_second: number;
}
