/**
 * The memory budget of one broker (limits.serverMemoryMb): the resident memory of every server's
 * process tree (its process group, /proc) is summed, and while the sum is over the budget, idle
 * sessions are shut down least recently used first. Never a session with requests running or
 * queued, and never the most recently used one (a single server over the budget would otherwise be
 * stopped and started again for every request). The broker remembers what it evicted, so
 * list_workspaces shows it and the next start says why it happens.
 */
import os from 'node:os';

import type { Session } from '../lsp/session.js';
import type { SessionInfo } from '../lsp/types.js';
import { groupRss } from '../util/process-memory.js';

/** A session the broker stopped by itself: over the memory budget, or unused for its idle time. */
export interface Eviction {
  serverId: string;
  root: string;
  rssBytes?: number;
  at: number;
  why: 'memory' | 'idle';
}

/**
 * The budget in MiB: the configured one (0: none), else half of the machine's memory — a daemon
 * that serves every root of a user must not grow until the machine swaps, and a budget only ever
 * stops idle sessions, never the one used last.
 */
export function serverMemoryBudgetMb(configured: number | undefined): { mb: number; source: 'config' | 'machine' } {
  if (configured !== undefined) return { mb: configured, source: 'config' };
  return { mb: Math.floor(os.totalmem() / 1024 / 1024 / 2), source: 'machine' };
}

const EVICTABLE = new Set(['ready', 'indexing', 'crashed']);

/** RSS (bytes) of each running session's process tree, measured now. */
export function sessionRss(sessions: Iterable<Session>): Map<Session, number> {
  const byGroup = new Map<number, Session>();
  for (const s of sessions) {
    const g = s.processGroup;
    if (g !== undefined) byGroup.set(g, s);
  }
  const out = new Map<Session, number>();
  for (const [g, bytes] of groupRss(byGroup.keys())) out.set(byGroup.get(g)!, bytes);
  return out;
}

/** The sessions to shut down (in order) to bring the total under `budgetBytes`, and the total measured. */
export function planEviction(sessions: Session[], budgetBytes: number): { evict: Session[]; totalBytes: number; rss: Map<Session, number> } {
  const rss = sessionRss(sessions);
  const totalBytes = [...rss.values()].reduce((a, b) => a + b, 0);
  const evict: Session[] = [];
  if (totalBytes <= budgetBytes) return { evict, totalBytes, rss };
  const newest = Math.max(...sessions.map((s) => s.lastUsed));
  const candidates = sessions.filter((s) => rss.has(s) && EVICTABLE.has(s.state) && !s.busy && s.lastUsed < newest).sort((a, b) => a.lastUsed - b.lastUsed);
  let total = totalBytes;
  for (const s of candidates) {
    if (total <= budgetBytes) break;
    evict.push(s);
    total -= rss.get(s)!;
  }
  return { evict, totalBytes, rss };
}

/** How a session the broker stopped shows in list_workspaces until it is started again. */
export function evictedInfo(e: Eviction): SessionInfo {
  const ago = `${Math.round((Date.now() - e.at) / 1000)} s ago`;
  const base = { serverId: e.serverId, root: e.root, generation: 0, crashes: 0, openDocuments: 0, progress: [] };
  if (e.why === 'idle') return { ...base, state: 'stopped', stopReason: `stopped ${ago}: unused for its idle time` };
  return { ...base, state: 'evicted', stopReason: `stopped ${ago}: over the memory budget`, ...(e.rssBytes !== undefined ? { rssBytes: e.rssBytes } : {}) };
}
