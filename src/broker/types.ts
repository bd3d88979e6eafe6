import type { ServerEntry } from '../config/schema.js';
import type { LspSession, SessionInfo } from '../lsp/types.js';

export interface ServerRoute {
  entry: ServerEntry;
  languageId: string;
  /**
   * The workspace root (rootStrategy `workspace`, the default), or the nearest project root by the
   * entry's rootMarkers inside the workspace (`nearest-marker`), else the workspace root.
   */
  root: string;
}

/**
 * Owns every server process of one gateway. Sessions are keyed by (server id, root); concurrent
 * callers share one start; crashes restart with limits; stop() leaves no process behind.
 */
export interface Broker {
  /**
   * Which server serves this file (by extension) and at which root: `workspaceRoot` for entries
   * with rootStrategy `workspace`; for `nearest-marker`, the nearest directory with one of the
   * entry's rootMarkers, searched upward from the file but never above `workspaceRoot` (the fallback). Undefined when no enabled entry claims the extension.
   */
  route(absPath: string, workspaceRoot: string): ServerRoute | undefined;
  /**
   * The running session for this file, started on demand. Throws UNSUPPORTED_LANGUAGE,
   * SERVER_NOT_INSTALLED (details.install), SERVER_START_FAILED, SERVER_FAILED.
   */
  sessionFor(absPath: string, workspaceRoot: string): Promise<LspSession>;
  /** The session of one server at one root, started on demand. */
  session(serverId: string, root: string): Promise<LspSession>;
  /** Sessions that exist now (no start). */
  existing(): LspSession[];
  info(): SessionInfo[];
  /**
   * Called with every session object the broker creates, before it starts (so a listener sees its
   * `initialize`). Returns the unsubscribe function.
   */
  onSessionCreated?(listener: (session: LspSession) => void): () => void;
  /**
   * True when every session handed out stamps its answers (a response cache in front of the
   * servers): the operation cache can prove an answer fresh only then.
   */
  readonly stampsAnswers?: boolean;
  /** Stops every session; idempotent. */
  stop(): Promise<void>;
}
