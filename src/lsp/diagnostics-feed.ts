/**
 * The `textDocument/publishDiagnostics` a server pushes, kept per document so that a caller can
 * tell which publish belongs to which content. LSP 3.17 lets a server send `version` with a
 * publish ("the version number of the document the diagnostics are published for"); servers that
 * omit it (typescript-language-server) are matched by order instead: a publish received after the
 * didOpen/didChange of a version belongs to that version or a later one, never an earlier one.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { type Diagnostic, PublishDiagnosticsNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

export interface PublishedDiagnostics {
  uri: string;
  /** The version the server said it computed them for, when it says so. */
  version?: number;
  diagnostics: Diagnostic[];
  generation: number;
  /** Order of arrival across the session (larger = later). */
  seq: number;
  /** Date.now() at arrival. */
  at: number;
}

interface SyncMark {
  version: number;
  generation: number;
  /** The last publish seq before this version was sent: later publishes may be for it. */
  seq: number;
}

/** Documents remembered at most; the oldest publish is forgotten first. */
const MAX_DOCUMENTS = 20_000;

export class DiagnosticsFeed {
  private seq = 0;
  private readonly published = new Map<string, PublishedDiagnostics>();
  private readonly synced = new Map<string, SyncMark>();
  private readonly waiters = new Set<(p: PublishedDiagnostics) => void>();
  /**
   * Generations whose server has said which version a publish is for: its version-less publishes
   * are the empty lists it sends when a document closes, never an answer for a version (pyright
   * publishes `[]` without a version on didClose; taken for the re-opened document's answer, a
   * file with an undefined name read as clean).
   */
  private readonly versioned = new Set<number>();

  /** Called before the connection delivers any message (right after the generation is created). */
  attach(conn: MessageConnection, generation: number): void {
    conn.onNotification(PublishDiagnosticsNotification.type, (p: PublishDiagnosticsParams) => this.record(p, generation));
  }

  private record(p: PublishDiagnosticsParams, generation: number): void {
    const entry: PublishedDiagnostics = { uri: p.uri, diagnostics: p.diagnostics ?? [], generation, seq: ++this.seq, at: Date.now() };
    if (typeof p.version === 'number') {
      entry.version = p.version;
      this.versioned.add(generation);
    }
    this.published.delete(p.uri);
    this.published.set(p.uri, entry);
    if (this.published.size > MAX_DOCUMENTS) this.published.delete(this.published.keys().next().value!);
    for (const w of [...this.waiters]) w(entry);
  }

  /** The session sent (or found already sent) this version of the document. */
  noteSynced(uri: string, version: number, generation: number): void {
    const mark = this.synced.get(uri);
    if (mark && mark.version === version && mark.generation === generation) return;
    this.synced.delete(uri);
    this.synced.set(uri, { version, generation, seq: this.seq });
    if (this.synced.size > MAX_DOCUMENTS) this.synced.delete(this.synced.keys().next().value!);
  }

  /** Whether a publish was computed for this version of the document (see the header). */
  isFor(p: PublishedDiagnostics, version: number, generation: number): boolean {
    if (p.generation !== generation) return false;
    if (p.version !== undefined) return p.version === version;
    if (this.versioned.has(generation)) return false;
    const mark = this.synced.get(p.uri);
    return !!mark && mark.version === version && mark.generation === generation && p.seq > mark.seq;
  }

  /** The last publish for the document, if it belongs to this version. */
  current(uri: string, version: number, generation: number): PublishedDiagnostics | undefined {
    const p = this.published.get(uri);
    return p && this.isFor(p, version, generation) ? p : undefined;
  }

  /** The next publish for `uri` arriving within `ms`, or undefined (also when aborted). */
  next(uri: string, ms: number, signal?: AbortSignal): Promise<PublishedDiagnostics | undefined> {
    return new Promise((resolve) => {
      const done = (p: PublishedDiagnostics | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        resolve(p);
      };
      const waiter = (p: PublishedDiagnostics) => {
        if (p.uri === uri) done(p);
      };
      const onAbort = () => done(undefined);
      if (signal?.aborted) return resolve(undefined);
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => done(undefined), Math.max(0, ms));
    });
  }
}
