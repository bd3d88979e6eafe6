/**
 * The one symbol pipeline: a file as its server sees it. Route to the file's session, sync the
 * document (content-hash checked by the session), ask documentSymbol, normalise the answer
 * (symbols.ts), keep the adapter's declarations, and give adapters a hover cached per (server
 * generation, file hash, position). Operations (through ServiceCall) and the cataloger (through
 * cataloger.ts) both load files here, so a file has one symbol model.
 */
import { LRUCache } from 'lru-cache';
import { DocumentSymbolRequest, HoverRequest, type Position } from 'vscode-languageserver-protocol';
import { adapterFor } from '../adapters/index.js';
import type { FileContext } from '../adapters/types.js';
import type { LspSession, OpenDocument } from '../lsp/types.js';
import { fromHoverContents } from '../schema/convert/hover-text.js';
import { toRelative } from '../util/paths.js';
import { normalizeDocumentSymbols } from './symbols.js';

/** Where a file context comes from: a workspace root and a way to reach sessions and other files. */
export interface FileContextSource {
  readonly root: string;
  readonly signal?: AbortSignal;
  /** The started session serving a file. */
  session(absPath: string): Promise<LspSession>;
  /** Another file's context of the same workspace, for adapters (Go methods in sibling files). */
  otherFile(absPath: string): Promise<FileContext>;
}

export interface LoadFileOptions {
  /** The text to sync (a caller that slices the file's bytes read it itself); default: the disk's. */
  text?: string;
  /** Nobody will ask for this documentSymbol again: caches in front of the session do not keep it. */
  transient?: boolean;
  /** Bulk work (the catalog build): its timeouts do not count against the server. */
  background?: boolean;
}

const hoverCache = new LRUCache<string, Promise<string | undefined>>({ max: 20_000 });

function hoverKey(session: LspSession, doc: OpenDocument, pos: Position): string {
  return `${session.serverId}\0${session.root}\0${session.generation}\0${doc.path}\0${doc.hash}\0${pos.line}:${pos.character}`;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export async function loadFileContext(src: FileContextSource, absPath: string, opts: LoadFileOptions = {}): Promise<FileContext> {
  const session = await src.session(absPath);
  const doc = await session.syncDocument(absPath, opts.text);
  // Read only: normalizeDocumentSymbols builds new arrays and never changes the answer's objects.
  const answer = await session.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }, { signal: src.signal, transient: opts.transient, background: opts.background, readOnly: true });
  const lines = splitLines(doc.text);
  const adapter = adapterFor(session.entry.adapter);
  const tree = normalizeDocumentSymbols(answer, lines);
  return {
    absPath: doc.path,
    relPath: toRelative(src.root, doc.path),
    uri: doc.uri,
    languageId: doc.languageId,
    language: adapter.language(doc.languageId),
    text: doc.text,
    lines,
    symbols: adapter.declarations?.(tree, doc.text, session.positionEncoding) ?? tree,
    session,
    root: src.root,
    hover(pos) {
      const key = hoverKey(session, doc, pos);
      let h = hoverCache.get(key);
      if (!h) {
        h = session.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: pos }, { signal: src.signal }).then(fromHoverContents);
        hoverCache.set(key, h);
        h.catch(() => hoverCache.delete(key));
      }
      return h;
    },
    loadFile: (other) => src.otherFile(other),
  };
}
