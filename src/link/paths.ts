/**
 * What the `lspgate` entry needs before it knows whether to load the rest.
 * Only node: builtins and other src/link modules may be imported here (a dependency-cruiser
 * rule): a one-shot call through the daemon must not pay for loading the MCP SDK, zod or
 * vscode-jsonrpc. The heavy modules re-export these, so each exists once.
 *
 * Where things are: lspgate's package root and version, the cache directory, and the daemon's
 * socket directory (`$XDG_RUNTIME_DIR/lspgate`, else `<cacheDir>/daemon`) with its private-mode
 * check: anyone who can enter it could connect and read this user's code through the daemon.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** An error with an lspgate code, raised below src/errors (toLspgateError keeps code and details). */
export class LinkError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'LinkError';
  }
}

/** The directory holding lspgate's own package.json (works from src/ under vitest and from dist/). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'lspgate') return dir;
      } catch {
        // a broken package.json above us is not ours; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new LinkError('INTERNAL', 'cannot find the lspgate package root (package.json named lspgate)');
    dir = parent;
  }
}

let cachedVersion: string | undefined;

/** The package version, read once from lspgate's own package.json. */
export function packageVersion(): string {
  cachedVersion ??= (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

/** LSPGATE_CACHE_DIR, else $XDG_CACHE_HOME/lspgate, else ~/.cache/lspgate. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LSPGATE_CACHE_DIR || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'lspgate');
}

export interface DaemonPaths {
  dir: string;
  socket: string;
  /** The detached daemon's stderr. */
  log: string;
}

/** The socket's name carries a hash of the cache directory: clients with different LSPGATE_CACHE_DIR get different daemons. */
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
      throw new LinkError('DAEMON_FAILED', `cannot create the daemon's socket directory ${dir}: ${(e as Error).message}`, { reason: 'socket_dir', dir });
    }
  }
  checkPrivateDir(dir);
}

export function checkPrivateDir(dir: string): void {
  const st = lstatSync(dir);
  const problem = dirProblem(st, 0o077);
  if (problem === undefined) return;
  throw new LinkError(
    'DAEMON_FAILED',
    `refusing the daemon's socket directory ${dir}: it ${problem}; it must be a directory of this user with mode 0700 (chmod 700 it, or remove it and lspgate creates it)`,
    { reason: 'socket_dir_unsafe', dir, mode: (st.mode & 0o777).toString(8) },
  );
}

/** What makes a directory unfit to hold this user's private files: `bits` are the mode bits it must not have. */
function dirProblem(st: Stats, bits: number): string | undefined {
  const uid = process.getuid?.();
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
  return !st.isDirectory()
    ? 'is not a directory (or is a symlink)'
    : uid !== undefined && st.uid !== uid
      ? `is owned by uid ${st.uid}, not by this user (uid ${uid})`
      : (st.mode & bits) !== 0
        ? `is ${bits & 0o055 ? 'accessible to' : 'writable by'} group or others (mode ${mode})`
        : undefined;
}

/**
 * A directory of lspgate's cache (the cache itself, journals, backups, catalogs, clones, the
 * daemon's directory): it must be a real directory of this user that no one else can write. Another
 * user who owns it or can write in it could plant an apply journal that recovery would carry out
 * with this user's rights (replacing ~/.bashrc), or read the source kept there — so it is refused,
 * never used, and nothing is read or written in it. Absent: fine (the caller creates it 0700).
 * A directory of this user that others can only read is narrowed to 0700 by the caller.
 */
export function checkCacheDir(dir: string): void {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return;
  const problem = dirProblem(st, 0o022);
  if (problem === undefined) return;
  const fix =
    !st.isDirectory() || st.uid !== process.getuid?.()
      ? 'remove it (or point LSPGATE_CACHE_DIR elsewhere) and lspgate creates its own'
      : `check nothing in it is another user's, then chmod 700 it`;
  throw new LinkError(
    'UNSAFE_DIRECTORY',
    `refusing lspgate's cache directory ${dir}: it ${problem}; lspgate keeps source and apply journals there, so it must be a directory of this user that no one else can write — ${fix}`,
    {
      reason: 'cache_dir_unsafe',
      dir,
      mode: (st.mode & 0o777).toString(8),
      uid: st.uid,
    },
  );
}
