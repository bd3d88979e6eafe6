/**
 * Where the daemon listens: a Unix domain socket in a directory only this user can enter.
 * `$XDG_RUNTIME_DIR/lspgate` (a per-user tmpfs on systemd machines), else `<cacheDir>/daemon`.
 * The socket's name carries a hash of the cache directory: clients with different
 * LSPGATE_CACHE_DIR (tests, benchmarks) get different daemons. The directory is created 0700;
 * one that exists is used only if it is a real directory (no symlink) owned by this user with no
 * group or other permission bits: anyone who can enter it could connect and read this user's
 * code through the daemon.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { LspgateError } from '../../errors/errors.js';

export interface DaemonPaths {
  dir: string;
  socket: string;
  /** The detached daemon's stderr. */
  log: string;
}

export function daemonPaths(cacheDir: string, env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const dir = env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'lspgate') : path.join(cacheDir, 'daemon');
  const tag = createHash('sha256').update(path.resolve(cacheDir)).digest('hex').slice(0, 10);
  return { dir, socket: path.join(dir, `daemon-${tag}.sock`), log: path.join(dir, `daemon-${tag}.log`) };
}

/** Creates `dir` (0700) if absent; throws DAEMON_FAILED if it is not a private directory of this user. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new LspgateError('DAEMON_FAILED', `cannot create the daemon's socket directory ${dir}: ${(e as Error).message}`, { reason: 'socket_dir', dir });
    }
  }
  checkPrivateDir(dir);
}

export function checkPrivateDir(dir: string): void {
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  const problem = !st.isDirectory()
    ? 'is not a directory (or is a symlink)'
    : uid !== undefined && st.uid !== uid
      ? `is owned by uid ${st.uid}, not by this user (uid ${uid})`
      : (st.mode & 0o077) !== 0
        ? `is accessible to group or others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`
        : undefined;
  if (problem === undefined) return;
  throw new LspgateError(
    'DAEMON_FAILED',
    `refusing the daemon's socket directory ${dir}: it ${problem}; it must be a directory of this user with mode 0700 (chmod 700 it, or remove it and lspgate creates it)`,
    { reason: 'socket_dir_unsafe', dir, mode: (st.mode & 0o777).toString(8) },
  );
}
