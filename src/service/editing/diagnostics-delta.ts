/**
 * The diagnostics delta of an edit, before anything is written: every file of the delta (the edited
 * one, and those referencing a changed signature, a deleted symbol or a moved file) is diagnosed as
 * the server has it now ("before"), then the new texts are given to the server as unsaved versions
 * (didChange) and every file is diagnosed again ("after"), and the two lists are compared per file.
 *
 * "After" is always an answer the server computed for the state that holds the new text: pulled
 * (`textDocument/diagnostic`) or requested (tsserver) after the change, or for a push server a
 * publish for a version sent after the change: an unchanged referencing file is sent again as the
 * next version with the same text, and its publish for that version (or, for a server that publishes
 * without versions, one arriving after it) is awaited, as is its "before" (diagnostics-source.ts).
 * A file whose answer did not come within `limits.deltaFileMs` (or whose server failed) is
 * **unchecked**, named with its reason, never counted as checked: `diagnostics` is `checked` only
 * when every file was. Afterwards the server is told the disk text again, also when the check failed.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';

import { isLspgateError, LspgateError } from '../../errors/errors.js';
import type { LspSession } from '../../lsp/types.js';
import { toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { atLeast, type DiagnosticEntry, toDiagnosticEntry } from '../diagnostics/diagnostic-entries.js';
import { type DocumentDiagnostics, documentDiagnostics } from '../diagnostics/diagnostics-source.js';
import { askPhase } from './delta-phase.js';
import { type LineMap, lineMap } from './line-map.js';

/** A diagnostic of the delta, with the workspace-relative file it is in (a moved file's new path). */
export type DeltaEntry = DiagnosticEntry & { file: string };

/** A file of the delta whose diagnostics were not compared, and why. */
export interface Unchecked {
  file: string;
  reason: string;
}

export interface DiagnosticsDelta {
  /** `checked`: every file of the delta was diagnosed before and after; `partial`: some were; `not_checked`: none. */
  diagnostics: 'checked' | 'partial' | 'not_checked';
  /** Why not (wholly) checked, with the error code. */
  reason?: string;
  /** Errors and warnings the new text has and the disk text has not (positions in the new text). */
  introduced: DeltaEntry[];
  /** Errors and warnings of the disk text the new text no longer has (positions in the disk text). */
  removed: DeltaEntry[];
  /** Files of the delta not checked, each with its reason. */
  unchecked: Unchecked[];
  server?: string;
}

/** Codes of a server that cannot answer for a file: the file is unchecked, the edit is still answered. */
const NO_SERVER = new Set([
  'SERVER_NOT_INSTALLED',
  'SERVER_START_FAILED',
  'SERVER_CRASHED',
  'SERVER_FAILED',
  'UNSUPPORTED_LANGUAGE',
  'NOT_SUPPORTED',
  'NOT_READY',
  'TIMEOUT',
  'CANCELLED',
]);

export async function diagnosticsDelta(
  call: ServiceCall,
  abs: string,
  before: string,
  after: string,
  others: string[] = [],
  unchecked: Unchecked[] = [],
): Promise<DiagnosticsDelta> {
  const others_ = others.filter((o) => o !== abs).map((o) => ({ abs: o }));
  return filesDelta(call, abs, [{ abs, before, after }, ...others_], unchecked);
}

/**
 * One file of a multi-file delta: its disk text `before` (read when left out) and its new text
 * `after`, given to the server as unsaved (at `newAbs` for a moved file). A file neither changed
 * nor moved (a caller of an edited symbol) is diagnosed again as it is: with the others' new text.
 */
export interface DeltaFile {
  abs: string;
  before?: string;
  after?: string;
  /** A moved file: its new text is given under this path, which does not exist on disk. */
  newAbs?: string;
}

export interface Answer {
  entries: DeltaEntry[];
  text: string;
  mode: DocumentDiagnostics['mode'];
}

/**
 * The delta over several files of one server: each diagnosed as it is, then every new text given at
 * once (a file's new errors may come from another's change), each diagnosed again, then the server
 * told the disk state: changed files synced back, a moved file's new path closed. `known` are files
 * already known to be unchecked (past the referencing cap, references not searchable).
 */
export async function filesDelta(call: ServiceCall, sessionOf: string, files: DeltaFile[], known: Unchecked[] = []): Promise<DiagnosticsDelta> {
  const rel = (a: string) => toRelative(call.root, a);
  let session: LspSession;
  try {
    session = await call.session(sessionOf);
  } catch (e) {
    if (!unusable(e)) throw e;
    const reason = `${e.code}: ${e.message}`;
    return verdict([], [], [...files.map((f) => ({ file: rel(f.newAbs ?? f.abs), reason })), ...known], 0, reason);
  }
  const ask = asker(call, session);
  const failed = new Map<DeltaFile, string>();
  const guard = async <T>(f: DeltaFile, work: () => Promise<T>): Promise<T | undefined> => {
    if (failed.has(f)) return undefined;
    try {
      return await work();
    } catch (e) {
      if (!unusable(e) || call.signal?.aborted) throw e;
      failed.set(f, `${e.code}: ${e.message}`);
      return undefined;
    }
  };
  const changes = (f: DeltaFile) => f.after !== undefined || !!f.newAbs;
  const was = new Map<DeltaFile, Answer>();
  const is = new Map<DeltaFile, Answer>();
  const synced: DeltaFile[] = [];
  const openBefore = new Set(files.filter((f) => session.getDocument(f.abs)).map((f) => f.abs));
  const phase = (side: 'before' | 'after', into: Map<DeltaFile, Answer>) =>
    askPhase(call, session, files[0]!.abs, files, (f) => {
      const at = side === 'after' ? (f.newAbs ?? f.abs) : f.abs;
      const text = side === 'after' ? f.after : f.before;
      // an unchanged file's "before" is asked anew too: the answer for the server's state now
      return { at, text, work: () => guard(f, () => ask(at, text, !changes(f))), into };
    });
  try {
    await phase('before', was);
    for (const f of files) {
      if (!changes(f)) continue;
      synced.push(f);
      await session.syncDocument(f.newAbs ?? f.abs, f.after);
    }
    await phase('after', is);
  } finally {
    await backToDisk(call, session, files, synced, { was, is }, openBefore);
  }
  return { ...compare(files, was, is, failed, rel, known), server: session.serverId };
}

/**
 * After the delta, whatever happened in it: the server is told the disk state again (changed files
 * synced back, a moved file's new path closed), a push server gets a new version of each unchanged
 * file, and files a request/pull server had opened for the delta alone are closed.
 */
async function backToDisk(
  call: ServiceCall,
  session: LspSession,
  files: DeltaFile[],
  synced: DeltaFile[],
  answers: { was: Map<DeltaFile, Answer>; is: Map<DeltaFile, Answer> },
  openBefore: Set<string>,
): Promise<void> {
  const warn = (what: string, f: string) => (e: unknown) => call.meta.warn(`could not ${what} ${f} with ${session.serverId}: ${(e as Error).message}`);
  const unchanged = files.filter((f) => f.after === undefined && !f.newAbs);
  for (const f of synced.length ? synced : files.slice(0, 1)) {
    await (f.newAbs ? session.closeDocument(f.newAbs) : session.syncDocument(f.abs).then(() => undefined)).catch(warn('re-sync', f.abs));
  }
  // an unchanged file's last publish answered the new text: its next version is published for the
  // disk state, so a later get_diagnostics waits for that one instead of quoting the preview's
  // errors. A server answering on request or pull computes every answer when asked: no new
  // version for it (each one is a new program for tsserver, and a check of every open file).
  if ([...answers.was.values(), ...answers.is.values()].some((a) => a.mode === 'push')) {
    const answered = unchanged.filter((f) => answers.was.has(f) || answers.is.has(f));
    if (synced.length) for (const f of answered) await session.syncDocument(f.abs, undefined, { newVersion: true }).catch(warn('re-sync', f.abs));
    return;
  }
  // Referencing files opened for the delta alone are closed again where every answer was asked
  // (tsserver): typescript-language-server re-checks every open file after each change (geterr), and
  // a preview's files left open made the next operation wait behind a re-check of each (zod's
  // classic/schemas.ts: ~10 s at load 18) whose publishes nobody reads.
  for (const f of unchanged) if (!openBefore.has(f.abs) && session.getDocument(f.abs)) await session.closeDocument(f.abs).catch(warn('close', f.abs));
}

/** Asks one file's diagnostics within limits.deltaFileMs; past it TIMEOUT (the caller's own cancel stays CANCELLED). */
function asker(call: ServiceCall, session: LspSession): (abs: string, text: string | undefined, fresh: boolean) => Promise<Answer> {
  const rel = (a: string) => toRelative(call.root, a);
  const enc = session.positionEncoding;
  const entries = (list: Diagnostic[], text: string, file: string) =>
    list.map((d) => ({ file, ...toDiagnosticEntry(d, { root: call.root, text, encoding: enc }) })).filter((d) => atLeast(d.severity, 'warning'));
  const boundMs = call.env.limits.deltaFileMs;
  return async (abs, text, fresh) => {
    const timer = AbortSignal.timeout(boundMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timer]) : timer;
    // errors and warnings are compared, never hints: a request for hints alone is left out
    const opts = { maxFileBytes: call.env.limits.maxFileBytes, signal, fresh, problemsOnly: true, ...(text !== undefined ? { text } : {}) };
    try {
      const d = await documentDiagnostics(session, abs, opts);
      if (timer.aborted) throw timeout(session, rel(abs), boundMs);
      return { entries: entries(d.diagnostics, d.doc.text, rel(abs)), text: d.doc.text, mode: d.mode };
    } catch (e) {
      if (timer.aborted && !call.signal?.aborted) throw timeout(session, rel(abs), boundMs);
      throw e;
    }
  };
}

/** Per file: after − before and before − after; a file without both answers is unchecked. */
function compare(
  files: DeltaFile[],
  was: Map<DeltaFile, Answer>,
  is: Map<DeltaFile, Answer>,
  failed: Map<DeltaFile, string>,
  rel: (abs: string) => string,
  known: Unchecked[],
): DiagnosticsDelta {
  const introduced: DeltaEntry[] = [];
  const removed: DeltaEntry[] = [];
  const unchecked: Unchecked[] = [];
  for (const f of files) {
    const b = was.get(f);
    const a = is.get(f);
    if (!a || !b) {
      unchecked.push({ file: rel(f.newAbs ?? f.abs), reason: failed.get(f) ?? 'no answer' });
      continue;
    }
    const map = lineMap(b.text, a.text);
    introduced.push(...without(a.entries, b.entries, map, 'after'));
    removed.push(...without(b.entries, a.entries, map, 'before'));
  }
  return verdict(introduced, removed, [...unchecked, ...known], files.length - unchecked.length);
}

/** `checked` only when every file of the delta was; `not_checked` when none was. */
function verdict(introduced: DeltaEntry[], removed: DeltaEntry[], unchecked: Unchecked[], checkedFiles: number, reason?: string): DiagnosticsDelta {
  const diagnostics = unchecked.length === 0 ? 'checked' : checkedFiles === 0 ? 'not_checked' : 'partial';
  const out: DiagnosticsDelta = { diagnostics, introduced, removed, unchecked };
  const why =
    reason ?? (unchecked.length ? `${unchecked.length} file(s) of the delta unchecked (first: ${unchecked[0]!.file}: ${unchecked[0]!.reason})` : undefined);
  if (why) out.reason = why;
  return out;
}

function unusable(e: unknown): e is { code: string; message: string } {
  return isLspgateError(e) && NO_SERVER.has(e.code);
}

function timeout(session: LspSession, abs: string, ms: number): LspgateError {
  return new LspgateError('TIMEOUT', `${session.serverId} gave no diagnostics for ${abs} within ${ms} ms (limits.deltaFileMs)`, {
    server: session.serverId,
    timeoutMs: ms,
  });
}

/**
 * `a` minus `b` as multisets of (severity, code, message, position), where a position outside the
 * changed lines is mapped between the two texts (lines before the change stay, lines after it move by
 * the change's line shift) and a diagnostic inside the changed lines matches one inside them on the
 * other side by severity, code and message alone. So a pre-existing error elsewhere with the same
 * message cannot hide a new one, and a shifted pre-existing one is not new.
 */
function without(a: DeltaEntry[], b: DeltaEntry[], map: LineMap, side: 'before' | 'after'): DeltaEntry[] {
  const other = side === 'after' ? 'before' : 'after';
  const key = (d: DeltaEntry, from: 'before' | 'after') => {
    const at = map.toBefore(d.line, from);
    return `${d.severity}\0${d.code ?? ''}\0${d.message}\0${at === undefined ? 'changed' : `${at}:${d.column}`}`;
  };
  const left = new Map<string, number>();
  for (const d of b) left.set(key(d, other), (left.get(key(d, other)) ?? 0) + 1);
  const out: DeltaEntry[] = [];
  for (const d of a) {
    const k = key(d, side);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(d);
  }
  return out;
}

/**
 * Fail closed: an apply is refused while any file of its delta is unchecked, unless the caller
 * accepts that (`accept_unchecked`; `accept_errors` does not cover it). INVALID_INPUT with
 * `details.unchecked` ({file, reason} each).
 */
export function refuseUnchecked(operation: string, delta: DiagnosticsDelta, accepted: boolean | undefined): void {
  if (accepted || delta.unchecked.length === 0) return;
  const first = delta.unchecked[0]!;
  throw new LspgateError(
    'INVALID_INPUT',
    `${operation}: ${delta.unchecked.length} file(s) of the diagnostics delta are unchecked (first: ${first.file}: ${first.reason}); nothing was written: preview again, or apply with accept_unchecked: true`,
    { unchecked: delta.unchecked.slice(0, 100) },
  );
}
