/**
 * The documents a session has given its server: didOpen on first sync, a full didChange with the
 * next version when the content hash differs, didClose, and a re-open of everything after a
 * restart. Versions only grow, across generations too (LSP: "the version number of a document
 * will increase after each change").
 */
import {
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
} from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../config/schema.js';
import type { Logger } from '../util/logger.js';
import { fileUri, languageIdFor, sha256 } from './documents.js';
import type { Generation } from './generation.js';
import type { OpenDocument } from './types.js';

type Doc = OpenDocument & { generation: number; openedVersion: number };

const CHANGE_TYPE: Record<'created' | 'changed' | 'deleted', FileChangeType> = {
  created: FileChangeType.Created,
  changed: FileChangeType.Changed,
  deleted: FileChangeType.Deleted,
};

export class DocumentSync {
  private readonly docs = new Map<string, Doc>();
  /**
   * The last version of documents since closed: a re-opened document goes on from there. Had it
   * started again at 1, a publish a server made for the content the document had before it was
   * closed (pyright versions its publishes) would read as the answer for the re-opened content.
   */
  private readonly closedVersions = new Map<string, number>();

  constructor(
    private readonly entry: ServerEntry,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.docs.size;
  }

  /**
   * Synchronous from lookup to send: concurrent callers never both open one document. The
   * didOpen / didChange is handed to the connection and not waited for: vscode-jsonrpc writes
   * messages in the order they are given (one write queue), so the caller's request still reaches
   * the server after it, while waiting for the write took a turn of the event loop (its write
   * queue runs on setImmediate) in which the catalog's answers were processed and its next files
   * opened first — p50 8, p90 39 ms between a file's first interactive didOpen and its request
   * during a cold catalog at load ~12 (docs/performance.md "Sessions and the daemon"). A failed write resets the generation (lost()),
   * and the request after it fails with that crash.
   */
  sync(gen: Generation, absPath: string, content: string, newVersion = false): OpenDocument {
    const hash = sha256(content);
    const prev = this.docs.get(absPath);
    if (prev && prev.generation === gen.n && prev.hash === hash && !newVersion) return publicDoc(prev);
    if (prev && prev.generation === gen.n) {
      const doc: Doc = { ...prev, text: content, hash, version: prev.version + 1 };
      this.docs.set(absPath, doc);
      this.send(gen, DidChangeTextDocumentNotification.type, {
        textDocument: { uri: doc.uri, version: doc.version },
        contentChanges: [{ text: content }],
      });
      return publicDoc(doc);
    }
    const doc: Doc = {
      path: absPath,
      uri: fileUri(absPath),
      languageId: languageIdFor(this.entry, absPath),
      version: (prev?.version ?? this.closedVersions.get(absPath) ?? 0) + 1,
      openedVersion: 0,
      text: content,
      hash,
      generation: gen.n,
    };
    doc.openedVersion = doc.version;
    this.docs.set(absPath, doc);
    this.send(gen, DidOpenTextDocumentNotification.type, {
      textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: content },
    });
    gen.readiness.documentOpened();
    return publicDoc(doc);
  }

  private send<P>(gen: Generation, type: { readonly method: string }, params: P): void {
    // the crash handler has the cause; the caller's next request fails with it
    gen.notify(type, params).catch((e: unknown) => this.logger.debug(`${type.method} not sent: ${(e as Error).message}`));
  }

  /** After a restart: the new process gets every document the old one had. */
  reopenAll(gen: Generation): void {
    for (const [p, d] of this.docs) {
      const doc: Doc = { ...d, version: d.version + 1, openedVersion: d.version + 1, generation: gen.n };
      this.docs.set(p, doc);
      gen
        .notify(DidOpenTextDocumentNotification.type, {
          textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.text },
        })
        .catch((e: unknown) => this.logger.debug(`re-open of ${p} not sent: ${(e as Error).message}`)); // the crash handler has the cause
    }
    if (this.docs.size) gen.readiness.documentOpened();
  }

  get(absPath: string): OpenDocument | undefined {
    const d = this.docs.get(absPath);
    return d ? publicDoc(d) : undefined;
  }

  has(absPath: string): boolean {
    return this.docs.has(absPath);
  }

  /** A document open in this generation (the first-reply readiness probe needs one). */
  anyIn(gen: Generation): OpenDocument | undefined {
    for (const d of this.docs.values()) if (d.generation === gen.n) return publicDoc(d);
    return undefined;
  }

  async close(gen: Generation | undefined, absPath: string): Promise<void> {
    const d = this.docs.get(absPath);
    if (!d) return;
    this.docs.delete(absPath);
    this.closedVersions.set(absPath, d.version);
    if (gen?.alive && d.generation === gen.n) {
      await gen.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri: d.uri } });
    }
  }

  filesChanged(gen: Generation | undefined, changes: { path: string; type: 'created' | 'changed' | 'deleted' }[]): void {
    if (!gen?.alive || changes.length === 0) return;
    gen
      .notify(DidChangeWatchedFilesNotification.type, { changes: changes.map((c) => ({ uri: fileUri(c.path), type: CHANGE_TYPE[c.type] })) })
      .catch((e: unknown) => this.logger.debug(`didChangeWatchedFiles not sent: ${(e as Error).message}`));
  }
}

function publicDoc(d: Doc): OpenDocument {
  return { path: d.path, uri: d.uri, languageId: d.languageId, version: d.version, openedVersion: d.openedVersion, text: d.text, hash: d.hash };
}
