/**
 * The one gate for files entering the catalog, and for the indexes that read workspace files beside
 * it (the chunk index's Markdown): the first walk, the watcher, `refresh`, the freshness checks and a
 * lookup by name all ask `admit`, and get the file — its real path and the bytes the decision was made
 * on — or the reason it stays out. The rules, in order:
 *   1. containment: lexically inside the root, then by real path — a symlink (the file itself or a
 *      directory above it) is followed only with `followSymlinks`, and never out of the root;
 *   2. the per-path rules of file-filter.ts: skipped directories, secret names, extensions,
 *      .gitignore, extra ignore patterns (every directory above the file as well);
 *   3. one bounded read: size, binary (a NUL byte in the first 8 KiB), the generated marker, a
 *      minified shape (the catalog's gate only), and a private-key block anywhere in the file,
 *      whatever it is called.
 * A file that appears after the first walk (a symlink made later pointing out of the root, a key
 * written into a source file) is judged exactly as the walk would have judged it.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

import { type ErrorCode, LspgateError } from '../errors/errors.js';
import { fileExtension, isInside, toRelative } from '../util/paths.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { FileFilter, type FilterOptions, hasNulByte, looksGenerated, looksMinified, type SkipReason } from './file-filter.js';

export interface GateOptions extends FilterOptions {
  maxFileBytes: number;
  followSymlinks?: boolean;
  /**
   * Leave minified files out (the catalog's gate): their declarations are mangled one-letter names an
   * outline or symbol search gains nothing from, and parsing one is the costliest work a single file
   * can ask. search_text's walk keeps them.
   */
  skipMinified?: boolean;
  /**
   * Whether a file without an extension enters, by its first bytes (a script's `#!` line); it is read
   * only that far to decide. Without it such a file is judged by `extensions` alone.
   */
  isScript?: (head: Buffer) => boolean;
}

/** How much of a file without an extension is read to find its interpreter (a `#!` line). */
const SCRIPT_HEAD_BYTES = 256;

/** The first bytes of a file (O_NOFOLLOW: the path's real file only); empty when unreadable. */
async function headOf(abs: string): Promise<Buffer> {
  let fh;
  try {
    fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    const buf = Buffer.alloc(SCRIPT_HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SCRIPT_HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } catch {
    return Buffer.alloc(0);
  } finally {
    await fh?.close();
  }
}

export type Admission =
  | { admitted: true; abs: string; rel: string; size: number; mtimeMs: number; bytes: Buffer }
  | { admitted: false; abs: string; rel: string; reason: SkipReason };

/** The walk admitted the file just now (its bytes were not kept: the cataloger reads them). */
export const WALKED: unique symbol = Symbol('admitted by the walk');

/** The gate's answer a caller already has. */
export type GateAnswer = Admission | typeof WALKED;

/** What a caller already knows of a path (the walk: a directory entry that is not a symlink, below entered directories). */
export interface KnownPath {
  /** The path is its own real path (no symlink in it). */
  real?: boolean;
  /** Every directory above it already passed the directory rules. */
  dirsChecked?: boolean;
}

/** The binary sniff window (git's test) and how far the generated marker may be. */
const SNIFF_BYTES = 8192;

export class FileGate {
  readonly filter: FileFilter;

  constructor(
    readonly root: string,
    private readonly opts: GateOptions,
    filter?: FileFilter,
  ) {
    this.filter = filter ?? new FileFilter(root, opts);
  }

  /** Whether the file at `abs` may enter, with its bytes when it may. */
  async admit(abs: string, known: KnownPath = {}): Promise<Admission> {
    const where = await this.place(abs, known);
    if (typeof where === 'string') return { admitted: false, abs, rel: this.relOf(abs), reason: where };
    const why = where.dirsChecked ? this.filter.file(where.rel) : this.filter.path(where.rel);
    if (why) return { admitted: false, abs: where.abs, rel: where.rel, reason: why };
    // no extension: a script by its first line, or out, before the whole file is read
    if (this.opts.isScript && fileExtension(where.rel) === '' && !this.opts.isScript(await headOf(where.abs))) {
      return { admitted: false, abs: where.abs, rel: where.rel, reason: 'unsupported_extension' };
    }
    return judgeBytesAt(this.root, where.abs, where.rel, this.opts.maxFileBytes, { minified: !this.opts.skipMinified });
  }

  /** The bytes of a file the gate only leaves out of the index (ignore rules, a generated file), read under its content rules. */
  readLeftOut(a: Admission & { admitted: false }): Promise<{ bytes: Buffer; size: number; mtimeMs: number }> {
    return readGated(this.root, a.abs, a.rel, this.opts.maxFileBytes);
  }

  /** Whether the walk (or the watcher) may enter the directory at `abs`: its real path, or why not. */
  async enterDirectory(abs: string, known: KnownPath = {}): Promise<{ abs: string; rel: string } | SkipReason> {
    const where = await this.place(abs, known);
    if (typeof where === 'string') return where;
    if (where.rel === '') return where;
    const why = where.dirsChecked ? this.filter.directory(where.rel) : this.filter.path(where.rel, true);
    return why ?? { abs: where.abs, rel: where.rel };
  }

  /** Containment by real path and the symlink rule; the path to judge (real) or why it stays out. */
  private async place(abs: string, known: KnownPath): Promise<{ abs: string; rel: string; dirsChecked: boolean } | SkipReason> {
    if (!isInside(this.root, abs)) return 'outside_root';
    if (known.real) return { abs, rel: this.relOf(abs), dirsChecked: !!known.dirsChecked };
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      return 'unreadable';
    }
    if (real === abs) return { abs, rel: this.relOf(abs), dirsChecked: !!known.dirsChecked };
    // A symlink is followed only when asked, and never out of the root (checked first when
    // following, so the skip says where it led).
    if (!this.opts.followSymlinks) return 'symlink';
    if (!isInside(this.root, real)) return 'symlink_outside_root';
    return { abs: real, rel: this.relOf(real), dirsChecked: false };
  }

  private relOf(abs: string): string {
    return toRelative(this.root, abs);
  }
}

/** Where an open descriptor really is (Linux): undefined where the system cannot say. */
async function openedAt(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** openedAt, synchronously (judgeBytesAtSync). */
function openedAtSync(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

type JudgeOpts = { generated?: boolean; minified?: boolean };

/** The content rules on what one open read (judgeBytesAt, judgeBytesAtSync): the same for both. */
function judgeBody(abs: string, rel: string, st: { size: number; mtimeMs: number }, body: Buffer, opts: JudgeOpts): Admission {
  const out = (reason: SkipReason): Admission => ({ admitted: false, abs, rel, reason });
  const head = body.subarray(0, SNIFF_BYTES);
  if (hasNulByte(head)) return out('binary');
  if (!opts.generated && looksGenerated(head)) return out('generated');
  if (opts.minified === false && looksMinified(body)) return out('minified');
  if (containsPrivateKey(body)) return out('private_key');
  return { admitted: true, abs, rel, size: st.size, mtimeMs: st.mtimeMs, bytes: body };
}

/**
 * The gate's content rules on the bytes of one open of `abs` (a real path inside `root`): no path
 * is followed again — O_NOFOLLOW (a file swapped for a symlink since its real path was taken is not
 * read), and where the system says where the descriptor is, it must still be `abs` (a directory
 * above swapped for a symlink since). Then size, binary, generated and private-key rules. Also what
 * a reader of a file the walk admitted earlier uses (the cataloger, the syntax workers): the bytes
 * they catalog pass the same rules, whatever happened to the path since.
 */
export async function judgeBytesAt(root: string, abs: string, rel: string, maxFileBytes: number, opts: JudgeOpts = {}): Promise<Admission> {
  const out = (reason: SkipReason): Admission => ({ admitted: false, abs, rel, reason });
  let fh;
  try {
    fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    return out((e as NodeJS.ErrnoException).code === 'ELOOP' ? 'symlink' : 'unreadable');
  }
  try {
    const at = await openedAt(fh.fd);
    if (at !== undefined && at !== abs) return out(isInside(root, at) ? 'symlink' : 'symlink_outside_root');
    const st = await fh.stat();
    if (!st.isFile()) return out('unreadable');
    if (st.size > maxFileBytes) return out('too_large');
    const bytes = Buffer.alloc(st.size);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await fh.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return judgeBody(abs, rel, st, got < bytes.length ? bytes.subarray(0, got) : bytes, opts);
  } catch {
    return out('unreadable');
  } finally {
    await fh.close();
  }
}

/**
 * judgeBytesAt with the same system calls made synchronously, for a worker thread that has nothing
 * else to do meanwhile (the syntax workers): five promise round trips through libuv's pool per file
 * cost more than the calls themselves.
 */
export function judgeBytesAtSync(root: string, abs: string, rel: string, maxFileBytes: number, opts: JudgeOpts = {}): Admission {
  const out = (reason: SkipReason): Admission => ({ admitted: false, abs, rel, reason });
  let fd;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    return out((e as NodeJS.ErrnoException).code === 'ELOOP' ? 'symlink' : 'unreadable');
  }
  try {
    const at = openedAtSync(fd);
    if (at !== undefined && at !== abs) return out(isInside(root, at) ? 'symlink' : 'symlink_outside_root');
    const st = fstatSync(fd);
    if (!st.isFile()) return out('unreadable');
    if (st.size > maxFileBytes) return out('too_large');
    const bytes = Buffer.alloc(st.size);
    let got = 0;
    while (got < bytes.length) {
      const bytesRead = readSync(fd, bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return judgeBody(abs, rel, st, got < bytes.length ? bytes.subarray(0, got) : bytes, opts);
  } catch {
    return out('unreadable');
  } finally {
    closeSync(fd);
  }
}

/** The gate's refusal of a file (not a failure to catalog it): the catalog drops the file. */
export class GateRefusal extends LspgateError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly reason: SkipReason,
    details: Record<string, unknown>,
  ) {
    super(code, message, { ...details, skipped: reason });
  }
}

/** Reasons that refuse a file whoever asks; the others (ignore rules, extensions...) only keep it out of the index. */
const REFUSALS: Partial<Record<SkipReason, [ErrorCode, (rel: string) => string]>> = {
  outside_root: ['PATH_OUTSIDE_WORKSPACE', (rel) => `path is outside the workspace: ${rel}`],
  symlink_outside_root: ['PATH_OUTSIDE_WORKSPACE', (rel) => `path resolves (through a symlink) outside the workspace: ${rel}`],
  secret: ['SECRET_FILE', (rel) => `refusing to read a secret file: ${rel}`],
  private_key: ['SECRET_FILE', (rel) => `refusing a file that holds a private key: ${path.basename(rel)}`],
  binary: ['INVALID_INPUT', (rel) => `${rel} is a binary file (it holds NUL bytes), not source text`],
  too_large: ['LIMIT_EXCEEDED', (rel) => `${rel} is over the maxFileBytes limit`],
  minified: [
    'LIMIT_EXCEEDED',
    (rel) => `${rel} is minified (most of its first 64 KiB on lines over 1,000 characters): it is not cataloged; search_text reads it`,
  ],
  unreadable: ['FILE_NOT_FOUND', (rel) => `cannot read ${rel}`],
};

/**
 * The bytes of a file the gate let through earlier (the walk admitted it, or a caller asked for a
 * file the walk leaves out), read again under the gate's content rules (judgeBytesAt; a generated
 * file is read): its coded refusal when the file became one the gate refuses, and CONTENT_MODIFIED
 * when the path now leads elsewhere inside the root.
 */
export async function readGated(root: string, abs: string, rel: string, maxFileBytes: number): Promise<{ bytes: Buffer; size: number; mtimeMs: number }> {
  return gated(await judgeBytesAt(root, abs, rel, maxFileBytes, { generated: true }), rel, maxFileBytes);
}

/** readGated, synchronously (judgeBytesAtSync): the same answer and the same errors. */
export function readGatedSync(root: string, abs: string, rel: string, maxFileBytes: number): { bytes: Buffer; size: number; mtimeMs: number } {
  return gated(judgeBytesAtSync(root, abs, rel, maxFileBytes, { generated: true }), rel, maxFileBytes);
}

function gated(a: Admission, rel: string, maxFileBytes: number): { bytes: Buffer; size: number; mtimeMs: number } {
  if (a.admitted) return { bytes: a.bytes, size: a.size, mtimeMs: a.mtimeMs };
  if (a.reason === 'too_large')
    throw new GateRefusal('LIMIT_EXCEEDED', `${rel} is over maxFileBytes ${maxFileBytes}`, a.reason, { limit: 'maxFileBytes', max: maxFileBytes, file: rel });
  throw (
    refusalOf(a) ??
    new GateRefusal('CONTENT_MODIFIED', `${rel} is no longer the file that was admitted (${a.reason}); it is left out until it is judged again`, a.reason, {
      path: rel,
    })
  );
}

/** The coded error for a file the gate refuses outright, or undefined when it is only left out of the index. */
export function refusalOf(a: Admission): GateRefusal | undefined {
  if (a.admitted) return undefined;
  const r = REFUSALS[a.reason];
  return r ? new GateRefusal(r[0], r[1](a.rel), a.reason, { path: a.rel }) : undefined;
}
