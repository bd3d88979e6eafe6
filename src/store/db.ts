/**
 * The workspace's index database: `<cacheDir>/workspaces/<workspaceId>/index.db` (node:sqlite),
 * the one module that opens it. Private like the rest of the cache (a 0700 folder, the file 0600
 * from its creation; SQLite gives its -wal and -shm files the database's mode). WAL with
 * synchronous=NORMAL: a commit is one append to the log (no fsync until a checkpoint), and a
 * process killed mid-transaction leaves the last committed state — a crash of the machine may
 * lose the last commits, never corrupt the file. Foreign keys on: a file's rows go with it.
 */
import { closeSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { createPrivateFile, mkdirPrivate } from '../util/private-files.js';
import { createSchema, MIGRATIONS, SCHEMA_VERSION } from './schema.js';

const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** A database to start again: not lspgate's, or at a schema version this build does not know. */
class RebuildNeeded extends Error {}

export interface IndexDb {
  readonly db: DatabaseSync;
  readonly file: string;
  /** Why the database was rebuilt empty at open (a schema version this build does not know, a corrupt file): for the next answer's `_meta.warnings`. */
  readonly rebuilt: string | undefined;
  /** `fn` in one transaction (nested calls are savepoints): committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

export function indexDbPath(cacheDir: string, workspaceId: string): string {
  return path.join(cacheDir, 'workspaces', workspaceId, 'index.db');
}

export interface OpenOptions {
  /** Allow `db.loadExtension` (sqlite-vec). */
  allowExtension?: boolean;
}

/** Opens (creating, migrating or rebuilding as needed) the workspace's database. */
export function openIndexDb(cacheDir: string, workspaceId: string, opts: OpenOptions = {}): IndexDb {
  return openIndexDbFile(indexDbPath(cacheDir, workspaceId), opts);
}

export function openIndexDbFile(file: string, opts: OpenOptions = {}): IndexDb {
  mkdirPrivate(path.dirname(file));
  let rebuilt: string | undefined;
  let db: DatabaseSync;
  try {
    db = openAndMigrate(file, opts);
  } catch (e) {
    // only a file this build cannot use is replaced: a full disk or a locked database is thrown as it is
    const errcode = (e as { errcode?: number }).errcode;
    if (!(e instanceof RebuildNeeded) && errcode !== SQLITE_CORRUPT && errcode !== SQLITE_NOTADB) throw e;
    rebuilt = e instanceof RebuildNeeded ? e.message : `the index database ${file} could not be read (${(e as Error).message}): it was rebuilt`;
    removeDbFiles(file);
    db = openAndMigrate(file, opts);
  }
  return wrap(db, file, rebuilt);
}

function openAndMigrate(file: string, opts: OpenOptions): DatabaseSync {
  // created 0600 before SQLite opens it: SQLite would create it with the umask's mode
  if (!existsSync(file)) closeSync(createPrivateFile(file));
  const db = new DatabaseSync(file, { allowExtension: !!opts.allowExtension, timeout: 5000 });
  try {
    db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;');
    db.exec('BEGIN IMMEDIATE');
    try {
      migrate(db, file);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function migrate(db: DatabaseSync, file: string): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
  const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  const found = hasMeta ? (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined)?.value : undefined;
  if (found === undefined) {
    if (tables > 0) throw new RebuildNeeded(`the index database ${file} has no schema version: it was rebuilt`);
    createSchema(db);
  } else {
    const version = Number(found);
    if (!Number.isInteger(version) || version < 1 || version > SCHEMA_VERSION) {
      throw new RebuildNeeded(`the index database ${file} is at schema version ${found}, which this lspgate (${SCHEMA_VERSION}) does not know: it was rebuilt`);
    }
    for (let v = version; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
  }
  db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(SCHEMA_VERSION));
}

function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

function wrap(db: DatabaseSync, file: string, rebuilt: string | undefined): IndexDb {
  let depth = 0;
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const putMeta = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  return {
    db,
    file,
    rebuilt,
    transaction<T>(fn: () => T): T {
      const savepoint = `sp${depth}`;
      db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = fn();
        depth--;
        db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (e) {
        depth--;
        db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw e;
      }
    },
    meta: (key) => (getMeta.get(key) as { value: string } | undefined)?.value,
    setMeta: (key, value) => void putMeta.run(key, value),
    close: () => {
      if (db.isOpen) db.close();
    },
  };
}
