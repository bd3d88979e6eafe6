/**
 * lspgate's cache holds source — backups of edited files, catalogs with docstrings and signatures,
 * clones, vectors, apply journals — so it is private to its user: directories 0700, files 0600,
 * each created with that mode (the mode given to mkdir/open; a umask can only take bits away), never
 * widened and chmod'ed afterwards, when another user could open it in between.
 */
import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync, chmodSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `dir` and every missing parent, each created 0700 (Node applies the mode to every directory a recursive mkdir makes). */
export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
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
 * with group or other bits — narrowed to 0700 (its contents are reachable only through it). A
 * directory of another user or a symlink is left alone (the caller's configuration, not lspgate's).
 * Answers what was done, for the log.
 */
export function privateCacheRoot(dir: string): 'created' | 'narrowed' | 'private' | 'left' {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) {
    mkdirPrivate(dir);
    return 'created';
  }
  if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return 'left';
  if ((st.mode & 0o077) === 0) return 'private';
  chmodSync(dir, PRIVATE_DIR_MODE);
  return 'narrowed';
}
