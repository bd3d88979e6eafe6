/**
 * The operation-level result cache: a whole validated answer of a read-only operation, stored with
 * the stamps that prove it is still what the operation would answer now:
 *   - every session it used: the same session object, the same generation (a restarted server is
 *     a new server), still ready, and the response cache's stamp of its scope unchanged (any file
 *     change synced or notified to that server, any invalidation or clear, moves the stamp);
 *   - the catalog change counter (any file re-cataloged or removed in any catalog);
 *   - (mtime, size, inode) of every file the operation touched, taken when it first touched it,
 *     so that an edit on disk that no watcher reported yet still makes the entry unusable.
 * A hit re-checks all three: a few comparisons and one stat per file.
 *
 * Which files and sessions an operation touched is recorded while it runs: CachedSession and the
 * catalog note each access to every recorder active at that moment. Operations that run
 * concurrently therefore see each other's files too; recording too much only costs a stat on a
 * hit, recording too little would serve stale answers, so the over-approximation is deliberate.
 */
import { statSync } from 'node:fs';
import { LRUCache } from 'lru-cache';

/** What a file looked like when an operation first touched it; ino -1 = it did not exist. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The part of a session the stamps need (CachedSession implements it). */
export interface StampedSession {
  readonly generation: number;
  readonly state: string;
  /** The response cache's stamp of this session's scope right now. */
  cacheStamp(): string;
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
export class DependencyRecorder {
  readonly files = new Map<string, FileStamp>();
  readonly sessions = new Map<StampedSession, SessionStamp>();
  /** The catalog change counter when the call began. */
  readonly catalogVersion = catalogChangeCount();

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

const active = new Set<DependencyRecorder>();

/** Starts recording for one call; the returned function stops it. */
export function startRecording(recorder: DependencyRecorder): () => void {
  active.add(recorder);
  return () => active.delete(recorder);
}

/** A file is being read for an answer (synced to a server, cataloged, read for lines). */
export function noteFileAccess(absPath: string, st?: { mtimeMs: number; size: number; ino: number }): void {
  if (active.size === 0) return;
  for (const r of active) r.noteFile(absPath, st);
}

/** A session is being asked or given a document for an answer. */
export function noteSessionUse(session: StampedSession): void {
  if (active.size === 0) return;
  for (const r of active) r.noteSession(session);
}

let catalogChanges = 0;

/** Every catalog calls this when a file's symbols are set or removed (symbol-index.ts). */
export function bumpCatalogChanges(): number {
  return ++catalogChanges;
}

/** Monotonic: how many catalog changes this process has seen. */
export function catalogChangeCount(): number {
  return catalogChanges;
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
    if (!recorder.sessionsUnchanged() || recorder.catalogVersion !== catalogChanges) return;
    this.lru.set(key, {
      ...result,
      sessions: [...recorder.sessions.values()],
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
  if (e.catalogVersion !== catalogChanges) return false;
  for (const s of e.sessions) if (!sessionFresh(s)) return false;
  for (const [file, was] of e.files) {
    const now = statStamp(file);
    if (now.ino !== was.ino || now.mtimeMs !== was.mtimeMs || now.size !== was.size) return false;
  }
  return true;
}
