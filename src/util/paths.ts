/**
 * Every path a caller gives goes through resolveInWorkspace: decoded once, resolved against the
 * root, realpath'd (so symlinks are followed before the check), then tested for containment with
 * a separator-aware comparison (`/root-evil` is not inside `/root`).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { LspgateError } from '../errors/errors.js';
import { isSecretName } from './secret-files.js';
import { localPathOfFileUrl } from './uri.js';

/** A file-name suffix that is an extension: a letter, then letters, digits, `_`, `+` or `-` (`.py`, `.c++`, `.d-ts`). */
const EXTENSION = /^\.[a-z][\w+-]*$/i;

/**
 * The lower-case extension of a path's file name, with its dot; '' when it has none, and when what follows its
 * last dot is no extension but a piece of the name (`run 0.2`, `uses the 1.x version`, `it's "v1.0"`): such a
 * file is judged as one without an extension (a script by its `#!` line).
 */
export function fileExtension(p: string): string {
  const ext = path.extname(p);
  return EXTENSION.test(ext) ? ext.toLowerCase() : '';
}

/** True for files whose content lspgate never returns (.env*, keys, credentials). */
export function isSecretPath(p: string): boolean {
  return isSecretName(path.basename(p));
}

/** True when `child` is `parent` or below it; both must be absolute and normalized. */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const withSep = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(withSep);
}

/** Workspace-relative path with `/` separators. */
export function toRelative(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel.split(path.sep).join('/');
}

export interface ResolveOptions {
  /** Fail with FILE_NOT_FOUND unless the path exists (default true). */
  mustExist?: boolean;
  /** Refuse secret files with SECRET_FILE (default true). */
  refuseSecrets?: boolean;
  /** 'file' | 'directory' | 'any' (default 'any'). */
  expect?: 'file' | 'directory' | 'any';
}

/**
 * Resolves a caller-supplied path (relative to `root`, or absolute) to an absolute real path
 * inside `root`. `root` must itself be a real path. Throws INVALID_INPUT, PATH_OUTSIDE_WORKSPACE,
 * FILE_NOT_FOUND or SECRET_FILE.
 */
export function resolveInWorkspace(root: string, input: string, opts: ResolveOptions = {}): string {
  const { mustExist = true, refuseSecrets = true, expect = 'any' } = opts;
  if (typeof input !== 'string' || input.length === 0) {
    throw new LspgateError('INVALID_INPUT', 'path must be a non-empty string');
  }
  if (input.length > 4096) throw new LspgateError('INVALID_INPUT', 'path is longer than 4096 characters');
  if (input.includes('\0')) throw new LspgateError('INVALID_INPUT', 'path contains a NUL byte');
  let p = input;
  if (p.startsWith('file://')) {
    try {
      p = localPathOfFileUrl(p);
    } catch {
      throw new LspgateError('INVALID_INPUT', `not a valid file URI: ${input}`);
    }
  }
  // Windows-style separators and drive letters have no meaning here; refuse rather than guess.
  if (/^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\')) {
    throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `Windows-style absolute path is outside the workspace: ${input}`, { path: input });
  }
  p = p.replace(/\\/g, '/');
  const abs = path.resolve(root, p);
  // Lexical check first, so that a missing file outside the root is reported as outside.
  if (!isInside(root, abs)) {
    throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `path is outside the workspace: ${input}`, { path: input, root });
  }
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    if (mustExist) throw new LspgateError('FILE_NOT_FOUND', `no such file or directory: ${toRelative(root, abs)}`, { path: input });
    real = realpathOfNearestParent(abs);
  }
  if (!isInside(root, real)) {
    throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `path resolves (through a symlink) outside the workspace: ${input}`, {
      path: input,
    });
  }
  if (refuseSecrets && isSecretPath(real)) {
    throw new LspgateError('SECRET_FILE', `refusing to read a secret file: ${toRelative(root, real)}`, { path: toRelative(root, real) });
  }
  if (mustExist && expect !== 'any') {
    const st = statSync(real);
    if (expect === 'file' && !st.isFile()) throw new LspgateError('INVALID_INPUT', `not a file: ${toRelative(root, real)}`);
    if (expect === 'directory' && !st.isDirectory()) throw new LspgateError('INVALID_INPUT', `not a directory: ${toRelative(root, real)}`);
  }
  return real;
}

function realpathOfNearestParent(abs: string): string {
  let dir = path.dirname(abs);
  const rest = [path.basename(abs)];
  for (;;) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return abs;
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}
