/**
 * MCP logging (`logging/setLevel`, `notifications/message`): lspgate's own log lines and the
 * language servers' lifecycle (starting, indexing, ready, crashed, failed, stopped) reach the
 * client, not only stderr. Until the client sets a level it gets `info` and above (lifecycle
 * events and warnings, not the debug trace).
 */
import type { LoggingLevel, McpServer } from '@modelcontextprotocol/server';

import type { SessionInfo, SessionState } from '../../lsp/types.js';
import { type LogLevel, type LogLine, tapLogs } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { watchSessions } from '../session-events.js';

/** RFC 5424 severities in the order MCP lists them. */
const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const DEFAULT_LEVEL: LoggingLevel = 'info';
const FROM_LSPGATE: Record<LogLevel, LoggingLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };
export const LIFECYCLE_LOGGER = 'lspgate:servers';

function lifecycleLevel(state: SessionState): LoggingLevel {
  if (state === 'crashed' || state === 'failed') return 'error';
  return state === 'stopping' || state === 'idle' ? 'debug' : 'info';
}

/**
 * Installs the setLevel handler and forwards log lines (unless `forwardLogs` is false) and session
 * state changes; returns the
 * disposer (call it when the connection closes). Call before `connect`.
 */
export function installLogging(server: McpServer, gateway: FrontendGateway, forwardLogs = true): () => void {
  let threshold = SEVERITY.indexOf(DEFAULT_LEVEL);
  server.server.registerCapabilities({ logging: {} });
  // Our own handler: the SDK's sends every level until a client sets one; we default to info.
  server.server.setRequestHandler('logging/setLevel', (req) => {
    threshold = SEVERITY.indexOf(req.params.level);
    return {};
  });
  let sending = false;
  const send = (level: LoggingLevel, logger: string, data: unknown) => {
    // A failed send logs through the same logger: never loop on our own lines.
    if (sending || SEVERITY.indexOf(level) < threshold || !server.isConnected()) return;
    sending = true;
    try {
      void server.sendLoggingMessage({ level, logger, data }).catch(() => undefined);
    } finally {
      sending = false;
    }
  };
  const offLogs = forwardLogs ? tapLogs((line: LogLine) => send(FROM_LSPGATE[line.level], line.scope, lineData(line))) : () => undefined;
  const offSessions = watchSessions(gateway.context.broker, (state, info) => send(lifecycleLevel(state), LIFECYCLE_LOGGER, lifecycleData(state, info)));
  return () => {
    offLogs();
    offSessions();
  };
}

function lineData(line: LogLine): unknown {
  if (line.extra === undefined) return line.msg;
  const extra = line.extra instanceof Error ? line.extra.message : line.extra;
  return { message: line.msg, extra };
}

function lifecycleData(state: SessionState, info: SessionInfo): Record<string, unknown> {
  return {
    // A crashed server's next start is its restart (the generation counts the processes).
    event: state === 'starting' && info.generation > 1 ? 'restarting' : state,
    server: info.serverId,
    root: info.root,
    generation: info.generation,
    ...(info.pid !== undefined ? { pid: info.pid } : {}),
    ...(info.crashes ? { crashes: info.crashes } : {}),
    ...(info.progress.length ? { progress: info.progress } : {}),
    ...(info.lastError && (state === 'crashed' || state === 'failed') ? { error: info.lastError } : {}),
  };
}
