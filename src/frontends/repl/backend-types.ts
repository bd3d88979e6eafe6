/**
 * What the REPL's `.raw`, `.trace`, `.servers` and symbol completion use, whichever gateway it has:
 * in-process (backend.ts, the servers of this process) or attached to the daemon (remote-backend.ts,
 * the daemon's `lspgate/raw`, `lspgate/trace`, `lspgate/servers`, `lspgate/symbol_names`).
 */
import type { RawAnswer, RawRequest, ServersView } from './lsp-access.js';

export interface ReplTrace {
  readonly enabled: boolean;
  on(): Promise<void>;
  off(): Promise<void>;
  /** After each command: attach to sessions that appeared meanwhile (in-process; a no-op attached). */
  sync(): void;
}

export interface ReplBackend {
  /** How `.exit` is described in `.help`. */
  readonly exitHelp: string;
  readonly trace: ReplTrace;
  raw(req: RawRequest): Promise<RawAnswer>;
  servers(): Promise<ServersView>;
  /**
   * Catalog symbol names and file paths of the default workspace once built, or with `stored` once a
   * finished build is stored (a warm start, whose build this starts); [] before.
   */
  symbolNames(opts?: { stored?: boolean }): Promise<string[]>;
}
