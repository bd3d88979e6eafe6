/**
 * The parse-tree structure (file-structure.ts) of a workspace's files, kept per catalog so that it
 * lives and dies with its workspace, and brought up to date file by file like the chunk index: a
 * file whose catalog entry hash differs from the hash its structure was read from is read and parsed
 * again, a file gone from the catalog is dropped, nothing else is touched. A text a caller already
 * holds (the document the server has) is parsed once per content hash.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { boundedFileStructure, type Decoration, type FileStructure } from '../adapters/file-structure.js';
import { LRUCache } from 'lru-cache';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { ParseBounds } from '../syntax/job-pool.js';
import { syntaxOf } from '../adapters/languages.js';
import type { Catalog, CatalogSymbol } from '../core/catalog.js';
import type { Workspace } from '../core/workspace.js';
import { sha256 } from '../util/hash.js';
import { yieldToEventLoop } from '../util/work-class.js';

export interface IndexedStructure {
  /** sha256 of the text the structure was read from. */
  hash: string;
  structure: FileStructure;
}

/**
 * How files are read: in a syntax worker within the workspace's parse bounds. With `unread`, a file
 * over them is left out and named there (one of many); without, its TIMEOUT / LIMIT_EXCEEDED is the answer.
 */
export interface StructureReading {
  bounds?: ParseBounds;
  signal?: AbortSignal;
  unread?(message: string): void;
}

/** Texts (by hash) whose structure was over a parse bound: not read again (each try would take the whole deadline). */
const overBound = new LRUCache<string, LspgateError>({ max: 256 });

async function read(rel: string, text: string, how: StructureReading): Promise<FileStructure | undefined> {
  const key = `${rel}\0${sha256(text)}`;
  let err = overBound.get(key);
  if (!err) {
    try {
      return await boundedFileStructure(rel, text, how.bounds, how.signal);
    } catch (e) {
      err = toLspgateError(e);
      if (err.code !== 'TIMEOUT' && err.code !== 'LIMIT_EXCEEDED') throw err;
      overBound.set(key, err);
    }
  }
  if (!how.unread) throw err;
  how.unread(`${err.message} (${err.code}): its declarations' headers and decorators are left out`);
  return undefined;
}

interface WorkspaceStructures {
  files: Map<string, IndexedStructure>;
  /** Serialises syncs: two callers must not parse the same file twice. */
  pending: Promise<unknown>;
}

const states = new WeakMap<Catalog, WorkspaceStructures>();

function stateOf(cat: Catalog): WorkspaceStructures {
  let s = states.get(cat);
  if (!s) states.set(cat, (s = { files: new Map(), pending: Promise.resolve() }));
  return s;
}

/** Whether lspgate reads type headers from files of this path's language. */
function hasTypeHeaders(rel: string): boolean {
  return !!syntaxOf(rel)?.profile.syntax.typeHeaders;
}

async function doSync(ws: Workspace, s: WorkspaceStructures, language: string, how: StructureReading): Promise<Map<string, IndexedStructure>> {
  const entries = ws.catalog.files();
  const out = new Map<string, IndexedStructure>();
  for (const [rel, entry] of entries) {
    if (entry.language !== language || !hasTypeHeaders(rel)) continue;
    let known = s.files.get(rel);
    if (known?.hash !== entry.hash) {
      // parsing is CPU work per file: interactive work waiting on the event loop goes first
      await yieldToEventLoop();
      const text = await readFile(path.join(ws.root, rel), 'utf8').catch(() => undefined);
      // deleted between the catalog's look and ours: the next catalog change drops it
      if (text === undefined) continue;
      const structure = await read(rel, text, how);
      if (!structure) continue;
      s.files.set(rel, (known = { hash: sha256(text), structure }));
    }
    out.set(rel, known);
  }
  for (const rel of [...s.files.keys()]) if (!entries.has(rel)) s.files.delete(rel);
  return out;
}

/** The structure of every cataloged file of one language, brought up to date with the catalog (which must be built). */
export function syncedStructures(ws: Workspace, language: string, how: StructureReading): Promise<ReadonlyMap<string, IndexedStructure>> {
  const s = stateOf(ws.catalog);
  const run = s.pending.then(() => doSync(ws, s, language, how));
  s.pending = run.catch(() => undefined);
  return run;
}

/** The structure of a file's current text (the one its server has open); undefined without a grammar. */
export async function structureOfText(ws: Workspace, rel: string, text: string, how: StructureReading): Promise<FileStructure | undefined> {
  const s = stateOf(ws.catalog);
  const hash = sha256(text);
  const known = s.files.get(rel);
  if (known?.hash === hash) return known.structure;
  const structure = await read(rel, text, how);
  if (structure) s.files.set(rel, { hash, structure });
  return structure;
}

/** The decorations (decorators, attributes, leading block) of a catalog symbol, read from its file's current text. */
export async function decorationOf(ws: Workspace, sym: Pick<CatalogSymbol, 'file' | 'name' | 'selection_line'>, text: string, how: StructureReading): Promise<Decoration | undefined> {
  const structure = await structureOfText(ws, sym.file, text, how);
  return structure?.decorations.find((d) => d.name === sym.name && d.at.line === sym.selection_line);
}
