/**
 * The diagnostics a server holds for one document as it is on disk now, pulled, requested or pushed.
 *
 * Request: the adapter's requestDiagnostics, for a server that computes diagnostics on request
 * besides its publishes (typescript-language-server: tsserver's own synchronous requests, which
 * answer once the project is loaded — its publishes cannot tell the syntactic diagnostics of a file
 * from all of them).
 * Pull (`textDocument/diagnostic`, LSP 3.17) answers for the document the server has: it is synced
 * from disk first. Push (`textDocument/publishDiagnostics`) needs a publish that belongs to the
 * synced version (DiagnosticsFeed.isFor), then a quiet period: tsserver publishes syntax, semantic
 * and suggestion diagnostics as separate updates of one file (typescript-language-server debounces
 * them by only 50 ms), gopls publishes type errors first and analyses later.
 */
import { type Diagnostic, type DocumentDiagnosticReport, DocumentDiagnosticRequest } from 'vscode-languageserver-protocol';

import { adapterFor } from '../../adapters/index.js';
import { LspgateError } from '../../errors/errors.js';
import type { DiagnosticsFeed, PublishedDiagnostics } from '../../lsp/diagnostics-feed.js';
import { documentText } from '../../lsp/documents.js';
import type { LspSession, OpenDocument } from '../../lsp/types.js';

/** No further publish for this long after a fresh one: the server has settled. */
export const DIAGNOSTICS_SETTLE_MS = 400;
/**
 * A changed document whose server published nothing for it within this time: typescript-language-
 * server publishes only when a kind of diagnostics changes, so a clean file edited into another
 * clean file gets no publish at all (measured: publishes come 0.1–1 s after a change).
 */
export const CHANGE_PUBLISH_MS = 3000;

export interface DocumentDiagnostics {
  mode: 'pull' | 'request' | 'push';
  doc: OpenDocument;
  diagnostics: Diagnostic[];
  /** Why the answer is not a publish for this exact version, when it is not. */
  note?: string;
}

export interface SourceOptions {
  maxFileBytes: number;
  signal?: AbortSignal;
  /** An unsaved version to diagnose instead of the disk's (a symbol edit's preview); the caller syncs the disk text back. */
  text?: string;
  /**
   * A push server's answer must be computed now (an edit's delta: the other files' unsaved text is
   * with the server): an unchanged document is sent again as the next version and its publish awaited.
   */
  fresh?: boolean;
  /** The caller keeps errors and warnings only (an edit's delta): a request for hints alone may be left out. */
  problemsOnly?: boolean;
}

export async function documentDiagnostics(session: LspSession, absPath: string, opts: SourceOptions): Promise<DocumentDiagnostics> {
  // Read here, not through the session's stat shortcut: the stamp must be the bytes on disk now.
  const text = opts.text ?? documentText(absPath, undefined, opts.maxFileBytes);
  const adapter = adapterFor(session.entry.adapter);
  // pull and request answers are computed when asked; only a publish needs a version of its own
  const push = !session.hasCapability('diagnosticProvider') && !adapter.requestDiagnostics;
  const doc = await session.syncDocument(absPath, text, push && opts.fresh ? { newVersion: true } : undefined);
  if (session.hasCapability('diagnosticProvider')) {
    const report = await session.request(DocumentDiagnosticRequest.type, { textDocument: { uri: doc.uri } }, { signal: opts.signal });
    return { mode: 'pull', doc, diagnostics: fullItems(report) };
  }
  const requested = await adapter.requestDiagnostics?.(session, doc, opts.signal, { problemsOnly: opts.problemsOnly === true });
  if (requested) return { mode: 'request', doc, diagnostics: requested };
  const feed = session.diagnostics;
  if (!feed) throw new LspgateError('NOT_SUPPORTED', `${session.serverId} sessions here record no published diagnostics`, { server: session.serverId });
  // an adapter that could not request them after all: the version of its own is sent now
  return pushed(session, feed, push || !opts.fresh ? doc : await session.syncDocument(absPath, text, { newVersion: true }), opts);
}

function fullItems(report: DocumentDiagnosticReport): Diagnostic[] {
  // No previousResultId is ever sent, so an 'unchanged' report would be a server bug.
  if (report.kind !== 'full') throw new LspgateError('INTERNAL', 'the server answered an unchanged diagnostic report to a first request');
  return report.items;
}

async function pushed(session: LspSession, feed: DiagnosticsFeed, doc: OpenDocument, opts: SourceOptions): Promise<DocumentDiagnostics> {
  const gen = session.generation;
  const trust = trustedSince(session);
  let p = trusted(feed.current(doc.uri, doc.version, gen), trust);
  if (!p) {
    // A document just opened is always published (every server diagnoses on open); a changed one
    // may not be, see CHANGE_PUBLISH_MS.
    const firstOpen = doc.version === (doc.openedVersion ?? 1);
    p = await freshPublish(feed, doc, gen, trust, firstOpen ? session.entry.timeouts.requestMs : CHANGE_PUBLISH_MS, opts.signal);
    if (!p) return noPublish(session, doc, firstOpen, opts);
  }
  return { mode: 'push', doc, diagnostics: (await settled(feed, doc, gen, p, opts.signal)).diagnostics };
}

/**
 * intelephense publishes an empty list as soon as a document opens, before it has indexed the
 * workspace, and the real diagnostics once indexing ends; neither says a version. A version-less
 * publish that arrived before the server was last ready is therefore not taken as its answer.
 */
function trustedSince(session: LspSession): number {
  const readyAt = session.info().readyAt;
  return readyAt ? Date.parse(readyAt) : Number.POSITIVE_INFINITY;
}

function trusted(p: PublishedDiagnostics | undefined, since: number): PublishedDiagnostics | undefined {
  return p && (p.version !== undefined || p.at >= since) ? p : undefined;
}

/** The first trusted publish for this version arriving within `ms`. */
async function freshPublish(
  feed: DiagnosticsFeed,
  doc: OpenDocument,
  gen: number,
  since: number,
  ms: number,
  signal?: AbortSignal,
): Promise<PublishedDiagnostics | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const current = trusted(feed.current(doc.uri, doc.version, gen), since);
    if (current) return current;
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return undefined;
    await feed.next(doc.uri, left, signal);
  }
}

/** Later publishes for the same version replace `p` until none comes for DIAGNOSTICS_SETTLE_MS. */
async function settled(feed: DiagnosticsFeed, doc: OpenDocument, gen: number, p: PublishedDiagnostics, signal?: AbortSignal): Promise<PublishedDiagnostics> {
  let last = p;
  for (;;) {
    const quietFor = DIAGNOSTICS_SETTLE_MS - (Date.now() - last.at);
    if (quietFor <= 0 || signal?.aborted) return last;
    const next = await feed.next(doc.uri, quietFor, signal);
    if (!next) return last;
    if (!feed.isFor(next, doc.version, gen)) return last; // a newer version was synced meanwhile
    last = next;
  }
}

function noPublish(session: LspSession, doc: OpenDocument, firstOpen: boolean, opts: SourceOptions): Promise<DocumentDiagnostics> {
  if (firstOpen || opts.signal?.aborted) {
    throw new LspgateError(
      'TIMEOUT',
      `${session.serverId} published no diagnostics for ${doc.path} within ${firstOpen ? session.entry.timeouts.requestMs : CHANGE_PUBLISH_MS} ms`,
      {
        server: session.serverId,
        path: doc.path,
        version: doc.version,
      },
    );
  }
  return reopened(session, doc, opts);
}

/**
 * Nothing was published for a changed document: it is closed and opened again, which every server
 * answers with a publish. The publish that clears a closed document's diagnostics (version-less in
 * typescript-language-server and pyright) is awaited first, so that it is not taken for the answer.
 */
async function reopened(session: LspSession, doc: OpenDocument, opts: SourceOptions): Promise<DocumentDiagnostics> {
  const feed = session.diagnostics!;
  const cleared = feed.next(doc.uri, CHANGE_PUBLISH_MS, opts.signal);
  await session.closeDocument(doc.path);
  await cleared;
  const again = await session.syncDocument(doc.path, doc.text);
  const gen = session.generation;
  const p = await freshPublish(feed, again, gen, trustedSince(session), session.entry.timeouts.requestMs, opts.signal);
  if (!p) {
    throw new LspgateError('TIMEOUT', `${session.serverId} published no diagnostics for ${doc.path}, even after it was opened again`, {
      server: session.serverId,
      path: doc.path,
    });
  }
  const last = await settled(feed, again, gen, p, opts.signal);
  return { mode: 'push', doc: again, diagnostics: last.diagnostics, note: 'no publish after the change: the document was closed and opened again' };
}
