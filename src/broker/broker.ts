/**
 * Owns every server process of one gateway: sessions keyed by (server id, root), started lazily,
 * concurrent callers sharing one start (two servers for one root is a known bug of other
 * bridges), restart limits (in each session's RestartPolicy), idle shutdown, the
 * memory budget (limits.serverMemoryMb, memory-budget.ts), and a stop() that leaves no process behind.
 */
import { adapterFor } from '../adapters/index.js';
import { profileOf } from '../adapters/languages.js';
import type { Limits, ServerEntry } from '../config/schema.js';
import { LimitsSchema } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import { languageIdFor } from '../lsp/documents.js';
import type { ProtocolOptions } from '../lsp/generation.js';
import { Semaphore } from '../lsp/semaphore.js';
import { sweepServerTmp } from '../lsp/server-tmp.js';
import { createSession, type Session, type SessionOptions } from '../lsp/session.js';
import type { LspSession, SessionInfo } from '../lsp/types.js';
import { createLogger, type Logger } from '../util/logger.js';
import { evictedInfo, type Eviction, planEviction, serverMemoryBudgetMb, sessionRss } from './memory-budget.js';
import { entryFor, findRoot } from './route.js';
import type { Broker, ServerRoute } from './types.js';

export interface BrokerOptions {
  servers: ServerEntry[];
  cacheDir: string;
  logger?: Logger;
  limits?: Limits;
  /** Protocol safety limits for every session (tests use small ones). */
  protocol?: ProtocolOptions;
  /** Run servers under the parent-watching reaper (default true). */
  reaper?: boolean;
  /** How often the memory budget is checked, when there is one (default 5000 ms). */
  memoryCheckMs?: number;
  /**
   * Stop a session unused for this long, for entries whose timeouts.idleMs is 0 (0 or unset:
   * never). The daemon sets it: a root no client uses any more must not keep its servers.
   */
  sessionIdleMs?: number;
}

export function createBroker(opts: BrokerOptions): SessionBroker {
  return new SessionBroker(opts);
}

/** The entry's adapter's extra server environment for a root (a view over nested projects), if it has one. */
function launchEnvOf(entry: ServerEntry, cacheDir: string, logger: Logger): SessionOptions['launchEnv'] {
  const hook = adapterFor(entry.adapter).serverEnv;
  if (!hook) return undefined;
  return (root, env) => hook(root, { cacheDir, env, log: (message) => logger.info(`${entry.id}: ${message}`) });
}

/** The entry's adapter's reading of a failed answer about a file of `root`, if it has one. */
function explainErrorOf(entry: ServerEntry, root: string, cacheDir: string, logger: Logger): SessionOptions['explainError'] {
  const hook = adapterFor(entry.adapter).explainFailure;
  if (!hook) return undefined;
  return (lspMessage, absPath, env) => hook(lspMessage, absPath, { root, cacheDir, env, log: (message) => logger.info(`${entry.id}: ${message}`) });
}

function key(serverId: string, root: string): string {
  return `${serverId}\u0000${root}`;
}

export class SessionBroker implements Broker {
  private readonly sessions = new Map<string, Session>();
  private readonly logger: Logger;
  private readonly createdListeners = new Set<(session: LspSession) => void>();
  private readonly limits: Limits;
  private idleTimer: NodeJS.Timeout | undefined;
  private memoryTimer: NodeJS.Timeout | undefined;
  private readonly evicted = new Map<string, Eviction>();
  private readonly globalSlots: Semaphore;
  private stopped: Promise<void> | undefined;
  /** The memory budget in effect (MiB, 0: none) and where it comes from. */
  readonly memoryBudget: { mb: number; source: 'config' | 'machine' };

  constructor(private readonly opts: BrokerOptions) {
    this.logger = opts.logger ?? createLogger('lspgate:broker');
    this.limits = opts.limits ?? LimitsSchema.parse({});
    this.globalSlots = new Semaphore(this.limits.globalConcurrency, 10_000, 'lspgate (globalConcurrency)');
    this.memoryBudget = serverMemoryBudgetMb(this.limits.serverMemoryMb);
    const swept = sweepServerTmp(opts.cacheDir);
    if (swept) this.logger.debug(`removed ${swept} temp dir(s) of servers whose lspgate process is gone`);
    const idle = opts.servers.map((s) => this.idleMsOf(s)).filter((ms) => ms > 0);
    if (idle.length) {
      // checked often enough that a session stops within a quarter of its idle time past it
      this.idleTimer = setInterval(() => this.reapIdle(), Math.min(30_000, Math.max(250, Math.min(...idle) / 4)));
      this.idleTimer.unref();
    }
    if (this.memoryBudget.mb > 0) {
      this.memoryTimer = setInterval(() => this.enforceBudget(), opts.memoryCheckMs ?? 5000);
      this.memoryTimer.unref();
    }
  }

  /** How long a session of `entry` may stay unused (0: forever): its own idleMs, else the broker's. */
  private idleMsOf(entry: ServerEntry): number {
    return entry.timeouts.idleMs > 0 ? entry.timeouts.idleMs : (this.opts.sessionIdleMs ?? 0);
  }

  get servers(): ServerEntry[] {
    return this.opts.servers;
  }

  route(absPath: string, workspaceRoot: string): ServerRoute | undefined {
    const entry = entryFor(this.opts.servers, absPath);
    if (!entry) return undefined;
    return { entry, languageId: languageIdFor(entry, absPath), root: findRoot(entry, absPath, workspaceRoot) };
  }

  async sessionFor(absPath: string, workspaceRoot: string): Promise<LspSession> {
    const r = this.route(absPath, workspaceRoot);
    if (!r) {
      // a language lspgate parses (its syntax tier answers outlines and search) but runs no server for
      const profile = profileOf(absPath);
      if (profile) {
        const hint = profile.server ? ` A common server is ${profile.server.name}: ${profile.server.install}` : '';
        throw new LspgateError(
          'SERVER_NOT_INSTALLED',
          `no language server for ${profile.name} is configured, so ${absPath.split('/').pop()} has no semantic answers (outlines, search_symbols, get_symbol and search_code answer from syntax).${hint}`,
          {
            path: absPath,
            language: profile.name,
            ...(profile.server ? { server: profile.server.name, install: profile.server.install } : {}),
          },
        );
      }
      const exts = [...new Set(this.opts.servers.filter((s) => s.enabled).flatMap((s) => s.extensions))].sort();
      throw new LspgateError('UNSUPPORTED_LANGUAGE', `no enabled language server handles ${absPath.split('/').pop()}`, {
        path: absPath,
        supportedExtensions: exts,
      });
    }
    return this.session(r.entry.id, r.root);
  }

  session(serverId: string, root: string): Promise<LspSession> {
    if (this.stopped) return Promise.reject(new LspgateError('SERVER_FAILED', 'the broker is shut down'));
    const entry = this.opts.servers.find((s) => s.id === serverId);
    if (!entry) {
      return Promise.reject(new LspgateError('INVALID_INPUT', `unknown server ${serverId}`, { servers: this.opts.servers.map((s) => s.id) }));
    }
    if (!entry.enabled) return Promise.reject(new LspgateError('UNSUPPORTED_LANGUAGE', `server ${serverId} is disabled in servers.json`, { server: serverId }));
    const k = key(serverId, root);
    let s = this.sessions.get(k);
    if (s && (s.state === 'stopped' || s.state === 'stopping')) {
      this.sessions.delete(k);
      s = undefined;
    }
    if (!s) {
      const evicted = this.evicted.get(k);
      this.evicted.delete(k);
      s = createSession(entry, root, {
        cacheDir: this.opts.cacheDir,
        logger: this.logger,
        limits: this.limits,
        protocol: this.opts.protocol,
        reaper: this.opts.reaper,
        globalSlots: this.globalSlots,
        launchEnv: launchEnvOf(entry, this.opts.cacheDir, this.logger),
        explainError: explainErrorOf(entry, root, this.opts.cacheDir, this.logger),
      });
      if (evicted) {
        const ago = `${Math.round((Date.now() - evicted.at) / 1000)} s ago`;
        s.startReason = evicted.why === 'idle' ? `stopped ${ago} unused: starting it again` : `evicted ${ago} under the memory budget: starting it again`;
        this.logger.info(`${serverId} at ${root}: ${s.startReason}`);
      }
      this.sessions.set(k, s);
      for (const listener of this.createdListeners) listener(s);
    }
    const session = s;
    if (session.state === 'ready' || session.state === 'indexing') return Promise.resolve(session);
    // The session is found or created synchronously above, so concurrent callers hold the same
    // object, and Session.start() shares one start among them: one process per (server, root).
    // a server that just started is when memory grows: the budget is checked then, not only on the timer
    return session.start().then(() => {
      this.enforceBudget();
      return session;
    });
  }

  existing(): LspSession[] {
    return [...this.sessions.values()];
  }

  /** Every session, with the RSS of its process tree measured now, and the sessions evicted since. */
  info(): SessionInfo[] {
    const rss = sessionRss(this.sessions.values());
    const live = [...this.sessions.values()].map((s) => {
      const i = s.info();
      const bytes = rss.get(s);
      return bytes === undefined ? i : { ...i, rssBytes: bytes };
    });
    return [...live, ...[...this.evicted.values()].map(evictedInfo)];
  }

  onSessionCreated(listener: (session: LspSession) => void): () => void {
    this.createdListeners.add(listener);
    return () => this.createdListeners.delete(listener);
  }

  stop(): Promise<void> {
    if (!this.stopped) {
      if (this.idleTimer) clearInterval(this.idleTimer);
      if (this.memoryTimer) clearInterval(this.memoryTimer);
      this.stopped = Promise.all([...this.sessions.values()].map((s) => s.stop())).then(() => undefined);
    }
    return this.stopped;
  }

  /** Over the memory budget: idle sessions are stopped, least recently used first (memory-budget.ts). */
  enforceBudget(): void {
    if (this.stopped || this.memoryBudget.mb <= 0) return;
    const budget = this.memoryBudget.mb * 1024 * 1024;
    const { evict, totalBytes, rss } = planEviction([...this.sessions.values()], budget);
    for (const s of evict) {
      const k = key(s.serverId, s.root);
      const mb = (n: number) => Math.round(n / 1024 / 1024);
      this.logger.info(
        `servers use ${mb(totalBytes)} MiB, over the ${this.memoryBudget.mb} MiB budget: stopping ${s.serverId} at ${s.root} (${mb(rss.get(s)!)} MiB, least recently used)`,
      );
      this.sessions.delete(k);
      this.evicted.set(k, { serverId: s.serverId, root: s.root, rssBytes: rss.get(s)!, at: Date.now(), why: 'memory' });
      void s.stop();
    }
  }

  /** Stops sessions unused for their idle time (idleMsOf; 0 = never); the next request starts a new one. */
  private reapIdle(): void {
    const now = Date.now();
    for (const [k, s] of this.sessions) {
      const idleMs = this.idleMsOf(s.entry);
      if (idleMs <= 0 || now - s.lastUsed < idleMs || s.busy) continue;
      if (s.state !== 'ready' && s.state !== 'indexing' && s.state !== 'crashed') continue;
      this.logger.info(`${s.serverId} at ${s.root} unused for ${Math.round((now - s.lastUsed) / 1000)} s: stopping it`);
      this.sessions.delete(k);
      this.evicted.set(k, { serverId: s.serverId, root: s.root, at: now, why: 'idle' });
      void s.stop();
    }
  }
}
