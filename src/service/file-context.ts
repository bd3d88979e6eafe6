/**
 * FileContext loading: route to the file's server, sync the document (content-hash checked by the
 * session), ask documentSymbol, and give adapters a hover cached per (server generation, file hash,
 * position) so that no position is hovered twice for the same content.
 */
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { DocumentSymbolRequest, HoverRequest, type Position } from 'vscode-languageserver-protocol';
import type { FileContext } from '../adapters/types.js';
import { adapterFor } from '../adapters/index.js';
import type { LspSession, OpenDocument } from '../lsp/types.js';
import { fromHoverContents } from '../schema/convert/hover-text.js';
import { toRelative } from '../util/paths.js';
import type { ServiceCall } from './call.js';
import { declarationsOnly } from '../catalog/adapter-bridge.js';
import { normalizeDocumentSymbols } from './symbols.js';

const hoverCache = new LRUCache<string, Promise<string | undefined>>({ max: 20_000 });

function hoverKey(session: LspSession, doc: OpenDocument, pos: Position): string {
  return `${session.serverId}\0${session.root}\0${session.generation}\0${doc.path}\0${doc.hash}\0${pos.line}:${pos.character}`;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export async function loadFileContext(call: ServiceCall, absPath: string): Promise<FileContext> {
  const session = await call.session(absPath);
  const doc = await session.syncDocument(absPath);
  const answer = await session.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }, { signal: call.signal });
  const lines = splitLines(doc.text);
  const adapter = adapterFor(session.entry.adapter);
  const file: FileContext = {
    absPath: doc.path,
    relPath: toRelative(call.root, doc.path),
    uri: doc.uri,
    languageId: doc.languageId,
    language: adapter.language(doc.languageId),
    text: doc.text,
    lines,
    // The same declarations the catalog keeps (TypeScript 7's server lists import bindings too).
    symbols: declarationsOnly(session.entry.adapter, normalizeDocumentSymbols(answer, lines), doc.text, session.positionEncoding),
    session,
    workspace: call.workspace,
    hover(pos) {
      const key = hoverKey(session, doc, pos);
      let h = hoverCache.get(key);
      if (!h) {
        h = session.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: pos }, { signal: call.signal }).then(fromHoverContents);
        hoverCache.set(key, h);
        h.catch(() => hoverCache.delete(key));
      }
      return h;
    },
    loadFile: (other) => call.file(call.resolvePath(path.resolve(other), { expect: 'file' })),
  };
  return file;
}
