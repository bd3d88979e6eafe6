/**
 * How a front-end finds its gateway: `--daemon off` builds one in this process; `auto` (the
 * default) and `require` attach to the user's daemon, starting it detached when no daemon answers.
 * `auto` falls back to an in-process gateway when the daemon cannot serve this client (it was
 * started with extra --servers files or the root has its own .lspgate config, which are per
 * process; or the daemon cannot be reached); `require` answers DAEMON_FAILED instead. A daemon of
 * another version is stopped and started again when no other client is attached, else refused.
 * An attached client that loses its daemon (killed, crashed) dials again on its next call,
 * starting a daemon when none answers (RemoteGateway.reconnectWith).
 */
import { existsSync } from 'node:fs';
import type net from 'node:net';
import path from 'node:path';

import { LspgateError, toLspgateError } from '../../errors/errors.js';
import { defaultCacheDir } from '../../gateway/gateway.js';
import { attachEnvironment } from '../../link/config-env.js';
import { connect, previousStartFailure, startDaemon, waitForDaemon as lightWait, waitUntilGone } from '../../link/start.js';
import type { Logger } from '../../util/logger.js';
import { RemoteGateway } from './remote-gateway.js';
import { checkCacheDir, type DaemonPaths, daemonPaths, ensurePrivateDir } from './socket-dir.js';

async function waitForDaemon(paths: DaemonPaths, limitMs: number) {
  try {
    return await lightWait(paths, limitMs);
  } catch (e) {
    throw toLspgateError(e);
  }
}

export const DAEMON_MODES = ['auto', 'off', 'require'] as const;
export type DaemonMode = (typeof DAEMON_MODES)[number];

/** The --daemon flag, else LSPGATE_DAEMON, else auto. */
export function daemonMode(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): DaemonMode {
  const raw = flag ?? (env.LSPGATE_DAEMON || 'auto');
  if ((DAEMON_MODES as readonly string[]).includes(raw)) return raw as DaemonMode;
  throw new LspgateError('INVALID_INPUT', `--daemon (or LSPGATE_DAEMON) must be auto, off or require, got ${raw.slice(0, 40)}`);
}

export interface AttachOptions {
  mode: DaemonMode;
  root: string;
  /** Extra servers.json files: per process, so such a client runs in-process. */
  serversFiles: string[];
  frontend: string;
  logger: Logger;
  /** How long to wait for a daemon this client started (default 30 s). */
  startTimeoutMs?: number;
  /**
   * Told why, when `auto` runs in this process because the daemon would answer under another
   * environment: the in-process answers carry it in `_meta.warnings`.
   */
  onInProcess?: (warning: string) => void;
}

/** The remote gateway, or undefined when this client should build its own (off, or auto falling back). */
export async function attachToDaemon(opts: AttachOptions): Promise<RemoteGateway | undefined> {
  if (opts.mode === 'off') return undefined;
  const log = opts.logger.child('daemon-client');
  const why = perProcessConfig(opts);
  if (why) {
    if (opts.mode === 'require') throw new LspgateError('DAEMON_FAILED', `the daemon cannot serve this client: ${why}`, { reason: 'per_process_config' });
    log.info(`not using the daemon: ${why}`);
    return undefined;
  }
  const paths = daemonPaths(defaultCacheDir());
  try {
    const remote = await attachOrStart(opts, paths);
    return remote.reconnectWith(() => dial(paths, opts.startTimeoutMs ?? 30_000));
  } catch (e) {
    const err = toLspgateError(e);
    if (opts.mode === 'require' || err.details?.reason === 'version_skew' || err.details?.reason === 'socket_dir_unsafe' || err.code === 'UNSAFE_DIRECTORY')
      throw err;
    const differs = err.details?.reason === 'env_differs';
    log.warn(`${differs ? 'not using the lspgate daemon' : 'the lspgate daemon is not available'}, running in this process: ${err.message}`);
    if (differs) opts.onInProcess?.(`not using the shared lspgate daemon, this process runs its own language servers: ${err.message}`);
    return undefined;
  }
}

function perProcessConfig(opts: AttachOptions): string | undefined {
  if (opts.serversFiles.length) return '--servers files are read per process';
  for (const f of ['servers.json', 'config.json']) {
    if (existsSync(path.join(opts.root, '.lspgate', f))) return `${path.join(opts.root, '.lspgate', f)} is read per process`;
  }
  return undefined;
}

/** A socket to the daemon, started detached when none answers. */
async function dial(paths: DaemonPaths, startTimeoutMs: number): Promise<net.Socket> {
  // before the socket dir is made in it: another user's cache dir is never written
  checkCacheDir(defaultCacheDir());
  ensurePrivateDir(paths.dir);
  const socket = await connect(paths.socket);
  if (socket) return socket;
  const failed = previousStartFailure();
  if (failed) throw toLspgateError(failed);
  startDaemon(paths);
  return waitForDaemon(paths, startTimeoutMs);
}

async function attachOrStart(opts: AttachOptions, paths: DaemonPaths): Promise<RemoteGateway> {
  const socket = await dial(paths, opts.startTimeoutMs ?? 30_000);
  const remote = RemoteGateway.open(socket, opts.root, opts.logger, defaultCacheDir());
  remote.attachEnv = attachEnvironment();
  try {
    await remote.attach(opts.frontend);
    return remote;
  } catch (e) {
    await remote.close();
    const err = toLspgateError(e);
    if (err.details?.reason !== 'version_skew') throw err;
    return restartForSkew(opts, paths, err);
  }
}

/** Another version answers: restart it if nobody else uses it, else refuse with the versions named. */
async function restartForSkew(opts: AttachOptions, paths: DaemonPaths, skew: LspgateError): Promise<RemoteGateway> {
  if (Number(skew.details?.clients ?? 1) > 0) {
    throw new LspgateError(
      'DAEMON_FAILED',
      `${skew.message}, and ${String(skew.details?.clients)} client(s) still use it: stop them (or run \`lspgate daemon stop\`) to restart it, or use --daemon off`,
      skew.details,
    );
  }
  const socket = await connect(paths.socket);
  if (!socket) throw skew;
  const old = RemoteGateway.open(socket, opts.root, opts.logger, defaultCacheDir());
  const { stopping, clients } = await old.stop(true);
  await old.close();
  if (!stopping) throw new LspgateError('DAEMON_FAILED', `${skew.message}, and ${clients} client(s) attached meanwhile`, skew.details);
  opts.logger.info(`restarting the lspgate daemon: it was version ${String(skew.details?.daemon_version)}`);
  await waitUntilGone(paths.socket, opts.startTimeoutMs ?? 30_000);
  startDaemon(paths);
  const fresh = RemoteGateway.open(await waitForDaemon(paths, opts.startTimeoutMs ?? 30_000), opts.root, opts.logger, defaultCacheDir());
  fresh.attachEnv = attachEnvironment();
  await fresh.attach(opts.frontend);
  return fresh;
}

export { connect, startDaemon } from '../../link/start.js';
