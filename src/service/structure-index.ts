/**
 * The parse-tree structure (file-structure.ts) of a workspace's files, kept in its catalog's derived
 * state so that it lives and dies with its workspace and is counted with it, and brought up to date file by file like the chunk index: a
 * file whose catalog entry hash differs from the hash its structure was read from is read and parsed
 * again, a file gone from the catalog is dropped, nothing else is touched. A text a caller already
 * holds (the document the server has) is parsed once per content hash.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { LRUCache } from 'lru-cache';

import { boundedFileStructure, type Decoration, type FileStructure } from '../adapters/file-structure.js';
import { syntaxOf } from '../adapters/languages.js';
import type { Catalog, CatalogSymbol, Derived, DerivedKey } from '../core/catalog.js';
import type { Workspace } from '../core/workspace.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { ParseBounds } from '../syntax/job-pool.js';
import { ENTRY_OVERHEAD, stringBytes } from '../util/bounded-memo.js';
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

/**
 * One workspace's structures, in its catalog's derived state: counted in `derived_bytes` (as
 * `structures`), dropped with the workspace and by invalidate_cache.
 */
class WorkspaceStructures implements Derived {
  private readonly files = new Map<string, IndexedStructure & { bytes: number }>();
  private total = 0;
  /** Serialises syncs: two callers must not parse the same file twice. */
  pending: Promise<unknown> = Promise.resolve();

  get(rel: string): IndexedStructure | undefined {
    return this.files.get(rel);
  }

  set(rel: string, indexed: IndexedStructure): IndexedStructure {
    this.delete(rel);
    // the structure's JSON text is a fair measure of what its objects hold: names, lines, spans
    const bytes = ENTRY_OVERHEAD + stringBytes(rel) + stringBytes(indexed.hash) + stringBytes(JSON.stringify(indexed.structure));
    this.files.set(rel, { ...indexed, bytes });
    this.total += bytes;
    return indexed;
  }

  delete(rel: string): void {
    const known = this.files.get(rel);
    if (!known) return;
    this.files.delete(rel);
    this.total -= known.bytes;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  bytes(): number {
    return this.total;
  }

  dispose(): void {
    this.files.clear();
    this.total = 0;
  }
}

const STRUCTURES: DerivedKey<WorkspaceStructures> = { name: 'structures' };

function stateOf(cat: Catalog): WorkspaceStructures {
  return cat.derived.get(STRUCTURES, () => new WorkspaceStructures());
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
    let known = s.get(rel);
    if (known?.hash !== entry.hash) {
      // parsing is CPU work per file: interactive work waiting on the event loop goes first
      await yieldToEventLoop();
      const text = await readFile(path.join(ws.root, rel), 'utf8').catch(() => undefined);
      // deleted between the catalog's look and ours: the next catalog change drops it
      if (text === undefined) continue;
      const structure = await read(rel, text, how);
      if (!structure) continue;
      known = s.set(rel, { hash: sha256(text), structure });
    }
    out.set(rel, known);
  }
  for (const rel of s.paths()) if (!entries.has(rel)) s.delete(rel);
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
  const known = s.get(rel);
  if (known?.hash === hash) return known.structure;
  const structure = await read(rel, text, how);
  if (structure) s.set(rel, { hash, structure });
  return structure;
}

/** The decorations (decorators, attributes, leading block) of a catalog symbol, read from its file's current text. */
export async function decorationOf(
  ws: Workspace,
  sym: Pick<CatalogSymbol, 'file' | 'name' | 'selection_line'>,
  text: string,
  how: StructureReading,
): Promise<Decoration | undefined> {
  const structure = await structureOfText(ws, sym.file, text, how);
  return structure?.decorations.find((d) => d.name === sym.name && d.at.line === sym.selection_line);
}
