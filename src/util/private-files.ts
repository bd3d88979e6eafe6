/**
 * lspgate's cache holds source — backups of edited files, catalogs with docstrings and signatures,
 * clones, vectors, apply journals — so it is private to its user: directories 0700, files 0600,
 * each created with that mode (the mode given to mkdir/open; a umask can only take bits away), never
 * widened and chmod'ed afterwards, when another user could open it in between.
 */
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

import { checkCacheDir } from '../link/paths.js';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * `dir` and every missing parent, each created 0700 (Node applies the mode to every directory a
 * recursive mkdir makes). A `dir` that was already there must be this user's and writable by no one
 * else (a symlink, another user's directory: UNSAFE_DIRECTORY, src/link/paths.ts checkCacheDir);
 * one others could only read is narrowed to 0700.
 */
export function mkdirPrivate(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    throw (e as NodeJS.ErrnoException).code === 'ENOENT' ? firstMkdirError(dir, e) : e;
  }
  narrowPrivateDir(dir);
}

/**
 * A recursive mkdir on a read-only or full file system answers ENOENT (the missing parent), not why
 * the parent could not be made: the first missing ancestor is made alone, and its error (EROFS,
 * ENOSPC, EACCES) is the one thrown.
 */
function firstMkdirError(dir: string, fallback: unknown): unknown {
  let missing = dir;
  while (path.dirname(missing) !== missing && !lstatSync(path.dirname(missing), { throwIfNoEntry: false })) missing = path.dirname(missing);
  try {
    mkdirSync(missing, { mode: PRIVATE_DIR_MODE });
  } catch (e) {
    return e;
  }
  return fallback;
}

/** Refuses an unsafe directory (see mkdirPrivate); narrows this user's readable one; answers whether it narrowed. */
function narrowPrivateDir(dir: string): boolean {
  checkCacheDir(dir);
  if ((lstatSync(dir).mode & 0o077) === 0) return false;
  chmodSync(dir, PRIVATE_DIR_MODE);
  return true;
}

/** A new file, 0600 from its creation (a file left at that path by a crashed writer is replaced). */
export function createPrivateFile(file: string): number {
  rmSync(file, { force: true });
  return openSync(file, 'wx', PRIVATE_FILE_MODE);
}

/**
 * Writes `file` whole: a private temp file beside it (written by `write`, fsynced when asked), then
 * renamed over it — so the file is 0600 even when an older one had other bits, and never half-written.
 */
export function writePrivateFileAtomically(file: string, write: (fd: number) => void, opts: { fsync?: boolean } = {}): void {
  mkdirPrivate(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = createPrivateFile(tmp);
  try {
    write(fd);
    if (opts.fsync) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
}

/** Text or bytes as a private file, written atomically. */
export function writePrivateFile(file: string, data: string | Buffer, opts: { fsync?: boolean } = {}): void {
  writePrivateFileAtomically(file, (fd) => void writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data), opts);
}

/**
 * The cache directory itself, made private: created 0700, or — when an earlier lspgate created it
 * with group or other read bits — narrowed to 0700 (its contents are reachable only through it).
 * A symlink, another user's directory, or one others can write in is refused with UNSAFE_DIRECTORY
 * and never used: its owner (or any writer) could have planted what lspgate would trust there.
 * Answers what was done, for the log.
 */
export function privateCacheRoot(dir: string): 'created' | 'narrowed' | 'private' {
  checkCacheDir(dir);
  if (!lstatSync(dir, { throwIfNoEntry: false })) {
    mkdirPrivate(dir);
    return 'created';
  }
  return narrowPrivateDir(dir) ? 'narrowed' : 'private';
}
