/**
 * Logs go to stderr, always: stdout belongs to the protocol in MCP and sidecar modes.
 * Level from LSPGATE_LOG (error | warn | info | debug), default warn.
 */
const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  error(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  debug(msg: string, extra?: unknown): void;
  child(scope: string): Logger;
  readonly level: LogLevel;
}

function parseLevel(v: string | undefined): LogLevel {
  return v && v in LEVELS ? (v as LogLevel) : 'warn';
}

export interface LogLine {
  level: LogLevel;
  scope: string;
  msg: string;
  extra?: unknown;
}

/** Listeners that see every line at every level (an MCP client's `logging/setLevel` picks its own). */
const taps = new Set<(line: LogLine) => void>();

/** Receives every log line from now on, whatever LSPGATE_LOG says; returns the unsubscribe. */
export function tapLogs(listener: (line: LogLine) => void): () => void {
  taps.add(listener);
  return () => taps.delete(listener);
}

export function createLogger(scope = 'lspgate', level: LogLevel = parseLevel(process.env.LSPGATE_LOG)): Logger {
  const write = (lvl: LogLevel, msg: string, extra?: unknown) => {
    for (const tap of taps) tap({ level: lvl, scope, msg, extra });
    if (LEVELS[lvl] > LEVELS[level]) return;
    const tail = extra === undefined ? '' : ' ' + (extra instanceof Error ? (extra.stack ?? extra.message) : safeJson(extra));
    process.stderr.write(`[${new Date().toISOString()}] ${lvl} ${scope}: ${msg}${tail}\n`);
  };
  return {
    level,
    error: (m, e) => write('error', m, e),
    warn: (m, e) => write('warn', m, e),
    info: (m, e) => write('info', m, e),
    debug: (m, e) => write('debug', m, e),
    child: (s) => createLogger(`${scope}:${s}`, level),
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
