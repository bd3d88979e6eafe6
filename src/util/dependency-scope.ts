/**
 * Which files and sessions one operation call's answer was built from, recorded while the call
 * runs: the runner runs each cacheable handler inside `recordDependencies`, and the places that
 * read a file or ask a session note it here. AsyncLocalStorage keeps each call's record its own
 * (two concurrent calls no longer see each other's files). A caller that joins work another call
 * started (a coalesced request) may miss a note; the operation cache then relies on the catalog
 * version and session stamps it also checks, which that shared work moves.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface FileStampSource {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The part of a session the operation cache stamps (CachedSession implements it). */
export interface StampedSession {
  readonly generation: number;
  readonly state: string;
  /** The response cache's stamp of this session's scope right now. */
  cacheStamp(): string;
}

export interface DependencySink {
  noteFile(absPath: string, st?: FileStampSource): void;
  noteSession(session: StampedSession): void;
}

const scope = new AsyncLocalStorage<DependencySink>();

export function recordDependencies<T>(sink: DependencySink, work: () => T): T {
  return scope.run(sink, work);
}

/** A file is being read for an answer (synced to a server, cataloged, read for lines). */
export function noteFileAccess(absPath: string, st?: FileStampSource): void {
  scope.getStore()?.noteFile(absPath, st);
}

/** A session is being asked or given a document for an answer. */
export function noteSessionUse(session: StampedSession): void {
  scope.getStore()?.noteSession(session);
}
