/**
 * The one error type every layer throws. A caller can always act on `code`; `details` carries
 * what it needs to ask again (candidates, install hints, limits). Front-ends map it to their
 * transport: MCP `isError` results, JSON-RPC errors with `data.code`, CLI exit codes.
 */
import { LinkError } from '../link/paths.js';

export const ERROR_CODES = [
  'INVALID_INPUT',
  'PATH_OUTSIDE_WORKSPACE',
  'FILE_NOT_FOUND',
  'SECRET_FILE',
  'SYMBOL_NOT_FOUND',
  'AMBIGUOUS_SYMBOL',
  'UNSUPPORTED_LANGUAGE',
  'WORKSPACE_NOT_FOUND',
  'SERVER_NOT_INSTALLED',
  'SERVER_START_FAILED',
  'SERVER_CRASHED',
  'SERVER_FAILED',
  'NOT_READY',
  'TIMEOUT',
  'CANCELLED',
  'NOT_SUPPORTED',
  'CONTENT_MODIFIED',
  'LIMIT_EXCEEDED',
  'INDEX_MISMATCH',
  'INDEX_UNAVAILABLE',
  'UNKNOWN_OPERATION',
  'DAEMON_FAILED',
  'UNSAFE_DIRECTORY',
  'DISK_FULL',
  'READ_ONLY',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorPayload {
  error: string;
  code: ErrorCode;
  details?: Record<string, unknown>;
}

export class LspgateError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LspgateError';
    this.code = code;
    this.details = details;
  }

  toPayload(): ErrorPayload {
    return this.details === undefined ? { error: this.message, code: this.code } : { error: this.message, code: this.code, details: this.details };
  }
}

export function isLspgateError(e: unknown): e is LspgateError {
  return e instanceof LspgateError;
}

/** Wraps anything thrown into an LspgateError; unknown failures become INTERNAL with their message kept. */
export function toLspgateError(e: unknown): LspgateError {
  if (e instanceof LspgateError) return e;
  // src/link's errors (raised below this module) carry a code and details: keep both.
  if (e instanceof LinkError && isErrorCode(e.code)) return new LspgateError(e.code, e.message, e.details, { cause: e });
  const disk = diskError(e);
  if (disk) return disk;
  const message = e instanceof Error ? e.message : String(e);
  return new LspgateError('INTERNAL', message, undefined, { cause: e });
}

/**
 * A write the disk refused — full (ENOSPC, or over quota: EDQUOT) or mounted read-only (EROFS) —
 * as DISK_FULL / READ_ONLY, naming what was being written (`what`, else the path Node's error names).
 * Every writer of lspgate writes a temp file and renames it, so the file it replaces is intact: the
 * message says so. Undefined for any other error.
 */
export function diskError(e: unknown, what?: string, kept = 'nothing was lost: what was there is as it was'): LspgateError | undefined {
  const errno = sqliteErrno(e) ?? (e as NodeJS.ErrnoException | undefined)?.code;
  const code = errno === 'ENOSPC' || errno === 'EDQUOT' ? 'DISK_FULL' : errno === 'EROFS' ? 'READ_ONLY' : undefined;
  if (!code) return undefined;
  const file = (e as NodeJS.ErrnoException).path;
  const writing = what ?? (file ? `writing ${file}` : 'writing a file');
  const why = code === 'DISK_FULL' ? `the file system is full (${errno})` : 'the file system is mounted read-only (EROFS)';
  const fix = code === 'DISK_FULL' ? 'free some space and ask again' : 'remount it read-write (or write elsewhere) and ask again';
  return new LspgateError(
    code,
    `${writing} failed: ${why}${file && what ? ` at ${file}` : ''}; ${kept}; ${fix}`,
    { errno, ...(file ? { path: file } : {}) },
    { cause: e },
  );
}

/**
 * node:sqlite reports a refused write as ERR_SQLITE_ERROR with SQLite's result code: SQLITE_FULL (13)
 * is the file system's ENOSPC, SQLITE_READONLY (8, with its extended codes) its EROFS. A transaction
 * that fails so is rolled back: the database keeps its previous state.
 */
function sqliteErrno(e: unknown): string | undefined {
  const err = e as { code?: unknown; errcode?: unknown } | undefined;
  if (err?.code !== 'ERR_SQLITE_ERROR' || typeof err.errcode !== 'number') return undefined;
  const primary = err.errcode & 0xff;
  return primary === 13 ? 'ENOSPC' : primary === 8 ? 'EROFS' : undefined;
}

export function isErrorCode(v: string): v is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(v);
}
