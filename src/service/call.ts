/**
 * One operation call's view of the service: the workspace, the `_meta` collector, the abort
 * signal, and the files loaded so far (each file is synced and asked for its symbols once per call).
 */
import path from 'node:path';

import { adapterFor } from '../adapters/index.js';
import type { FileContext, LanguageAdapter } from '../adapters/types.js';
import type { CallMeta } from '../core/call-meta.js';
import type { Workspace } from '../core/workspace.js';
import type { LspSession } from '../lsp/types.js';
import type { ParseBounds } from '../syntax/job-pool.js';
import { resolveInWorkspace, type ResolveOptions } from '../util/paths.js';
import { yieldToServers } from './cataloging/syntax-pool.js';
import type { Deadline } from './deadline.js';
import type { CallScope, ServiceEnv } from './env.js';
import { type FileContextSource, loadFileContext } from './file-context.js';
import { pinDocument } from './held-documents.js';
import { raisePriority } from './server-priority.js';
import { ServerWait } from './server-wait.js';

export class ServiceCall implements FileContextSource {
  private readonly files = new Map<string, Promise<FileContext>>();
  private readonly ready = new Map<LspSession, Promise<void>>();
  private readonly foundReady = new Set<LspSession>();
  readonly workspace: Workspace;
  readonly env: ServiceEnv;
  readonly meta: CallMeta;
  readonly signal?: AbortSignal;
  /** The caller's bound on waiting for servers (`wait_ms`), shared by every wait of this call. */
  readonly serverWait: ServerWait;
  /** A wide operation's deadline (`max_ms`): its walks answer with what they have by then. */
  readonly deadline?: Deadline;

  constructor(scope: CallScope, serverWait?: ServerWait) {
    this.workspace = scope.workspace;
    this.env = scope.env;
    this.meta = scope.meta;
    this.signal = scope.signal;
    if (scope.deadline) this.deadline = scope.deadline;
    this.serverWait = serverWait ?? new ServerWait(scope.waitMs);
  }

  /** Ends this call's hold on the syntax pass (yieldToServers), if it took one; at the latest when ServiceCall.run ends. */
  releasePass(): void {
    this.passHold?.();
    this.passHold = undefined;
  }

  private passHold: (() => void) | undefined;
  /** Only a call under ServiceCall.run holds the pass back: its end is what releases the hold. */
  private mayYield = false;

  private yieldPass(): void {
    if (this.mayYield) this.passHold ??= yieldToServers();
  }

  static from(scope: CallScope): ServiceCall {
    return new ServiceCall(scope);
  }

  /**
   * Runs one operation's service work. A server found ready may start indexing while it answers:
   * typescript-language-server counts as ready when its project-loading progress has not begun
   * within the readiness rule's quiet period, and under load that progress can begin seconds after
   * the file was opened — its answers until the end come from the syntax server (7 same-file
   * references instead of 98). Such an answer is never presented as complete: the work
   * is done once more after the server is ready again, or marked `indexing` when it is not.
   */
  static async run<T>(ctx: CallScope, work: (call: ServiceCall) => Promise<T>): Promise<T> {
    const first = ServiceCall.from(ctx);
    first.mayYield = true;
    // The second try shares the first one's bound on waiting: the caller's wait_ms is for the call.
    const calls = [first];
    try {
      return await ServiceCall.runOnce(ctx, first, work, () => {
        const next = new ServiceCall(ctx, first.serverWait);
        next.mayYield = true;
        calls.push(next);
        return work(next);
      });
    } finally {
      for (const c of calls) c.releasePass();
    }
  }

  private static async runOnce<T>(ctx: CallScope, first: ServiceCall, work: (call: ServiceCall) => Promise<T>, again: () => Promise<T>): Promise<T> {
    let out: T;
    try {
      out = await work(first);
    } catch (e) {
      // A partial answer can also surface as an error (nothing to prepare a call hierarchy at).
      const stale = first.sessionsNoLongerReady();
      if (stale.length === 0 || ctx.signal?.aborted) throw e;
      if ((await first.waitAgain(stale)).some((st) => st !== 'ready')) throw e;
      return again();
    }
    const stale = first.sessionsNoLongerReady();
    if (stale.length === 0) return out;
    const states = await first.waitAgain(stale);
    if (states.every((st) => st === 'ready')) {
      ctx.meta.warn(`${stale.map((s) => s.serverId).join(', ')} began indexing while answering: asked again once it was ready`);
      return again();
    }
    for (const s of stale) ctx.meta.addServer(s);
    ctx.meta.setIndexState('indexing');
    ctx.meta.warn(
      `${stale.map((s) => s.serverId).join(', ')} began indexing while answering: the answer may be incomplete; ask again when index_state is ready`,
    );
    return out;
  }

  /**
   * Waits for servers that began indexing while answering, within what is left of the caller's
   * bound: past it the answer is kept and marked `indexing` rather than withheld.
   */
  private waitAgain(stale: LspSession[]): Promise<('ready' | 'indexing')[]> {
    const left = this.serverWait.remaining();
    return Promise.all(stale.map((s) => (left === undefined ? s.waitReady() : s.waitReady(Math.min(left, s.entry.timeouts.readyMs)))));
  }

  /** Sessions this call found ready that are indexing now. */
  sessionsNoLongerReady(): LspSession[] {
    return [...this.foundReady].filter((s) => s.state === 'indexing' || s.state === 'starting');
  }

  get root(): string {
    return this.workspace.root;
  }

  get parseBounds(): ParseBounds {
    return this.env.limits;
  }

  warn(message: string): void {
    this.meta.warn(message);
  }

  /** A caller-supplied path → absolute real path inside the workspace (or a coded error). */
  resolvePath(input: string, opts?: ResolveOptions): string {
    return resolveInWorkspace(this.workspace.root, input, opts);
  }

  /**
   * The session serving a file, started, with the file synced, and waited for. A server still indexing after its
   * cold-start budget still answers, but the call is marked `indexing` with a warning: tsserver
   * answers from its syntax server before the project loads, so lists may be partial.
   */
  async session(absPath: string): Promise<LspSession> {
    const session = await this.env.broker.sessionFor(absPath, this.workspace.root);
    raisePriority(this.env, session);
    // The start, the sync and the readiness wait are bounded by the caller's wait_ms together; past
    // it NOT_READY, while all three go on in the background.
    // a server not ready yet: the syntax pass's workers give it the cores until the call ends (syntax-pool.ts)
    if (session.state !== 'ready') this.yieldPass();
    await this.serverWait.within(session, this.syncAndWait(session, absPath));
    this.meta.addServer(session);
    return session;
  }

  private async syncAndWait(session: LspSession, absPath: string): Promise<void> {
    // Open the file before waiting: typescript-language-server only starts loading a project once
    // one of its files is open, and answers from its syntax server until then.
    await session.syncDocument(absPath);
    let wait = this.ready.get(session);
    if (!wait) {
      wait = session.waitReady().then((state) => {
        if (state === 'ready') this.foundReady.add(session);
        if (state === 'indexing') {
          this.meta.setIndexState('indexing');
          this.meta.warn(`${session.serverId} is still indexing ${session.root}: the answer may be incomplete; ask again when index_state is ready`);
        }
      });
      this.ready.set(session, wait);
    }
    await wait;
  }

  /** The file as the server sees it, with its symbols; loaded once per call, and kept open (held-documents.ts). */
  file(absPath: string): Promise<FileContext> {
    let f = this.files.get(absPath);
    if (!f) {
      f = loadFileContext(this, absPath).then(keptOpen);
      this.files.set(absPath, f);
      f.catch(() => this.files.delete(absPath));
    }
    return f;
  }

  /** Another file an adapter needs (contained in the workspace like any caller path). */
  otherFile(absPath: string): Promise<FileContext> {
    return this.file(this.resolvePath(path.resolve(absPath), { expect: 'file' }));
  }

  adapter(file: FileContext): LanguageAdapter {
    return adapterFor(file.session.entry.adapter);
  }
}

/**
 * A question's file stays open: pinned, so that a bulk job that opened it beside the question (the
 * import graph) does not close it, and opened again if that job closed it before the pin.
 */
async function keptOpen(file: FileContext): Promise<FileContext> {
  pinDocument(file.session, file.absPath);
  if (!file.session.getDocument(file.absPath)) await file.session.syncDocument(file.absPath, file.text);
  return file;
}
