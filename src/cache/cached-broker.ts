/**
 * The one-line wiring of the response cache: a Broker that hands out CachedSessions (one wrapper
 * per session, so identity comparisons keep working) over one shared ResponseCache.
 *
 *   const broker = withResponseCache(createBroker(...), new ResponseCache({ maxBytes: limits.cacheBytes }));
 */
import type { Broker, ServerRoute } from '../broker/types.js';
import type { LspSession, SessionInfo } from '../lsp/types.js';
import { CachedSession, type CachedSessionOptions } from './cached-session.js';
import type { ResponseCache } from './response-cache.js';

export class CachedBroker implements Broker {
  readonly stampsAnswers = true;
  private readonly wrappers = new WeakMap<LspSession, CachedSession>();

  constructor(
    readonly inner: Broker,
    readonly cache: ResponseCache,
    private readonly opts: CachedSessionOptions = {},
  ) {}

  private wrap(session: LspSession): LspSession {
    if (session instanceof CachedSession) return session;
    let w = this.wrappers.get(session);
    if (!w) this.wrappers.set(session, (w = new CachedSession(session, this.cache, this.opts)));
    return w;
  }

  route(absPath: string, workspaceRoot: string): ServerRoute | undefined {
    return this.inner.route(absPath, workspaceRoot);
  }
  async sessionFor(absPath: string, workspaceRoot: string): Promise<LspSession> {
    return this.wrap(await this.inner.sessionFor(absPath, workspaceRoot));
  }
  async session(serverId: string, root: string): Promise<LspSession> {
    return this.wrap(await this.inner.session(serverId, root));
  }
  existing(): LspSession[] {
    return this.inner.existing().map((s) => this.wrap(s));
  }
  onSessionCreated(listener: (session: LspSession) => void): () => void {
    return this.inner.onSessionCreated?.((s) => listener(this.wrap(s))) ?? (() => undefined);
  }
  info(): SessionInfo[] {
    return this.inner.info();
  }
  stop(): Promise<void> {
    return this.inner.stop();
  }
}

/** Idempotent: a broker that already caches is returned as is. */
export function withResponseCache(broker: Broker, cache: ResponseCache, opts?: CachedSessionOptions): Broker {
  return broker instanceof CachedBroker ? broker : new CachedBroker(broker, cache, opts);
}
