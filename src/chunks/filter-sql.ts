/**
 * The chunk filter (filter.ts) as SQL over the vector rows (`chunk_vectors v`) joined to the live
 * chunks (`chunks c`) of the same database, so a filtered vector search selects its candidate rowids
 * in SQLite instead of reading every row into JavaScript. It matches exactly what chunkMatcher
 * matches on the live chunk: the path glob is the catalog's glob engine, registered as the SQL
 * function `lspgate_glob(pattern, path)`; a chunk's commit is the HEAD the index cites its chunks at
 * (sql-chunk-index.ts: a moved HEAD is not written into the rows), history chunks their own.
 */
import { globMatcher } from '../catalog/glob.js';
import { HISTORY_FILE } from './history.js';
import type { SqlDb, SqlValue } from './sqlite-handle.js';
import { type ChunkFilter, HISTORY_KINDS } from './types.js';

const registered = new WeakSet<SqlDb>();

/** Registers lspgate_glob on `db` once. */
function registerGlob(db: SqlDb): void {
  if (registered.has(db)) return;
  db.function('lspgate_glob', { deterministic: true }, (pattern: SqlValue, file: SqlValue) =>
    globMatcher(String(pattern), { wholePath: true })(String(file)) ? 1 : 0,
  );
  registered.add(db);
}

/** The WHERE clause (over `v` and `c`) and its parameters. `head`: the HEAD live chunks are cited at ('' for their stored commits). */
export function filterSql(db: SqlDb, f: ChunkFilter | undefined, head: string): { where: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const list = (xs: readonly (string | number)[]) => JSON.stringify(xs);
  if (f?.language) {
    where.push('lower(v.language) = ?');
    params.push(f.language.toLowerCase());
  }
  if (f?.path) {
    registerGlob(db);
    where.push('lspgate_glob(?, v.file)');
    params.push(f.path);
  }
  if (f?.symbol_kinds?.length) {
    where.push('v.symbol_kind IN (SELECT value FROM json_each(?))');
    params.push(list(f.symbol_kinds.map((k) => k.toLowerCase())));
  }
  if (f?.commit_hash) {
    where.push(`substr(CASE WHEN ? <> '' AND c.file <> ? THEN ? ELSE json_extract(c.json, '$.commit_hash') END, 1, ?) = ?`);
    params.push(head, HISTORY_FILE, head, f.commit_hash.length, f.commit_hash);
  }
  if (f?.is_test !== undefined) {
    where.push('v.is_test = ?');
    params.push(f.is_test ? 1 : 0);
  }
  if (f?.chunk_kinds?.length) {
    where.push('c.kind IN (SELECT value FROM json_each(?))');
    params.push(list(f.chunk_kinds));
  } else {
    where.push('c.kind NOT IN (SELECT value FROM json_each(?))');
    params.push(list(HISTORY_KINDS));
  }
  if (f?.as_of) {
    const asOf = Date.parse(f.as_of);
    if (Number.isNaN(asOf)) where.push(`json_extract(c.json, '$.committed_at_utc') IS NULL`);
    else {
      where.push(
        `(json_extract(c.json, '$.committed_at_utc') IS NULL OR (julianday(json_extract(c.json, '$.committed_at_utc')) - 2440587.5) * 86400000.0 <= ?)`,
      );
      params.push(asOf);
    }
  }
  if (f?.tier?.length) {
    where.push(`json_extract(c.json, '$.tier') IN (SELECT value FROM json_each(?))`);
    params.push(list(f.tier));
  }
  if (f?.symbol) {
    where.push(`(c.symbol = ? OR json_extract(c.json, '$.symbol_id') = ?)`);
    params.push(f.symbol, f.symbol);
  }
  return { where: where.join(' AND '), params };
}
