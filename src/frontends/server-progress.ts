/**
 * Progress for callers while language servers start and index, for any operation. During one call,
 * the state of every session (existing ones and those the call creates, from the broker's creation
 * event) is reported with a message naming the server, its state, how long it has been in it and
 * its open `$/progress` titles; a heartbeat repeats that message every HEARTBEAT_MS while any server
 * is starting or indexing (else says how long the call has been working), so a client never waits
 * in silence. The value only increases (MCP:
 * "The progress value MUST increase with each notification") and always comes with a `total`:
 * the operation's own when it reports one (index_folder counts files), else two steps per server
 * the call waited for (started, ready).
 */
import type { LspSession, SessionInfo, SessionState } from '../lsp/types.js';
import type { ProgressUpdate } from '../operations/types.js';
import type { WatchedBroker } from './host.js';
import { watchSessions } from './session-events.js';

/** Under the 2 s a client may wait between two messages while a server starts or indexes. */
export const HEARTBEAT_MS = 1500;
const REPORTED: ReadonlySet<SessionState> = new Set(['starting', 'indexing', 'ready', 'crashed', 'failed']);
const BUSY: ReadonlySet<SessionState> = new Set(['starting', 'indexing']);

export interface ProgressRelay {
  /** Pass this to gateway.run as `progress`. */
  progress: (p: ProgressUpdate) => void;
  /** Stop watching sessions (call when the operation settled). */
  dispose(): void;
}

interface Watched {
  state: SessionState;
  /** When the session entered `state`. */
  since: number;
  /** Busy spells waited for: a server that indexes again after ready, or restarts, adds one. */
  rounds: number;
}

/** Steps a server has done of its two: started (indexing or ready), ready (or given up). */
function stepsDone(state: SessionState): number {
  if (state === 'starting') return 0;
  return state === 'indexing' ? 1 : 2;
}

export function relayProgress(broker: WatchedBroker, emit: (p: ProgressUpdate) => void, opts: { heartbeatMs?: number } = {}): ProgressRelay {
  const servers = new Map<LspSession, Watched>();
  let last = 0;
  let opTotal: number | undefined;
  let opProgress = 0;

  // The value where the work stands, and what it is out of.
  const position = (): { value: number; total: number } => {
    if (opTotal !== undefined) return { value: opProgress, total: opTotal };
    const waited = [...servers.values()];
    const done = waited.reduce((n, w) => n + 2 * (w.rounds - 1) + stepsDone(w.state), 0);
    return {
      value: done,
      total: Math.max(
        1,
        waited.reduce((n, w) => n + 2 * w.rounds, 0),
      ),
    };
  };
  const send = (message: string | undefined) => {
    const { value, total } = position();
    // Between real steps, each message nudges the value up a little, staying below the next step.
    const next = Math.round((value > last ? value : last + (Math.floor(last) + 1 - last) / 10) * 1000) / 1000;
    // At the total already (an operation that reported its last unit): nothing can increase.
    if (next <= last || next > total) return;
    last = next;
    emit({ progress: last, total, ...(message ? { message } : {}) });
  };
  // Read live: a server's open $/progress titles change without a state change.
  const describeBusy = () =>
    [...servers]
      .filter(([, w]) => BUSY.has(w.state))
      .map(([s, w]) => describe(w.state, s.info(), Date.now() - w.since))
      .join('; ');

  const stopWatching = watchSessions(broker, (state, info, session) => {
    if (!REPORTED.has(state)) return;
    // A server already ready when the call began is not waited for: it counts only if it restarts.
    const seen = servers.get(session);
    if (!seen && !BUSY.has(state)) return;
    const again = seen !== undefined && BUSY.has(state) && !BUSY.has(seen.state);
    servers.set(session, { state, since: Date.now(), rounds: (seen?.rounds ?? 0) + (seen === undefined || again ? 1 : 0) });
    send(describe(state, info, 0));
  });
  // Servers another call already started are waited for too, from where they stand.
  for (const s of broker.existing()) {
    if (BUSY.has(s.state) && !servers.has(s)) servers.set(s, { state: s.state, since: Date.now(), rounds: 1 });
  }
  if (servers.size) send(describeBusy());
  const startedAt = Date.now();
  // After the servers are ready a call may still catalog files for a while: say so too.
  const timer = setInterval(() => {
    send(describeBusy() || `working for ${Math.round((Date.now() - startedAt) / 1000)} s`);
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  timer.unref();
  return {
    progress: (p) => {
      opProgress = p.progress;
      if (p.total !== undefined) opTotal = p.total;
      send(p.message);
    },
    dispose: () => {
      clearInterval(timer);
      stopWatching();
    },
  };
}

function describe(state: SessionState, info: SessionInfo, elapsedMs: number): string {
  const titles = info.progress.length ? ` (${info.progress.join('; ')})` : '';
  const elapsed = elapsedMs >= 1000 ? ` for ${Math.round(elapsedMs / 1000)} s` : '';
  const why = state === 'starting' && info.startReason ? ` (${info.startReason})` : '';
  return `${info.serverId}: ${state}${elapsed}${titles}${why}`;
}
