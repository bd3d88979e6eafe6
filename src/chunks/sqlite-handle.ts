/**
 * The slice of `node:sqlite`'s DatabaseSync the chunk and vector tables use, typed here (the Node
 * types this repository builds against predate node:sqlite), and the sqlite-vec extension loaded
 * into it. The workspace's database itself is opened by one module (src/store/db.ts); these take
 * its handle. `openSqlite` opens a file the same way for tests and for stores used on their own.
 * node:sqlite is fetched with process.getBuiltinModule, not imported: importing lspgate on a Node
 * without it fails only when an index is opened, with a coded error naming the floor.
 */
import { createRequire } from 'node:module';

import { LspgateError } from '../errors/errors.js';

export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
  iterate(...params: SqlValue[]): IterableIterator<SqlRow>;
}

export interface SqlDb {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  loadExtension(file: string): void;
  /** A scalar SQL function written in JavaScript. */
  function(name: string, opts: { deterministic?: boolean }, fn: (...args: SqlValue[]) => SqlValue): void;
  close(): void;
  readonly isOpen: boolean;
}

interface SqliteModule {
  DatabaseSync: new (file: string, opts?: { allowExtension?: boolean }) => SqlDb;
}

function sqliteModule(): SqliteModule {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const mod = get?.('node:sqlite') as SqliteModule | undefined;
  if (!mod?.DatabaseSync)
    throw new LspgateError('NOT_SUPPORTED', `the workspace index needs node:sqlite (Node >= 22.13); this is Node ${process.versions.node}`, {
      node: process.versions.node,
    });
  return mod;
}

/** Loads sqlite-vec into `db` unless it is there already (vec_version() answers). */
export function loadVec(db: SqlDb): void {
  try {
    db.prepare('SELECT vec_version()').get();
    return;
  } catch {
    // not loaded yet
  }
  // the platform package's vec0 binary, resolved as sqlite-vec's own getLoadablePath does
  const req = createRequire(import.meta.url);
  const pkg = `sqlite-vec-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const ext = process.platform === 'win32' ? 'dll' : process.platform === 'darwin' ? 'dylib' : 'so';
  let file: string;
  try {
    file = req.resolve(`${pkg}/vec0.${ext}`);
  } catch {
    throw new LspgateError('NOT_SUPPORTED', `sqlite-vec has no binary for ${process.platform}-${process.arch} (package ${pkg} is not installed)`, {
      package: pkg,
    });
  }
  db.loadExtension(file);
}

/** A database file opened with extensions allowed, sqlite-vec loaded, WAL and a busy timeout. */
export function openSqlite(file: string): SqlDb {
  const db = new (sqliteModule().DatabaseSync)(file, { allowExtension: true });
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;');
  loadVec(db);
  return db;
}

/**
 * Runs `fn` in a savepoint: all of it is written or none (a kill mid-way leaves the previous state).
 * A savepoint nests inside the caller's transaction and opens one when there is none.
 */
export function inTransaction<T>(db: SqlDb, fn: () => T): T {
  const name = `vecfts_${++depth}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const out = fn();
    db.exec(`RELEASE ${name}`);
    return out;
  } catch (e) {
    db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw e;
  } finally {
    depth--;
  }
}
let depth = 0;
