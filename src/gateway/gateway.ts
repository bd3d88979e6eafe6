/**
 * The composition root: config, broker, workspaces (each with its catalog), the operation
 * runner. Front-ends create one Gateway and call `run`; nothing else.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { createBroker } from '../broker/broker.js';
import { serverNotifier } from '../broker/file-change-notifier.js';
import { withResponseCache } from '../cache/cached-broker.js';
import { ResponseCache } from '../cache/response-cache.js';
import { WorkspaceCatalog } from '../catalog/catalog.js';
import { publishedSource } from '../catalog/published/source.js';
import { isPostgresUrl, redactUrl } from '../catalog/published/url.js';
import { loadLimits, loadServers } from '../config/load.js';
import type { Limits } from '../config/schema.js';
import { ignoredWarning, trustedBy, userOnlyKeyWarnings, workspaceConfigFiles } from '../config/trust.js';
import type { DaemonStatusProvider } from '../core/daemon-status.js';
import type { Workspace } from '../core/workspace.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import { defaultCacheDir } from '../link/paths.js';
import { operations as allOperations } from '../operations/registry.js';
import { OperationRunner, type RunnerHost, type RunOptions, type RunResult } from '../operations/runner.js';
import { SavingsLedger } from '../operations/savings.js';
import type { Operation } from '../operations/types.js';
import { ServiceCataloger } from '../service/cataloging/cataloger.js';
import { recoverJournals } from '../service/editing/recovery.js';
import type { ServiceEnv } from '../service/env.js';
import { type ServerStart, serverStartSetting, warmServers } from '../service/workspace/server-warmup.js';
import { verifySample } from '../service/workspace/verification.js';
import { burstEnded, workEnded, workStarted } from '../util/idle-gc.js';
import { createLogger, type Logger } from '../util/logger.js';
import { resolveInWorkspace, toRelative } from '../util/paths.js';
import { privateCacheRoot } from '../util/private-files.js';
import { configuredAllowedRoots, RootPolicy } from './root-policy.js';

export interface GatewayOptions {
  /** The default workspace root (the front-end's --root). */
  root: string;
  /** Default: LSPGATE_CACHE_DIR, else ~/.cache/lspgate. */
  cacheDir?: string;
  logger?: Logger;
  /** Extra servers.json files merged after the shipped, user and workspace ones. */
  serversFiles?: string[];
  limits?: Partial<Limits>;
  /** Operations to serve (tests); default: the whole registry. */
  operations?: readonly Operation[];
  /** Folders index_folder / index_repo may open besides the root and clones (root-policy.ts); default from the user config and LSPGATE_ALLOWED_ROOTS. */
  allowedRoots?: string[];
  /** Stop a server session unused this long (entries without their own idleMs; default never; the daemon sets it). */
  sessionIdleMs?: number;
  /** Warnings every answer carries in `_meta.warnings` (why this process runs its own servers). */
  notices?: string[];
  /** A PostgreSQL URL (`--index`; default LSPGATE_INDEX): each workspace takes its repository's published entries first. */
  index?: string;
  /** When servers start if neither LSPGATE_SERVER_START nor a config.json says (serverStartSetting); default `after-syntax`. */
  serverStartDefault?: ServerStart;
}

/** LSPGATE_CACHE_DIR, else ~/.cache/lspgate (one copy: src/link/paths.ts, which the thin entry needs). */
export { defaultCacheDir };

/**
 * The cache holds source: private to this user from the start (util/private-files.ts). A cache
 * directory of another user, or one others can write in, is refused (UNSAFE_DIRECTORY): nothing of
 * lspgate runs on it.
 */
function privateCache(cacheDir: string, logger: Logger): void {
  let done: ReturnType<typeof privateCacheRoot>;
  try {
    done = privateCacheRoot(cacheDir);
  } catch (e) {
    const err = toLspgateError(e);
    if (err.code === 'UNSAFE_DIRECTORY') {
      logger.error(err.message);
      throw err;
    }
    logger.warn(`cache directory ${cacheDir}: ${err.message}`);
    return;
  }
  if (done === 'narrowed') logger.warn(`${cacheDir} was readable by other users: its mode is now 0700 (it holds source: catalogs, backups, clones)`);
}

/**
 * Applies a crash interrupted in this workspace are completed or rolled back before anything reads
 * its files (service/editing/recovery.ts); the log and the next answer say which.
 */
function recoverApplies(env: ServiceEnv, root: string): string[] {
  const log = env.logger.child('recovery');
  try {
    return recoverJournals(env.cacheDir, root).map((r) => {
      log.warn(r.message);
      return r.message;
    });
  } catch (e) {
    // journals/ of another user or writable by others: the workspace is not opened on it
    if (toLspgateError(e).code === 'UNSAFE_DIRECTORY') throw toLspgateError(e);
    const message = `recovery of an interrupted apply in ${root} failed: ${(e as Error).message}; run \`lspgate recover --root ${root}\``;
    log.error(message);
    return [message];
  }
}

/** A trusted root's own config is run as the user's: every answer says so. */
function trustedNotice(root: string, trust: string | undefined): string[] {
  if (trust === undefined) return [];
  const own = workspaceConfigFiles(root);
  if (!own.length) return [];
  return [`${own.join(' and ')} applied in full: ${root} is a trusted folder (trustedFolders: ${trust}; \`lspgate untrust ${trust}\` to undo)`];
}

export function workspaceId(root: string): string {
  return `${path.basename(root) || 'root'}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`;
}

/** What a gateway and the client views made from it share (the daemon: one of each for every client). */
interface Shared {
  open: Map<string, Workspace>;
  savings: SavingsLedger;
  /** Client views alive now; a workspace no view and not the owner holds is closed. */
  views: Set<Gateway>;
}

export class Gateway implements RunnerHost {
  readonly context: ServiceEnv;
  readonly runner: OperationRunner;
  readonly savings: SavingsLedger;
  readonly defaultRoot: string;
  private readonly open: Map<string, Workspace>;
  private closed = false;
  private readonly rootPolicy: RootPolicy;
  private readonly shared: Shared;
  /**
   * A client view (forClient) sees only the workspaces it opened itself: another client's root is
   * unreachable unless this client opened it too (and was allowed to). Undefined: the owner, sees all.
   */
  private readonly visible: Set<string> | undefined;

  private constructor(root: string, context: ServiceEnv, ops: readonly Operation[], allowedRoots: string[], shared?: Shared) {
    this.defaultRoot = root;
    this.rootPolicy = new RootPolicy(root, context.cacheDir, allowedRoots);
    this.context = context;
    this.shared = shared ?? { open: new Map(), savings: new SavingsLedger(context.cacheDir), views: new Set() };
    this.open = this.shared.open;
    this.savings = this.shared.savings;
    this.visible = shared ? new Set() : undefined;
    this.runner = new OperationRunner(ops, this);
  }

  /**
   * A gateway for one client of a shared gateway (the daemon): the same broker, sessions,
   * catalogs and savings, its own default root, allowed roots (`root` plus the configured ones)
   * and visible workspaces. close() on a view releases what it opened, never the servers.
   */
  forClient(root: string, allowedRoots: string[] = configuredAllowedRoots()): Gateway {
    if (this.visible) throw new Error('forClient on a client view');
    const view = new Gateway(realDirectory(root), this.context, this.runner.list(), allowedRoots, this.shared);
    this.shared.views.add(view);
    return view;
  }

  /** The daemon registers its status here at start; every client view shares the context, so daemon_status sees it. */
  provideDaemonStatus(provider: DaemonStatusProvider): void {
    this.context.daemonStatus = provider;
  }

  /** The client views alive now (the daemon's status). */
  clientViews(): Gateway[] {
    return [...this.shared.views];
  }

  static async create(opts: GatewayOptions): Promise<Gateway> {
    const root = realDirectory(opts.root);
    const logger = opts.logger ?? createLogger();
    const cacheDir = opts.cacheDir ?? defaultCacheDir();
    privateCache(cacheDir, logger);
    // Trust is decided once, now: the servers this gateway starts for its root run as configured then.
    const trust = trustedBy(root);
    const ignored: string[] = [];
    const servers = loadServers({ workspaceRoot: root, extraFiles: opts.serversFiles ?? [], logger, trusted: trust !== undefined, ignored });
    const limits = { ...loadLimits(root, process.env, { trusted: trust !== undefined, ignored }), ...opts.limits };
    const notices = [
      ...(opts.notices ?? []),
      ...ignored.map((setting) => ignoredWarning(setting, root)),
      ...userOnlyKeyWarnings(root),
      ...trustedNotice(root, trust),
    ];
    // Every session is handed out behind the response cache (byte-bounded, keyed by server
    // generation, document hash and workspace epoch; identical in-flight requests coalesced).
    const broker = withResponseCache(
      createBroker({ servers, cacheDir, logger: logger.child('broker'), limits, sessionIdleMs: opts.sessionIdleMs }),
      new ResponseCache({ maxBytes: limits.cacheBytes }),
    );
    const index = indexUrl(opts.index);
    const context: ServiceEnv = {
      servers,
      broker,
      limits,
      cacheDir,
      logger,
      serverStart: serverStartSetting(root, process.env, opts.serverStartDefault),
      ...(notices.length ? { notices } : {}),
      ...(index ? { index } : {}),
    };
    return new Gateway(root, context, opts.operations ?? allOperations, opts.allowedRoots ?? configuredAllowedRoots());
  }

  operations(): Operation[] {
    return this.runner.list();
  }

  run(name: string, input: unknown, opts?: RunOptions): Promise<RunResult> {
    if (this.closed) return Promise.reject(new LspgateError('SERVER_FAILED', 'the gateway is shut down'));
    // its garbage's pages go back to the system once nothing more is asked for a while (never during an answer)
    workStarted();
    return this.runner.run(name, input, opts).finally(() => workEnded(true));
  }

  async workspaceFor(idOrPath: string | undefined): Promise<Workspace> {
    if (idOrPath === undefined || idOrPath === '') return this.openWorkspace(this.defaultRoot);
    const mine = this.workspaces();
    for (const ws of mine) if (ws.id === idOrPath || ws.root === idOrPath) return ws;
    const abs = path.resolve(this.defaultRoot, idOrPath);
    for (const ws of mine) if (ws.root === abs) return ws;
    // The default root is open from the start in spirit: naming it (by path or id) opens it.
    if (abs === this.defaultRoot || idOrPath === workspaceId(this.defaultRoot)) return this.openWorkspace(this.defaultRoot);
    throw new LspgateError('WORKSPACE_NOT_FOUND', `no open workspace ${idOrPath}; open it with index_folder`, {
      workspaces: mine.map((w) => ({ id: w.id, root: w.root })),
    });
  }

  async openWorkspace(p: string): Promise<Workspace> {
    const root = realDirectory(path.resolve(this.defaultRoot, p));
    this.visible?.add(root);
    const existing = this.open.get(root);
    if (existing) return existing;
    const env = this.context;
    const id = workspaceId(root);
    const notices: string[] = [];
    const cataloger = new ServiceCataloger(env, root);
    const start = env.serverStart ?? 'after-syntax';
    const afterBuild = (files: ReadonlyMap<string, unknown>): void => {
      // the pass's garbage goes back at once, before the questions that come next (none being answered)
      burstEnded();
      warmServers(env, root, files.keys(), start);
      // the servers, once started, check a sample of the catalog while nobody asks them anything
      if (start === 'after-syntax')
        verifySample(catalog, cataloger, env.logger.child(`verify:${id}`)).catch((e: unknown) => env.logger.debug('verification stopped', e));
    };
    const catalog: WorkspaceCatalog = new WorkspaceCatalog({
      root,
      id,
      cacheDir: env.cacheDir,
      logger: env.logger,
      limits: env.limits,
      cataloger,
      notice: (m) => notices.push(m),
      afterBuild,
      ...(env.index ? { published: publishedSource(env.index, root, env.logger, (m) => notices.push(m)) } : {}),
    });
    // the servers learn of changes from the catalog's one feed, as every other listener does
    catalog.changes.subscribe(serverNotifier(env.broker, env.logger.child(`catalog:${id}`)));
    notices.push(...recoverApplies(env, root));
    const ws: Workspace = { root, id, catalog, notices };
    this.open.set(root, ws);
    return ws;
  }

  /**
   * The MCP resource subscriptions' way to a workspace's change feed: `onChange` after each change of
   * `file` (the catalog's name for it: its real path relative to the root). The catalog starts
   * watching if nothing does yet; the listener ends with the workspace.
   */
  async watchFile(workspace: string | undefined, file: string, onChange: () => void): Promise<() => void> {
    const ws = await this.workspaceFor(workspace);
    const rel = toRelative(ws.root, resolveInWorkspace(ws.root, file, { mustExist: false }));
    const off = ws.catalog.changes.subscribe((batch) => {
      if (batch.reset || batch.changes.some((c) => c.rel === rel)) onChange();
    });
    await ws.catalog.watch();
    return off;
  }

  assertAllowedRoot(realDir: string, asked: string): void {
    this.rootPolicy.check(realDir, asked);
  }

  workspaces(): Workspace[] {
    const all = [...this.open.values()];
    return this.visible ? all.filter((ws) => this.visible!.has(ws.root)) : all;
  }

  async closeWorkspace(idOrPath: string): Promise<boolean> {
    for (const ws of this.workspaces()) {
      if (ws.id === idOrPath || ws.root === idOrPath) {
        this.visible?.delete(ws.root);
        await this.release(ws.root);
        return true;
      }
    }
    return false;
  }

  /** Closes the shared workspace at `root` unless a client view still holds it. */
  private async release(root: string): Promise<void> {
    if (this.visible && [...this.shared.views].some((v) => v.visible!.has(root))) return;
    const ws = this.open.get(root);
    if (!ws) return;
    this.open.delete(root);
    await ws.catalog.close();
  }

  /**
   * Stops every server and flushes persisted state; idempotent. On a client view: forgets the
   * view; the servers and catalogs stay for the other and the next clients.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.visible) {
      // The catalogs stay open for the next client (the daemon: a one-shot CLI call finds them warm).
      this.shared.views.delete(this);
      this.visible.clear();
      return;
    }
    for (const ws of this.open.values()) await ws.catalog.close();
    this.savings.flush();
    await this.context.broker.stop();
  }
}

/** `--index`, else LSPGATE_INDEX: a postgres:// URL (said back with its password masked when it is not one). */
function indexUrl(flag: string | undefined): string | undefined {
  const url = (flag ?? process.env.LSPGATE_INDEX ?? '').trim();
  if (!url) return undefined;
  if (!isPostgresUrl(url)) throw new LspgateError('INVALID_INPUT', `--index takes a postgres:// or postgresql:// URL, got ${redactUrl(url).slice(0, 80)}`);
  return url;
}

function realDirectory(p: string): string {
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    throw new LspgateError('FILE_NOT_FOUND', `workspace root does not exist: ${p}`, { path: p });
  }
  if (!statSync(real).isDirectory()) throw new LspgateError('INVALID_INPUT', `workspace root is not a directory: ${p}`);
  return real;
}
