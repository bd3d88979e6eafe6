/**
 * Progress for callers while a language server starts and indexes, for any operation: during one
 * call, state changes of every session (existing ones and those the call starts) are reported as
 * progress messages, merged with the operation's own progress so that the value only increases
 * (MCP: "The progress value MUST increase with each notification").
 */
import type { Broker } from '../broker/types.js';
import type { LspSession, SessionInfo, SessionState } from '../lsp/types.js';
import type { ProgressUpdate } from '../operations/types.js';

const REPORTED: ReadonlySet<SessionState> = new Set(['starting', 'indexing', 'ready', 'crashed', 'failed']);
/** Sessions created by the call are picked up at this interval (the broker has no creation event). */
const POLL_MS = 100;

export interface ProgressRelay {
  /** Pass this to gateway.run as `progress`. */
  progress: (p: ProgressUpdate) => void;
  /** Stop watching sessions (call when the operation settled). */
  dispose(): void;
}

export function relayProgress(broker: Broker, emit: (p: ProgressUpdate) => void): ProgressRelay {
  let last = 0;
  let total: number | undefined;
  const send = (p: ProgressUpdate) => {
    // The operation's own units pass through; interleaved server events nudge the value up a little.
    const value = p.progress > last ? p.progress : last + 0.01;
    last = value;
    if (p.total !== undefined) total = p.total;
    emit({ progress: Math.round(value * 100) / 100, ...(total !== undefined ? { total } : {}), ...(p.message ? { message: p.message } : {}) });
  };
  const unsubscribers = new Map<LspSession, () => void>();
  const watch = () => {
    for (const s of broker.existing()) {
      if (unsubscribers.has(s)) continue;
      unsubscribers.set(
        s,
        s.onStateChange((state, info) => {
          if (REPORTED.has(state)) send({ progress: last, message: describe(state, info) });
        }),
      );
    }
  };
  watch();
  const timer = setInterval(watch, POLL_MS);
  timer.unref();
  return {
    progress: (p) => send(p),
    dispose: () => {
      clearInterval(timer);
      for (const off of unsubscribers.values()) off();
      unsubscribers.clear();
    },
  };
}

function describe(state: SessionState, info: SessionInfo): string {
  const titles = info.progress.length ? ` (${info.progress.join('; ')})` : '';
  return `${info.serverId}: ${state}${titles}`;
}
