/**
 * The operation-level result cache: a whole validated answer of a read-only operation, stored with
 * the stamps that prove it is still what the operation would answer now:
 *   - every session it used: the same session object, the same generation (a restarted server is
 *     a new server), still ready, and the response cache's stamp of its scope unchanged (any file
 *     change synced or notified to that server, any invalidation or clear, moves the stamp);
 *   - the version of the workspace's catalog (any file of it re-cataloged or removed);
 *   - (mtime, size, inode) of every file the operation touched, taken when it first touched it,
 *     so that an edit on disk that no watcher reported yet still makes the entry unusable.
 * A hit re-checks all three: a few comparisons and one stat per file.
 *
 * Which files and sessions an operation touched is recorded while it runs: the runner runs the
 * handler inside util/dependency-scope's recordDependencies, and CachedSession and the catalog note
 * each access there.
 */
import { statSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import type { DependencySink, StampedSession } from '../util/dependency-scope.js';

/** What a file looked like when an operation first touched it; ino -1 = it did not exist. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The catalog whose version an answer depends on (a workspace's). */
export interface VersionedCatalog {
  readonly version: number;
}

interface SessionStamp {
  session: StampedSession;
  generation: number;
  stamp: string;
}

const ABSENT: FileStamp = { mtimeMs: 0, size: 0, ino: -1 };

function stampOf(st: { mtimeMs: number; size: number; ino: number } | undefined): FileStamp {
  return st ? { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino } : ABSENT;
}

function statStamp(absPath: string): FileStamp {
  try {
    return stampOf(statSync(absPath, { throwIfNoEntry: false }));
  } catch {
    return ABSENT;
  }
}

/** The sessions and files one operation call used, with their stamps at first use. */
export class DependencyRecorder implements DependencySink {
  readonly files = new Map<string, FileStamp>();
  readonly sessions = new Map<StampedSession, SessionStamp>();
  /** The catalog's version when the call began. */
  readonly catalogVersion: number;

  constructor(readonly catalog: VersionedCatalog) {
    this.catalogVersion = catalog.version;
  }

  noteFile(absPath: string, st?: { mtimeMs: number; size: number; ino: number }): void {
    if (this.files.has(absPath)) return;
    this.files.set(absPath, st ? stampOf(st) : statStamp(absPath));
  }

  noteSession(session: StampedSession): void {
    if (this.sessions.has(session)) return;
    this.sessions.set(session, { session, generation: session.generation, stamp: session.cacheStamp() });
  }

  /** Whether everything recorded is still as it was (sessions ready, nothing moved). */
  sessionsUnchanged(): boolean {
    for (const s of this.sessions.values()) if (!sessionFresh(s)) return false;
    return true;
  }
}

function sessionFresh(s: SessionStamp): boolean {
  return s.session.state === 'ready' && s.session.generation === s.generation && s.session.cacheStamp() === s.stamp;
}

export interface CachedResult {
  /** The validated result without `_meta`, as JSON (a fresh copy per hit; callers may mutate). */
  bodyJson: string;
  /** `_meta` fields that belong to the answer, not to the call. */
  meta: Record<string, unknown>;
  tokensSaved: number;
  /** The body pretty-printed (JSON.stringify(body, null, 2)), kept after the first json rendering. */
  bodyPretty?: string;
}

interface Entry extends CachedResult {
  sessions: SessionStamp[];
  catalog: VersionedCatalog;
  catalogVersion: number;
  files: [string, FileStamp][];
}

export interface OperationCacheStats {
  hits: number;
  misses: number;
  stale: number;
  stored: number;
  entries: number;
  bytes: number;
}

export class OperationCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly counters = { hits: 0, misses: 0, stale: 0, stored: 0 };

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, maxBytes),
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
      sizeCalculation: (v, k) => v.bodyJson.length * 2 + k.length * 2 + v.files.length * 120 + 200,
    });
  }

  /** The stored result if every stamp still holds; a stale entry is dropped. */
  get(key: string): CachedResult | undefined {
    const e = this.lru.get(key);
    if (!e) {
      this.counters.misses++;
      return undefined;
    }
    if (!fresh(e)) {
      this.lru.delete(key);
      this.counters.stale++;
      this.counters.misses++;
      return undefined;
    }
    this.counters.hits++;
    return e;
  }

  /**
   * Stores a result computed while `recorder` recorded. Nothing is stored when a session the
   * answer came from moved on while it was computed (not ready, restarted, a file change seen):
   * the answer may predate that change.
   */
  set(key: string, result: CachedResult, recorder: DependencyRecorder): void {
    if (!recorder.sessionsUnchanged() || recorder.catalogVersion !== recorder.catalog.version) return;
    this.lru.set(key, {
      ...result,
      sessions: [...recorder.sessions.values()],
      catalog: recorder.catalog,
      catalogVersion: recorder.catalogVersion,
      files: [...recorder.files],
    });
    if (this.lru.has(key)) this.counters.stored++;
  }

  clear(): void {
    this.lru.clear();
  }

  stats(): OperationCacheStats {
    return { ...this.counters, entries: this.lru.size, bytes: this.lru.calculatedSize ?? 0 };
  }
}

function fresh(e: Entry): boolean {
  if (e.catalogVersion !== e.catalog.version) return false;
  for (const s of e.sessions) if (!sessionFresh(s)) return false;
  for (const [file, was] of e.files) {
    const now = statStamp(file);
    if (now.ino !== was.ino || now.mtimeMs !== was.mtimeMs || now.size !== was.size) return false;
  }
  return true;
}
