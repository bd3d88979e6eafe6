/**
 * The catalog on disk: the workspace database (src/store/db.ts), seed 003's tables. A file's row
 * holds its text (for files_fts), its stamps and state; its symbols are rows of `symbols` with the
 * seed's columns and the rest of each CatalogSymbol in `extra`. Each file is written in one
 * transaction (its symbols and the call edges they carry go and come with it): a process killed
 * mid-write leaves that file as it was. The database holds one root's catalog at one INDEX_VERSION;
 * another is dropped at load (a full rebuild).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StatementSync } from 'node:sqlite';

import type { CallEdgeRow, CatalogSymbol, FileEntry } from '../core/catalog.js';
import { type IndexDb, indexDbPath, openIndexDb } from '../store/db.js';
import { writeSymbolTexts, writeSymbolTextsFts } from '../store/symbol-texts.js';
import { shareStrings } from './shared-strings.js';
import { lastSegment } from './symbol-index.js';

/** 2: TypeScript import bindings left out, tsgo's const Variables are constants. 3: files with a grammar cataloged from their parse trees only. */
export const INDEX_VERSION = 3;

export interface CatalogHead {
  indexedAt: string | undefined;
  gitHead: string;
}

/** CatalogSymbol fields that have a column of their own; every other field goes into `extra`. */
const COLUMN_KEYS = [
  'symbol_id',
  'file',
  'name',
  'qualified_name',
  'kind',
  'signature',
  'summary',
  'docstring',
  'line',
  'end_line',
  'selection_column',
] as const;
const COLUMNS = new Set<string>(COLUMN_KEYS);
/** The fields `extra` holds (extraOf writes them in this order). */
const EXTRA_KEYS = [
  'lsp_kind',
  'language',
  'server',
  'parent',
  'package',
  'namespace',
  'selection_line',
  'byte_offset',
  'byte_length',
  'content_hash',
] as const;
/** A CatalogSymbol field in neither list fails to compile here: it would not be stored. */
type Unstored = Exclude<keyof CatalogSymbol, (typeof COLUMN_KEYS)[number] | (typeof EXTRA_KEYS)[number]>;
const everyFieldStored: [Unstored] extends [never] ? true : Unstored = true;
void everyFieldStored;
const FIELDS = new Set<string>([...COLUMN_KEYS, ...EXTRA_KEYS]);

interface FileRow {
  id: number;
  path: string;
  language: string | null;
  hash: string | null;
  size: number | null;
  state: string | null;
  entry: string | null;
}
interface SymbolRow {
  file_id: number;
  name: string;
  kind: string;
  line: number;
  column: number;
  symbol_id: string;
  end_line: number;
  signature: string | null;
  doc: string | null;
  detail: string | null;
  qualified_name: string;
  extra: string | null;
}

export class CatalogStore {
  private opened: IndexDb | undefined;
  private statements: Record<string, StatementSync> = {};
  private batching = false;
  /** Files whose symbol texts' FTS entries are still to be written, before their transaction ends (writeSymbolTextsFts). */
  private ftsPending: number[] = [];

  constructor(
    private readonly cacheDir: string,
    private readonly workspaceId: string,
    private readonly root: string,
    /** search_symbols' fixed key of each of a file's symbols, stored with their texts (FileCataloger.searchKeys). */
    private readonly searchKeys?: (symbols: readonly CatalogSymbol[]) => ArrayLike<number>,
  ) {}

  get file(): string {
    return indexDbPath(this.cacheDir, this.workspaceId);
  }

  /** The database, opened at first use. */
  get db(): IndexDb {
    this.opened ??= openIndexDb(this.cacheDir, this.workspaceId);
    return this.opened;
  }

  private st(sql: string): StatementSync {
    return (this.statements[sql] ??= this.db.db.prepare(sql));
  }

  /**
   * Every stored file's stamps and symbol count, handed to `into` (its symbols stay in the
   * database: `symbolsOf`); the head of the last build that finished, if one did. A database of
   * another root or INDEX_VERSION is emptied first.
   */
  load(into: (rel: string, entry: Omit<FileEntry, 'symbols'>, count: number) => void): CatalogHead | undefined {
    const { db } = this;
    if (db.meta('index_version') !== String(INDEX_VERSION) || db.meta('root') !== this.root) {
      db.transaction(() => {
        db.db.exec('DELETE FROM files');
        db.db.prepare("DELETE FROM meta WHERE key IN ('indexed_at', 'git_head')").run();
        db.setMeta('index_version', String(INDEX_VERSION));
        db.setMeta('root', this.root);
      });
      return undefined;
    }
    this.fillLastNames();
    const counts = new Map<number, number>();
    for (const r of this.st('SELECT file_id, count(*) AS n FROM symbols GROUP BY file_id').all() as unknown as { file_id: number; n: number }[])
      counts.set(r.file_id, r.n);
    for (const f of this.st('SELECT id, path, language, hash, size, state, entry FROM files ORDER BY id').all() as unknown as FileRow[]) {
      const { entry, duplicates } = entryOf(f);
      into(f.path, entry, (counts.get(f.id) ?? 0) + duplicates.length);
    }
    const indexedAt = db.meta('indexed_at');
    return indexedAt ? { indexedAt, gitHead: db.meta('git_head') ?? '' } : undefined;
  }

  /** A stored file's symbols in its entry's order; undefined when the file is not stored. */
  symbolsOf(rel: string): CatalogSymbol[] | undefined {
    const f = this.st('SELECT id, path, language, hash, size, state, entry FROM files WHERE path = ?').get(rel) as FileRow | undefined;
    if (!f) return undefined;
    const rows = this.st(
      'SELECT file_id, name, kind, line, "column", symbol_id, end_line, signature, doc, detail, qualified_name, extra FROM symbols WHERE file_id = ? ORDER BY ord',
    ).all(f.id) as unknown as SymbolRow[];
    const symbols = rows.map((r) => symbolOf(r, rel));
    const { entry, duplicates } = entryOf(f);
    for (const d of duplicates) symbols.splice(d.ord, 0, d.symbol);
    shareStrings(rel, { ...entry, symbols });
    return symbols;
  }

  /**
   * The stored symbols of the files in `of`, counted by kind in the database into `add` (duplicate
   * ids, kept in the file's entry, counted from there): what symbolsOf would hand out, never read.
   */
  countKinds(of: ReadonlySet<string>, add: (kind: string, n: number) => void): void {
    const rows = this.st('SELECT f.path AS path, s.kind AS kind, count(*) AS n FROM symbols s JOIN files f ON f.id = s.file_id GROUP BY s.file_id, s.kind');
    for (const r of rows.iterate() as Iterable<{ path: string; kind: string; n: number }>) if (of.has(r.path)) add(r.kind, r.n);
    const dup = this.st(`SELECT id, path, language, hash, size, state, entry FROM files WHERE entry LIKE '%"duplicates"%'`);
    for (const f of dup.iterate() as Iterable<FileRow>) {
      if (!of.has(f.path)) continue;
      for (const d of entryOf(f).duplicates) add(d.symbol.kind, 1);
    }
  }

  /** The stored file that declares `symbolId` (the symbol_id index). */
  fileOfId(symbolId: string): string | undefined {
    const r = this.st('SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.symbol_id = ?').get(symbolId) as { path: string } | undefined;
    return r?.path;
  }

  /** The stored files declaring a symbol whose last name segment is `key` (the last_name index). */
  filesNamed(key: string): string[] {
    const rows = this.st('SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.last_name = ?').all(key) as unknown as {
      path: string;
    }[];
    return rows.map((r) => r.path);
  }

  /** Rows written before the last_name column (a migrated database) get theirs. */
  private fillLastNames(): void {
    if (!this.st('SELECT 1 FROM symbols WHERE last_name IS NULL LIMIT 1').get()) return;
    this.db.transaction(() => {
      const set = this.st('UPDATE symbols SET last_name = ? WHERE id = ?');
      for (const r of this.st('SELECT id, qualified_name FROM symbols WHERE last_name IS NULL').all() as unknown as { id: number; qualified_name: string }[])
        set.run(lastSegment(r.qualified_name), r.id);
    });
  }

  /**
   * `fn` in one transaction, whose writeFile calls open no savepoint of their own (FTS5 writes its
   * pending terms to disk at each savepoint), their files' symbol texts indexed together at its end
   * (writeSymbolTextsFts): a write that throws rolls back them all.
   */
  batch(fn: () => void): void {
    this.inTransaction(() => {
      this.batching = true;
      try {
        fn();
      } finally {
        this.batching = false;
      }
    });
  }

  /** One file's entry, in one transaction (or the batch's): its row, and its symbols in place of the old ones. */
  writeFile(rel: string, entry: FileEntry): void {
    if (this.batching) this.writeOne(rel, entry);
    else this.inTransaction(() => this.writeOne(rel, entry));
  }

  /** `fn` in one transaction, the FTS entries it left pending written before the commit (none kept when it throws). */
  private inTransaction(fn: () => void): void {
    try {
      this.db.transaction(() => {
        fn();
        this.writePendingFts();
      });
    } finally {
      this.ftsPending = [];
    }
  }

  private writePendingFts(): void {
    const ids = this.ftsPending;
    this.ftsPending = [];
    writeSymbolTextsFts(this.db.db, ids);
  }

  private writeOne(rel: string, entry: FileEntry): void {
    const old = this.st('SELECT id, hash, content IS NOT NULL AS has_text FROM files WHERE path = ?').get(rel) as
      { id: number; hash: string; has_text: number } | undefined;
    // the file written before in this transaction: its rows' FTS entries go in before the rows do
    if (old && this.ftsPending.includes(old.id)) this.writePendingFts();
    const meta = { mtimeMs: entry.mtimeMs, server: entry.server, ...(entry.tier ? { tier: entry.tier } : {}) };
    const stamps = [entry.language, Math.trunc(entry.mtimeMs), entry.hash, entry.size, stateOf(entry)] as const;
    let id: number;
    if (old && old.hash === entry.hash && old.has_text) {
      // the same bytes: the text (and files_fts) stay as they are
      this.st('UPDATE files SET language = ?, last_modified = ?, hash = ?, size = ?, state = ? WHERE id = ?').run(...stamps, old.id);
      this.st('DELETE FROM symbols WHERE file_id = ?').run(old.id);
      id = old.id;
    } else {
      const content = this.textOf(rel, entry.hash);
      if (old) {
        this.st('UPDATE files SET content = ?, language = ?, last_modified = ?, hash = ?, size = ?, state = ? WHERE id = ?').run(content, ...stamps, old.id);
        this.st('DELETE FROM symbols WHERE file_id = ?').run(old.id);
        id = old.id;
      } else {
        const r = this.st('INSERT INTO files(path, content, language, last_modified, hash, size, state) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
          rel,
          content,
          ...stamps,
        );
        id = Number(r.lastInsertRowid);
      }
    }
    const insert = this.st(
      'INSERT OR IGNORE INTO symbols(name, kind, file_id, line, "column", container_name, symbol_id, end_line, signature, doc, detail, qualified_name, ord, extra, last_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // a symbol whose id another row holds already (the same id twice) is kept in the file's entry
    const duplicates: { ord: number; symbol: CatalogSymbol }[] = [];
    entry.symbols.forEach((sym, ord) => {
      const dot = sym.qualified_name.lastIndexOf('.');
      const r = insert.run(
        sym.name,
        sym.kind,
        id,
        sym.line,
        sym.selection_column,
        dot > 0 ? sym.qualified_name.slice(0, dot) : null,
        sym.symbol_id,
        sym.end_line,
        sym.signature,
        sym.docstring ?? null,
        sym.summary,
        sym.qualified_name,
        ord,
        extraOf(sym),
        lastSegment(sym.qualified_name),
      );
      if (r.changes === 0) duplicates.push({ ord, symbol: sym });
    });
    writeSymbolTexts(this.db.db, id, entry.symbols, this.searchKeys?.(entry.symbols), this.ftsPending);
    this.st('UPDATE files SET entry = ? WHERE id = ?').run(JSON.stringify(duplicates.length ? { ...meta, duplicates } : meta), id);
  }

  removeFile(rel: string): void {
    // a file written before in this transaction: its rows' FTS entries go in before the rows go
    if (this.ftsPending.length > 0) this.writePendingFts();
    this.st('DELETE FROM files WHERE path = ?').run(rel);
  }

  saveHead(head: CatalogHead): void {
    this.db.transaction(() => {
      this.db.setMeta('index_version', String(INDEX_VERSION));
      this.db.setMeta('root', this.root);
      if (head.indexedAt) this.db.setMeta('indexed_at', head.indexedAt);
      this.db.setMeta('git_head', head.gitHead);
    });
  }

  /** Records call edges lspgate computed; those whose ends are not both cataloged are left out. Answers how many are stored. */
  recordCalls(edges: readonly CallEdgeRow[]): number {
    if (edges.length === 0) return 0;
    let stored = 0;
    this.db.transaction(() => {
      const insert = this.st(
        `INSERT OR IGNORE INTO call_graph(caller_id, callee_id, file_id, line)
         SELECT a.id, b.id, f.id, ? FROM symbols a, symbols b, files f WHERE a.symbol_id = ? AND b.symbol_id = ? AND f.path = ?`,
      );
      for (const e of edges) stored += Number(insert.run(e.line, e.caller, e.callee, e.file).changes);
    });
    return stored;
  }

  /** Empties the catalog's tables (invalidate_cache). */
  clear(): void {
    this.db.transaction(() => {
      this.db.db.exec('DELETE FROM files');
      this.db.db.prepare("DELETE FROM meta WHERE key IN ('indexed_at', 'git_head')").run();
    });
  }

  close(): void {
    this.statements = {};
    this.opened?.close();
    this.opened = undefined;
  }

  /** The file's text when its bytes on disk are still the ones cataloged (else NULL until the next write), and are text. */
  private textOf(rel: string, hash: string): string | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(this.root, rel));
    } catch {
      return null;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== hash || bytes.includes(0)) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }
}

function stateOf(entry: FileEntry): string {
  return entry.tier === 'syntax' ? 'syntax' : 'server';
}

/** The JSON of the last strings extraOf quoted: a file's symbols share their language, server and package. */
const quoted = { language: ['', '""'], server: ['', '""'], package: ['', '""'] } as Record<'language' | 'server' | 'package', [string, string]>;

function quote(field: 'language' | 'server' | 'package', value: string): string {
  const q = quoted[field];
  if (q[0] !== value) quoted[field] = [value, JSON.stringify(value)];
  return quoted[field][1];
}

/**
 * The fields of `sym` without a column, as JSON (what symbolOf reads back). Written by hand in
 * EXTRA_KEYS' order: an object and JSON.stringify per symbol took 0.5–0.6 s of the 168,898
 * symbols of the generated corpus, this 0.1 s. A symbol whose fields are not of their declared types,
 * or that carries others, is written by extraOfAny (every field, whatever it holds).
 */
function extraOf(sym: CatalogSymbol): string {
  const finite = Number.isFinite;
  if (
    !finite(sym.lsp_kind) ||
    !finite(sym.selection_line) ||
    !finite(sym.byte_offset) ||
    !finite(sym.byte_length) ||
    typeof sym.language !== 'string' ||
    typeof sym.server !== 'string' ||
    typeof sym.content_hash !== 'string' ||
    (sym.parent !== undefined && typeof sym.parent !== 'string') ||
    (sym.package !== undefined && typeof sym.package !== 'string') ||
    (sym.namespace !== undefined && typeof sym.namespace !== 'string')
  )
    return extraOfAny(sym);
  for (const k in sym) if (!FIELDS.has(k)) return extraOfAny(sym);
  let out = `{"lsp_kind":${sym.lsp_kind},"language":${quote('language', sym.language)},"server":${quote('server', sym.server)}`;
  if (sym.parent !== undefined) out += `,"parent":${JSON.stringify(sym.parent)}`;
  if (sym.package !== undefined) out += `,"package":${quote('package', sym.package)}`;
  if (sym.namespace !== undefined) out += `,"namespace":${JSON.stringify(sym.namespace)}`;
  return `${out},"selection_line":${sym.selection_line},"byte_offset":${sym.byte_offset},"byte_length":${sym.byte_length},"content_hash":${JSON.stringify(sym.content_hash)}}`;
}

function extraOfAny(sym: CatalogSymbol): string {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(sym)) if (!COLUMNS.has(k) && v !== undefined) extra[k] = v;
  return JSON.stringify(extra);
}

function symbolOf(r: SymbolRow, file: string): CatalogSymbol {
  const extra = JSON.parse(r.extra ?? '{}') as Partial<CatalogSymbol>;
  return {
    symbol_id: r.symbol_id,
    file,
    name: r.name,
    qualified_name: r.qualified_name,
    kind: r.kind as CatalogSymbol['kind'],
    ...extra,
    signature: r.signature ?? '',
    summary: r.detail ?? '',
    ...(r.doc !== null ? { docstring: r.doc } : {}),
    line: r.line,
    end_line: r.end_line,
    selection_column: r.column,
  } as CatalogSymbol;
}

function entryOf(f: FileRow): { entry: Omit<FileEntry, 'symbols'>; duplicates: { ord: number; symbol: CatalogSymbol }[] } {
  const meta = JSON.parse(f.entry ?? '{}') as { mtimeMs?: number; server?: string; tier?: 'syntax'; duplicates?: { ord: number; symbol: CatalogSymbol }[] };
  return {
    entry: {
      hash: f.hash ?? '',
      size: f.size ?? 0,
      mtimeMs: meta.mtimeMs ?? 0,
      language: f.language ?? '',
      server: meta.server ?? '',
      ...(meta.tier ? { tier: meta.tier } : {}),
    },
    duplicates: meta.duplicates ?? [],
  };
}
