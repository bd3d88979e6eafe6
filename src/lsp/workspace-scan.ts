/**
 * Has the server found its project's files yet? Some servers answer at once but search only the
 * files they have met so far: pyright enumerates its include paths in its first analysis pass, a
 * timer its own file churn keeps postponing, and until that pass ends its call hierarchy and
 * references look at open files and what they import only (callers of a function asked right after
 * start: the one open test file's caller, none of the others). It logs `Found N source files` (or
 * `No source files found.`) as that pass ends, and its tracked files are set in the same turn. A
 * request whose answer spans files it has not opened waits for that line (servers.json
 * `workspaceScan.logPattern`); a server without the setting counts as scanned from the start.
 */

import { LspgateError } from '../errors/errors.js';

/** Requests whose answers span files the server has not opened. */
export const SCAN_BOUND_METHODS: ReadonlySet<string> = new Set([
  'textDocument/references',
  'textDocument/implementation',
  'textDocument/rename',
  'callHierarchy/incomingCalls',
  'workspace/symbol',
]);

export class WorkspaceScan {
  private scanned: boolean;
  private readonly pattern: RegExp | undefined;
  private waiters = new Set<(done: boolean) => void>();

  constructor(logPattern: string | undefined) {
    this.pattern = logPattern ? new RegExp(logPattern) : undefined;
    this.scanned = this.pattern === undefined;
  }

  get done(): boolean {
    return this.scanned;
  }

  /** True when `message` (a window/logMessage) is the line that ends the scan. */
  matches(message: string): boolean {
    return this.pattern?.test(message) ?? false;
  }

  /** Every window/logMessage of the generation goes through here. */
  log(message: string): void {
    if (this.scanned || !this.matches(message)) return;
    this.scanned = true;
    for (const w of this.waiters) w(true);
    this.waiters.clear();
  }

  /** Resolves true once scanned, false when `budgetMs` runs out, the signal aborts or the generation ends. */
  wait(budgetMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.scanned) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (done: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiters.delete(finish);
        resolve(done);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), Math.max(0, budgetMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(finish);
    });
  }

  /** The generation ended: nobody waits on it any longer. */
  dispose(): void {
    for (const w of [...this.waiters]) w(false);
    this.waiters.clear();
  }
}

/**
 * Before a request of `SCAN_BOUND_METHODS`: waits (within the request's own deadline) for the scan;
 * NOT_READY when it does not end in time — an answer over open files only would read as complete.
 */
export async function awaitScan(
  scan: WorkspaceScan,
  ctx: { serverId: string; method: string; deadline: number; signal?: AbortSignal | undefined },
): Promise<void> {
  if (scan.done || !SCAN_BOUND_METHODS.has(ctx.method)) return;
  const t0 = Date.now();
  if (await scan.wait(ctx.deadline - t0, ctx.signal)) return;
  if (ctx.signal?.aborted) throw new LspgateError('CANCELLED', `${ctx.method} cancelled`);
  throw new LspgateError(
    'NOT_READY',
    `${ctx.serverId} has not found its project's files yet (no log line matching its workspaceScan.logPattern within ${Date.now() - t0} ms): its ${ctx.method} answer would cover open files only; ask again shortly`,
    { server: ctx.serverId, method: ctx.method, waited_ms: Date.now() - t0 },
  );
}
