/**
 * The caller's bound on waiting for language servers (`wait_ms`). A semantic question on a cold
 * workspace waits for its server to start and load the file's project: tens of seconds to minutes
 * for tsserver on thousands of files. Past the bound the call answers NOT_READY saying what is
 * loading, and the load goes on in the background (nothing is cancelled or restarted), so the same
 * question asked later answers. The bound covers only the wait for a server to be ready: a request
 * the server has begun answering keeps the server's own request timeout.
 */
import { LspgateError } from '../errors/errors.js';
import type { LspSession } from '../lsp/types.js';

/** Default bound of MCP and sidecar calls: an agent gets NOT_READY and can do other work meanwhile. */
export const DEFAULT_WAIT_MS = 20_000;
/** The largest bound a caller may set (ten minutes: beyond it, the request timeouts decide anyway). */
export const MAX_WAIT_MS = 600_000;

/**
 * One call's bound: it starts at the call's first wait for a server that is not ready, and every
 * later wait of the same call (another server, a second file) shares what is left of it.
 */
export class ServerWait {
  private deadline: number | undefined;
  private startedAt: number | undefined;

  constructor(readonly boundMs: number | undefined) {}

  /** Milliseconds left of the bound (starting it), or undefined when the call set none. */
  remaining(): number | undefined {
    if (this.boundMs === undefined) return undefined;
    if (this.deadline === undefined) {
      this.startedAt = Date.now();
      this.deadline = this.startedAt + this.boundMs;
    }
    return Math.max(0, this.deadline - Date.now());
  }

  /**
   * `ready` (the session started, the file synced, readiness waited for) within what is left of the
   * bound, else NOT_READY. A session already ready is never bounded: nothing is waited for.
   */
  async within<T>(session: LspSession, ready: Promise<T>): Promise<T> {
    if (session.state === 'ready') return ready;
    const left = this.remaining();
    if (left === undefined) return ready;
    // The wait that loses the race goes on: its failure (a crash) is the next call's answer.
    ready.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(notReadyError(session, this.boundMs!, Date.now() - this.startedAt!)), left);
    });
    try {
      return await Promise.race([ready, bound]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** NOT_READY naming the server, its state and open progress, how long it has loaded and been waited for. */
export function notReadyError(session: LspSession, boundMs: number, waitedMs: number): LspgateError {
  const info = session.info();
  const started = info.startedAt ? Date.parse(info.startedAt) : NaN;
  const loadingMs = Number.isFinite(started) ? Math.max(0, Date.now() - started) : undefined;
  const progress = info.progress.length ? ` (${info.progress.join('; ')})` : '';
  const loading = loadingMs !== undefined ? ` for ${Math.round(loadingMs / 100) / 10} s` : '';
  return new LspgateError(
    'NOT_READY',
    `${info.serverId} is still ${info.state === 'starting' ? 'starting' : 'loading the project'} at ${info.root}${loading}${progress}; ` +
      `waited ${waitedMs} ms (wait_ms ${boundMs}). It goes on loading in the background: ask again later (or with a larger wait_ms) for the answer`,
    {
      server: info.serverId,
      root: info.root,
      state: info.state,
      progress: info.progress,
      ...(loadingMs !== undefined ? { loading_ms: loadingMs } : {}),
      waited_ms: waitedMs,
      wait_ms: boundMs,
      retry: true,
    },
  );
}
