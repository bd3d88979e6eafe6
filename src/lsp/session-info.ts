/**
 * What a session shows of itself (`list_workspaces`, `.servers`, state-change events), and the
 * listeners of its state changes (a failing listener is logged, never breaks the session).
 */
import type { Logger } from '../util/logger.js';
import type { SessionInfo, SessionState } from './types.js';

export interface SessionFacts extends Omit<SessionInfo, 'pid' | 'lastError' | 'startedAt' | 'readyAt' | 'rssBytes' | 'startReason'> {
  pid: number | undefined;
  lastError: string | undefined;
  startedAt: string | undefined;
  readyAt: string | undefined;
  startReason?: string;
}

/** SessionInfo without the keys whose value is unknown (the JSON shape leaves them out). */
export function sessionInfo(f: SessionFacts): SessionInfo {
  const { pid, lastError, startedAt, readyAt, startReason, ...always } = f;
  const info: SessionInfo = always;
  if (pid !== undefined) info.pid = pid;
  if (lastError !== undefined) info.lastError = lastError;
  if (startedAt) info.startedAt = startedAt;
  if (readyAt) info.readyAt = readyAt;
  if (startReason) info.startReason = startReason;
  return info;
}

type StateListener = (s: SessionState, i: SessionInfo) => void;

export class StateListeners {
  private readonly listeners = new Set<StateListener>();

  constructor(private readonly logger: Logger) {}

  add(l: StateListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  emit(s: SessionState, info: SessionInfo): void {
    for (const l of [...this.listeners]) {
      try {
        l(s, info);
      } catch (e) {
        this.logger.warn(`state listener failed: ${(e as Error).message}`);
      }
    }
  }
}
