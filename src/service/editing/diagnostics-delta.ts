/**
 * The diagnostics delta of an edit, before anything is written: the file's server diagnoses the text
 * on disk, then the new text given to it as an unsaved version (didChange; pulled where the server
 * offers pull, else its own requests or the settled publish: diagnostics-source.ts), and the two
 * lists are compared. Afterwards the server is told the disk text again, also when the check
 * failed, so no later answer is computed on text that exists nowhere. A file whose language has no
 * server (or whose server cannot start) is `not_checked`, with the reason. An edit that can break
 * other files (a changed signature, a deletion, a moved file) names them: they are diagnosed before
 * and after too (filesDelta), and their entries name their file.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { isLspgateError } from '../../errors/errors.js';
import type { LspSession } from '../../lsp/types.js';
import { toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { atLeast, toDiagnosticEntry, type DiagnosticEntry } from '../diagnostics/diagnostic-entries.js';
import { documentDiagnostics } from '../diagnostics/diagnostics-source.js';

/** A diagnostic of the delta, with the workspace-relative file it is in (a moved file's new path). */
export type DeltaEntry = DiagnosticEntry & { file: string };

export interface DiagnosticsDelta {
  diagnostics: 'checked' | 'not_checked';
  /** Why not checked (no server for the language, the server failed), with the error code. */
  reason?: string;
  /** Errors and warnings the new text has and the disk text has not (positions in the new text). */
  introduced: DeltaEntry[];
  /** Errors and warnings of the disk text the new text no longer has (positions in the disk text). */
  removed: DeltaEntry[];
  server?: string;
}

/** Codes of a server that cannot be used for this file: the delta is not checked, the edit is still answered. */
const NO_SERVER = new Set([
  'SERVER_NOT_INSTALLED',
  'SERVER_START_FAILED',
  'SERVER_CRASHED',
  'SERVER_FAILED',
  'UNSUPPORTED_LANGUAGE',
  'NOT_SUPPORTED',
  'TIMEOUT',
]);

export async function diagnosticsDelta(call: ServiceCall, abs: string, before: string, after: string, others: string[] = []): Promise<DiagnosticsDelta> {
  const others_ = others.filter((o) => o !== abs).map((o) => ({ abs: o }));
  return filesDelta(call, abs, [{ abs, before, after }, ...others_]);
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

/**
 * The delta over several files of one server: each diagnosed as on disk, then every new text given
 * at once (a file's new errors may come from another's change), each diagnosed again, then the
 * server told the disk state: changed files synced back, a moved file's new path closed. Entries
 * name their file.
 */
export async function filesDelta(call: ServiceCall, sessionOf: string, files: DeltaFile[]): Promise<DiagnosticsDelta> {
  let session: LspSession;
  try {
    session = await call.session(sessionOf);
  } catch (e) {
    if (isLspgateError(e) && NO_SERVER.has(e.code)) return notChecked(`${e.code}: ${e.message}`);
    throw e;
  }
  const opts = { maxFileBytes: call.env.limits.maxFileBytes, ...(call.signal ? { signal: call.signal } : {}) };
  const enc = session.positionEncoding;
  const entries = (list: Diagnostic[], text: string, file: string) =>
    list.map((d) => ({ file, ...toDiagnosticEntry(d, { root: call.root, text, encoding: enc }) })).filter((d) => atLeast(d.severity, 'warning'));
  const rel = (a: string) => toRelative(call.root, a);
  const synced: DeltaFile[] = [];
  try {
    const was: DeltaEntry[] = [];
    for (const f of files) {
      const old = await documentDiagnostics(session, f.abs, { ...opts, ...(f.before !== undefined ? { text: f.before } : {}) });
      was.push(...entries(old.diagnostics, old.doc.text, rel(f.abs)));
    }
    for (const f of files) {
      if (f.after === undefined && !f.newAbs) continue;
      synced.push(f);
      await session.syncDocument(f.newAbs ?? f.abs, f.after);
    }
    const is: DeltaEntry[] = [];
    for (const f of files) {
      const where = f.newAbs ?? f.abs;
      const now = await documentDiagnostics(session, where, { ...opts, ...(f.after !== undefined ? { text: f.after } : {}) });
      is.push(...entries(now.diagnostics, now.doc.text, rel(where)));
    }
    // a moved file's diagnostics are matched across its two paths
    const moved = new Map(files.filter((f) => f.newAbs).map((f) => [rel(f.newAbs!), rel(f.abs)]));
    return {
      diagnostics: 'checked',
      server: session.serverId,
      introduced: without(is, was, moved),
      removed: without(was, is, new Map([...moved].map(([a, b]) => [b, a]))),
    };
  } catch (e) {
    if (isLspgateError(e) && NO_SERVER.has(e.code)) return { ...notChecked(`${e.code}: ${e.message}`), server: session.serverId };
    throw e;
  } finally {
    // the server is told the disk state again whatever happened above
    for (const f of synced.length ? synced : files.slice(0, 1)) {
      const back = f.newAbs ? session.closeDocument(f.newAbs) : session.syncDocument(f.abs).then(() => undefined);
      await back.catch((e: unknown) => call.meta.warn(`could not re-sync ${f.abs} with ${session.serverId}: ${(e as Error).message}`));
    }
  }
}

function notChecked(reason: string): DiagnosticsDelta {
  return { diagnostics: 'not_checked', reason, introduced: [], removed: [] };
}

/**
 * Diagnostics are matched by file, severity, code and message (positions move with any edit); `a`
 * minus `b` as multisets. `same` maps a file of `a` to its name in `b` (a moved file).
 */
function without(a: DeltaEntry[], b: DeltaEntry[], same: Map<string, string> = new Map()): DeltaEntry[] {
  const key = (d: DeltaEntry, map?: Map<string, string>) => `${map?.get(d.file) ?? d.file}\0${d.severity}\0${d.code ?? ''}\0${d.message}`;
  const left = new Map<string, number>();
  for (const d of b) left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  const out: DeltaEntry[] = [];
  for (const d of a) {
    const n = left.get(key(d, same)) ?? 0;
    if (n > 0) left.set(key(d, same), n - 1);
    else out.push(d);
  }
  return out;
}
