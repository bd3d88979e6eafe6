/**
 * Every language-server session's state changes, existing sessions and those created later, from
 * the broker's creation event (no polling): what MCP logging and start-up progress report.
 */
import type { LspSession, SessionInfo, SessionState } from '../lsp/types.js';
import type { WatchedBroker } from './host.js';

export type SessionStateListener = (state: SessionState, info: SessionInfo, session: LspSession) => void;

/** Calls `listener` on every state change of every session until the returned function is called. */
export function watchSessions(broker: WatchedBroker, listener: SessionStateListener): () => void {
  const offs = new Map<LspSession, () => void>();
  const follow = (s: LspSession) => {
    if (offs.has(s)) return;
    offs.set(
      s,
      s.onStateChange((state, info) => listener(state, info, s)),
    );
  };
  for (const s of broker.existing()) follow(s);
  const offCreated = broker.onSessionCreated?.(follow);
  return () => {
    offCreated?.();
    for (const off of offs.values()) off();
    offs.clear();
  };
}
