/**
 * A bound on one client's `lspgate/trace` stream (the REPL's `.trace` through the daemon): a busy
 * server's traffic must not flood the client or pile up in the daemon. At most `perSecond` lines
 * go out in each one-second window, and none while the client's socket holds more than
 * MAX_TRACE_BACKLOG_BYTES unsent (a client that does not read); the lines over it are dropped and
 * counted, and the count is sent once at the window's end (`{dropped, per_second}`), so the user
 * sees that lines are missing and how many.
 */
import { LspgateError } from '../errors/errors.js';

export const DEFAULT_TRACE_PER_SECOND = 200;
export const MAX_TRACE_BACKLOG_BYTES = 1024 * 1024;
const WINDOW_MS = 1000;

/** A positive (`min` 0: non-negative) integer daemon setting from the environment (`fallback` when unset or empty). */
export function positiveIntFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new LspgateError('INVALID_INPUT', `${name} must be a ${min > 0 ? 'positive' : 'non-negative'} integer, got ${raw}`);
  return n;
}

/** LSPGATE_DAEMON_TRACE_MAX (trace lines a second per client), read once by the daemon. */
export function traceLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return positiveIntFromEnv('LSPGATE_DAEMON_TRACE_MAX', DEFAULT_TRACE_PER_SECOND, env);
}

export class TraceLimiter {
  private windowStart = 0;
  private sent = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly perSecond: number,
    /** Bytes the client's socket has not sent yet. */
    private readonly backlog: () => number,
    private readonly sayDropped: (count: number) => void,
  ) {}

  /** True: send this line; false: it is dropped (counted, and said at the window's end). */
  admit(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.flush();
      this.windowStart = now;
      this.sent = 0;
    }
    if (this.sent < this.perSecond && this.backlog() <= MAX_TRACE_BACKLOG_BYTES) {
      this.sent++;
      return true;
    }
    this.dropped++;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, WINDOW_MS - (now - this.windowStart)));
      this.timer.unref();
    }
    return false;
  }

  /** Says the count dropped so far, if any. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dropped === 0) return;
    const n = this.dropped;
    this.dropped = 0;
    this.sayDropped(n);
  }

  /** Tracing ended or the client is gone: nothing more is said. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dropped = 0;
  }
}
