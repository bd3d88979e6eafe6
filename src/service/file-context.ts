/**
 * The one symbol pipeline: a file as its server sees it. Route to the file's session, sync the
 * document (content-hash checked by the session), ask documentSymbol, normalise the answer
 * (symbols.ts), keep the adapter's declarations, and give adapters a hover cached per (server
 * generation, file hash, position). Operations (through ServiceCall) and the cataloger (through
 * cataloger.ts) both load files here, so a file has one symbol model.
 */
import { LRUCache } from 'lru-cache';
import { type DocumentSymbol, DocumentSymbolRequest, HoverRequest, type Position } from 'vscode-languageserver-protocol';

import { boundedFileStructure, type FileStructure } from '../adapters/file-structure.js';
import { adapterFor } from '../adapters/index.js';
import type { FileContext, LanguageAdapter } from '../adapters/types.js';
import { toLspgateError } from '../errors/errors.js';
import type { LspSession, OpenDocument } from '../lsp/types.js';
import { fromHoverContents } from '../schema/convert/hover-text.js';
import type { ParseBounds } from '../syntax/job-pool.js';
import { ENTRY_OVERHEAD, stringBytes } from '../util/bounded-memo.js';
import { deepFreeze } from '../util/freeze.js';
import { toRelative } from '../util/paths.js';
import { locate } from './locate.js';
import { normalizeDocumentSymbols } from './symbols.js';

/** Where a file context comes from: a workspace root and a way to reach sessions and other files. */
export interface FileContextSource {
  readonly root: string;
  readonly signal?: AbortSignal;
  /** The started session serving a file. */
  session(absPath: string): Promise<LspSession>;
  /** Another file's context of the same workspace, for adapters (Go methods in sibling files). */
  otherFile(absPath: string): Promise<FileContext>;
  /** How long and in how much memory a file's parse tree may be read (the workspace's limits; default: the configuration's). */
  readonly parseBounds?: ParseBounds;
  /** Told why an answer lacks what the file's parse tree would have given (it was over a parse bound). */
  warn?(message: string): void;
}

export interface LoadFileOptions {
  /** The text to sync (a caller that slices the file's bytes read it itself); default: the disk's. */
  text?: string;
  /** Nobody will ask for this documentSymbol again: caches in front of the session do not keep it. */
  transient?: boolean;
  /** Bulk work (the catalog build): its timeouts do not count against the server. */
  background?: boolean;
}

/**
 * Hover texts by (server, root, generation, file hash, position): a process-wide memo of server
 * answers (sessions are shared by every workspace on their root), bounded in bytes. A pending hover
 * is counted at its key and 1 KiB; once it answers, at its text.
 */
export const HOVER_MEMO = new LRUCache<string, Promise<string | undefined>>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (_v, k) => stringBytes(k) + 1024 });

function hoverKey(session: LspSession, doc: OpenDocument, pos: Position): string {
  return `${session.serverId}\0${session.root}\0${session.generation}\0${doc.path}\0${doc.hash}\0${pos.line}:${pos.character}`;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

interface SymbolModel {
  /** What the model was made from besides the answer: the document's content, adapter and encoding. */
  hash: string;
  adapter: string;
  encoding: string;
  lines: string[];
  symbols: DocumentSymbol[];
  /** Characters of the document's text (the memo's size estimate). */
  textLength: number;
  /** The parse-tree structure of the same content, read in a syntax worker once per model (null: no grammar, or `unread`). */
  structure?: Promise<FileStructure | null>;
  /** Why the structure could not be read (a parse bound, coded), when it could not. */
  unread?: string;
}

/**
 * Per documentSymbol answer the response cache hands out (frozen, shared): its file model. A
 * process-wide memo, bounded in bytes (lines at their text, and the answer beside them, counted at
 * twice the text); it holds the answer until it is evicted.
 */
export const MODEL_MEMO = new LRUCache<object, SymbolModel>({
  maxSize: 48 * 1024 * 1024,
  sizeCalculation: (m) => 4 * m.textLength + ENTRY_OVERHEAD * (m.lines.length + 1),
});

/**
 * The file's lines and normalised symbols (the adapter's declarations). Made once per cached
 * answer and document content: a warm call rebuilt them for every file it touched (the
 * TypeScript adapter tokenises the whole file to drop import bindings; ~1 ms on zod's large
 * files). Only answers the response cache keeps are remembered (it hands out the same frozen
 * object while the document's content is unchanged; its key holds the content hash), and the
 * model is frozen like them: no caller can change what the next call reads.
 */
function symbolModel(answer: unknown, doc: OpenDocument, session: LspSession, adapter: LanguageAdapter): SymbolModel {
  const shared = answer !== null && typeof answer === 'object' && Object.isFrozen(answer);
  const known = shared ? MODEL_MEMO.get(answer) : undefined;
  if (known && known.hash === doc.hash && known.adapter === session.entry.adapter && known.encoding === session.positionEncoding) return known;
  const lines = splitLines(doc.text);
  const tree = normalizeDocumentSymbols(answer as Parameters<typeof normalizeDocumentSymbols>[0], lines);
  const symbols = adapter.declarations?.(tree, doc.text, session.positionEncoding) ?? tree;
  const model: SymbolModel = {
    hash: doc.hash,
    adapter: session.entry.adapter,
    encoding: session.positionEncoding,
    lines: deepFreeze(lines),
    symbols: deepFreeze(symbols),
    textLength: doc.text.length,
  };
  if (shared) MODEL_MEMO.set(answer, model);
  return model;
}

export async function loadFileContext(src: FileContextSource, absPath: string, opts: LoadFileOptions = {}): Promise<FileContext> {
  const session = await src.session(absPath);
  const doc = await session.syncDocument(absPath, opts.text);
  // Read only: normalizeDocumentSymbols builds new arrays and never changes the answer's objects.
  const answer = await session.request(
    DocumentSymbolRequest.type,
    { textDocument: { uri: doc.uri } },
    { signal: src.signal, transient: opts.transient, background: opts.background, readOnly: true },
  );
  const adapter = adapterFor(session.entry.adapter);
  const model = symbolModel(answer, doc, session, adapter);
  const { lines, symbols } = model;
  const relPath = toRelative(src.root, doc.path);
  const structure = await structureOf(model, relPath, doc.text, src);
  if (model.unread) src.warn?.(model.unread);
  return {
    absPath: doc.path,
    relPath,
    uri: doc.uri,
    languageId: doc.languageId,
    language: adapter.language(doc.languageId),
    text: doc.text,
    lines,
    symbols,
    session,
    root: src.root,
    hover(pos) {
      const key = hoverKey(session, doc, pos);
      let h = HOVER_MEMO.get(key);
      if (!h) {
        const asked = session.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: pos }, { signal: src.signal }).then(fromHoverContents);
        HOVER_MEMO.set(key, asked);
        // counted again at its real size once it answers (if it is still the one kept)
        asked.then(
          (text) => HOVER_MEMO.peek(key) === asked && HOVER_MEMO.set(key, asked, { size: stringBytes(key) + stringBytes(text) + ENTRY_OVERHEAD }),
          () => HOVER_MEMO.delete(key),
        );
        h = asked;
      }
      return h;
    },
    loadFile: (other) => src.otherFile(other),
    locate: (uri) => locate(src.root, uri),
    structure: () => structure ?? undefined,
  };
}

/**
 * The file's parse-tree structure, read once per model in a syntax worker, so that adapters read it
 * synchronously afterwards and no file's parse holds the daemon's thread (100,000 nested TypeScript
 * namespaces took 29 s). A file over a parse bound has none (adapters do without: no doc comments,
 * decorators or type headers) and the model keeps why; a cancelled call reads it again next time.
 */
async function structureOf(model: SymbolModel, relPath: string, text: string, src: FileContextSource): Promise<FileStructure | null> {
  if (!model.structure) {
    const asked = boundedFileStructure(relPath, text, src.parseBounds, src.signal).then(
      (s) => (s ? deepFreeze(s) : null),
      (e: unknown) => {
        const err = toLspgateError(e);
        if (err.code === 'CANCELLED') throw err;
        model.unread = `${err.message.startsWith(relPath) ? err.message : `${relPath}: ${err.message}`} (${err.code}); its doc comments, decorators and type headers are left out`;
        return null;
      },
    );
    model.structure = asked;
    asked.catch(() => model.structure === asked && (model.structure = undefined));
  }
  return model.structure;
}
