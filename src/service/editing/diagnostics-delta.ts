/**
 * The diagnostics delta of an edit, before anything is written: the file's server diagnoses the text
 * on disk, then the new text given to it as an unsaved version (didChange; pulled where the server
 * offers pull, else its own requests or the settled publish: diagnostics-source.ts), and the two
 * lists are compared. Afterwards the server is told the disk text again, also when the check
 * failed, so no later answer is computed on text that exists nowhere. A file whose language has no
 * server (or whose server cannot start) is `not_checked`, with the reason.
 */
import { isLspgateError } from '../../errors/errors.js';
import type { LspSession } from '../../lsp/types.js';
import type { ServiceCall } from '../call.js';
import { atLeast, toDiagnosticEntry, type DiagnosticEntry } from '../diagnostics/diagnostic-entries.js';
import { documentDiagnostics } from '../diagnostics/diagnostics-source.js';

export interface DiagnosticsDelta {
  diagnostics: 'checked' | 'not_checked';
  /** Why not checked (no server for the language, the server failed), with the error code. */
  reason?: string;
  /** Errors and warnings the new text has and the disk text has not (positions in the new text). */
  introduced: DiagnosticEntry[];
  /** Errors and warnings of the disk text the new text no longer has (positions in the disk text). */
  removed: DiagnosticEntry[];
  server?: string;
}

/** Codes of a server that cannot be used for this file: the delta is not checked, the edit is still answered. */
const NO_SERVER = new Set(['SERVER_NOT_INSTALLED', 'SERVER_START_FAILED', 'SERVER_CRASHED', 'SERVER_FAILED', 'UNSUPPORTED_LANGUAGE', 'NOT_SUPPORTED', 'TIMEOUT']);

export async function diagnosticsDelta(call: ServiceCall, abs: string, before: string, after: string): Promise<DiagnosticsDelta> {
  let session: LspSession;
  try {
    session = await call.session(abs);
  } catch (e) {
    if (isLspgateError(e) && NO_SERVER.has(e.code)) return notChecked(`${e.code}: ${e.message}`);
    throw e;
  }
  const opts = { maxFileBytes: call.env.limits.maxFileBytes, ...(call.signal ? { signal: call.signal } : {}) };
  const enc = session.positionEncoding;
  try {
    const old = await documentDiagnostics(session, abs, { ...opts, text: before });
    const now = await documentDiagnostics(session, abs, { ...opts, text: after });
    const entries = (list: typeof old.diagnostics, text: string) => list.map((d) => toDiagnosticEntry(d, { root: call.root, text, encoding: enc })).filter((d) => atLeast(d.severity, 'warning'));
    const was = entries(old.diagnostics, before);
    const is = entries(now.diagnostics, after);
    return { diagnostics: 'checked', server: session.serverId, introduced: without(is, was), removed: without(was, is) };
  } catch (e) {
    if (isLspgateError(e) && NO_SERVER.has(e.code)) return { ...notChecked(`${e.code}: ${e.message}`), server: session.serverId };
    throw e;
  } finally {
    // the server is told the disk text again whatever happened above
    await session.syncDocument(abs).catch((e: unknown) => call.meta.warn(`could not re-sync ${abs} with ${session.serverId}: ${(e as Error).message}`));
  }
}

function notChecked(reason: string): DiagnosticsDelta {
  return { diagnostics: 'not_checked', reason, introduced: [], removed: [] };
}

/** Diagnostics are matched by severity, code and message (positions move with any edit); `a` minus `b` as multisets. */
function without(a: DiagnosticEntry[], b: DiagnosticEntry[]): DiagnosticEntry[] {
  const key = (d: DiagnosticEntry) => `${d.severity}\0${d.code ?? ''}\0${d.message}`;
  const left = new Map<string, number>();
  for (const d of b) left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  const out: DiagnosticEntry[] = [];
  for (const d of a) {
    const n = left.get(key(d)) ?? 0;
    if (n > 0) left.set(key(d), n - 1);
    else out.push(d);
  }
  return out;
}
