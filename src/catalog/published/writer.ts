/**
 * Writes one commit of one repository into the published index, in one transaction: a publish that
 * fails half-way (a dropped connection, a killed process, a refused write) leaves the previous state.
 * Incremental by content: only files whose (path, hash, index version) the repository has not
 * published before are loaded (`load`: their text, chunks, vectors) and written; the commit then
 * lists every file's id. Publishes of one repository run one at a time (an advisory lock per
 * repository); the schema is made by the first publish (pgvector's column where the extension can
 * be created, else float4[]).
 */
import type { FileIdioms } from '../../chunks/idioms.js';
import type { Chunk } from '../../chunks/types.js';
import type { CatalogSymbol, FileEntry } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import type { IndexConnection } from './connect.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION, schemaDdl, type VectorColumn } from './schema.js';

/** Rows per INSERT: one jsonb parameter each, well under the protocol's 1 GB message bound. */
const BATCH_ROWS = 1000;

/** What a new file brings beside its catalog entry. */
export interface FileBody {
  /** Its text; undefined when it is not text (a NUL byte, not UTF-8): the row keeps NULL. */
  content?: string;
  chunks: readonly Chunk[];
  /** One per chunk, in order, when an embedder ran. */
  vectors?: readonly Float32Array[];
}

export interface PublishInput {
  repo: string;
  sha: string;
  indexVersion: number;
  /** Every cataloged file of the commit. */
  files: ReadonlyMap<string, FileEntry>;
  load(path: string): Promise<FileBody>;
  /** A file's idiom counts (its directory's convention chunks are summed from them); undefined: none counted. */
  idioms(path: string): FileIdioms | undefined;
  /** The embedder whose vectors `load` returns: its identity checksum and dimension. */
  embedder?: { checksum: string; dim: number; identity: unknown };
  /** Call edges lspgate computed (caller and callee cataloged), by the caller's file. */
  calls?: ReadonlyMap<string, { caller: string; callee: string; line: number }[]>;
}

export interface PublishReport {
  repository: string;
  commit: string;
  files: number;
  /** Files this publish wrote (the others were shared with earlier commits). */
  new_files: number;
  symbols: number;
  new_symbols: number;
  chunks: number;
  vectors: number;
  /** pgvector:<dim>, array, or none. */
  vector_column: string;
  warnings: string[];
}

type Row = Record<string, unknown>;

export async function publishCommit(conn: IndexConnection, input: PublishInput): Promise<PublishReport> {
  await conn.query('BEGIN');
  try {
    const vectorColumn = await ensureSchema(conn, input.embedder?.dim);
    const repoId = await repositoryId(conn, input.repo);
    await conn.query('SELECT pg_advisory_xact_lock($1)', [repoId]);
    const { known, noIdioms } = await publishedFiles(conn, repoId, input);
    const useVectors = input.embedder && vectorColumn !== 'none' ? input.embedder : undefined;
    const warnings: string[] = [];
    if (input.embedder && !useVectors)
      warnings.push(`vectors not published: the index's vector column is ${vectorColumn}, the embedder's dimension ${input.embedder.dim}`);
    await fillIdioms(conn, repoId, input, known, noIdioms);
    const wrote = await writeNewFiles(conn, repoId, input, known, useVectors ? { checksum: useVectors.checksum, column: vectorColumn } : undefined);
    const symbols = [...input.files.values()].reduce((n, e) => n + e.symbols.length, 0);
    await writeCommit(conn, repoId, input, [...known.values()], symbols, useVectors);
    await conn.query('COMMIT');
    return { repository: input.repo, commit: input.sha, files: input.files.size, symbols, ...wrote, vector_column: vectorColumn, warnings };
  } catch (e) {
    await conn.client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * The ids of the commit's files the repository published before (same path, bytes and index
 * version), and those of them written before the index had idiom counts (schema version 1).
 */
async function publishedFiles(conn: IndexConnection, repoId: string, input: PublishInput) {
  const listing = [...input.files].map(([path, e]) => ({ path, hash: e.hash }));
  const known = new Map<string, string>();
  const noIdioms: string[] = [];
  for (const part of batches(listing)) {
    const r = await conn.query<{ id: string; path: string; unknown: boolean }>(
      `SELECT f.id, f.path, f.idioms IS NULL AS unknown FROM lspgate.files f JOIN jsonb_to_recordset($2::jsonb) AS x(path text, hash text)
         ON f.path = x.path AND f.hash = x.hash WHERE f.repo_id = $1 AND f.index_version = $3`,
      [repoId, JSON.stringify(part), input.indexVersion],
    );
    for (const row of r.rows) {
      known.set(row.path, row.id);
      if (row.unknown) noIdioms.push(row.path);
    }
  }
  return { known, noIdioms };
}

/** A file's `idioms` cell: always an object, so NULL means "written before the index had them". */
function idiomsCell(input: PublishInput, path: string): string {
  return JSON.stringify({ counts: input.idioms(path) ?? null });
}

/** Fills the idiom counts of files published before the index had them (a schema 1 index, migrated). */
async function fillIdioms(conn: IndexConnection, repoId: string, input: PublishInput, known: Map<string, string>, paths: string[]): Promise<void> {
  for (const part of batches(paths, 200)) {
    const rows = part.map((path) => ({ id: known.get(path), idioms: idiomsCell(input, path) }));
    await conn.query(
      `UPDATE lspgate.files f SET idioms = x.idioms::jsonb FROM jsonb_to_recordset($2::jsonb) AS x(id bigint, idioms text)
        WHERE f.repo_id = $1 AND f.id = x.id`,
      [repoId, JSON.stringify(rows)],
    );
  }
}

type Written = Pick<PublishReport, 'new_files' | 'new_symbols' | 'chunks' | 'vectors'>;

/** Writes the files not published before, a batch at a time: their bodies (text, chunks, vectors) are loaded for that batch only. */
async function writeNewFiles(
  conn: IndexConnection,
  repoId: string,
  input: PublishInput,
  known: Map<string, string>,
  vectors: { checksum: string; column: string } | undefined,
): Promise<Written> {
  const out: Written = { new_files: 0, new_symbols: 0, chunks: 0, vectors: 0 };
  const fresh = [...input.files].filter(([path]) => !known.has(path));
  for (const part of batches(fresh, 200)) {
    const bodies = new Map<string, FileBody>();
    for (const [path] of part) bodies.set(path, await input.load(path));
    const rows = part.map(([path, e]) => ({
      path,
      hash: e.hash,
      language: e.language,
      server: e.server,
      tier: e.tier ?? null,
      size: e.size,
      content: bodies.get(path)!.content ?? null,
      idioms: idiomsCell(input, path),
    }));
    const ids = await conn.query<{ id: string; path: string }>(
      `INSERT INTO lspgate.files (repo_id, path, hash, index_version, language, server, tier, size, content, idioms)
       SELECT $1, x.path, x.hash, $2, x.language, x.server, x.tier, x.size, x.content, x.idioms::jsonb
         FROM jsonb_to_recordset($3::jsonb) AS x(path text, hash text, language text, server text, tier text, size int, content text, idioms text)
       RETURNING id, path`,
      [repoId, input.indexVersion, JSON.stringify(rows, jsonSafe)],
    );
    const r = fileRows(ids.rows, input, bodies, vectors?.column);
    for (const { id, path } of ids.rows) known.set(path, id);
    out.new_files += ids.rows.length;
    out.new_symbols += r.symbols.length;
    out.chunks += r.chunks.length;
    await insertSymbols(conn, repoId, r.symbols);
    await insertChunks(conn, repoId, r.chunks);
    if (vectors) {
      out.vectors += r.vectors.length;
      await insertVectors(conn, repoId, vectors.checksum, vectors.column, r.vectors);
    }
    await insertEdges(conn, repoId, r.edges);
  }
  return out;
}

/** The rows of the files just written: their symbols, chunks, vectors and call edges. */
function fileRows(ids: { id: string; path: string }[], input: PublishInput, bodies: Map<string, FileBody>, column: string | undefined) {
  const symbols: Row[] = [];
  const chunks: Row[] = [];
  const vectors: Row[] = [];
  const edges: Row[] = [];
  for (const { id, path } of ids) {
    input.files.get(path)!.symbols.forEach((s, ord) => symbols.push({ file_id: id, ord, container: containerOf(s), d: s }));
    const body = bodies.get(path)!;
    body.chunks.forEach((c, ord) => {
      chunks.push({ file_id: id, ord, d: c });
      const v = column ? body.vectors?.[ord] : undefined;
      if (v) vectors.push({ file_id: id, ord, v: vectorLiteral(v, column!) });
    });
    for (const e of input.calls?.get(path) ?? []) edges.push({ file_id: id, ...e });
  }
  return { symbols, chunks, vectors, edges };
}

/** The commit's listing (replacing an earlier publish of the same commit) and its row. */
async function writeCommit(
  conn: IndexConnection,
  repoId: string,
  input: PublishInput,
  fileIds: string[],
  symbols: number,
  embedder: PublishInput['embedder'],
): Promise<void> {
  await conn.query('DELETE FROM lspgate.commit_files WHERE repo_id = $1 AND sha = $2', [repoId, input.sha]);
  await conn.query('INSERT INTO lspgate.commit_files (repo_id, sha, file_id) SELECT $1, $2, unnest($3::bigint[])', [repoId, input.sha, fileIds]);
  const chunks = await conn.query<{ n: string }>(
    `SELECT count(*) AS n FROM lspgate.chunks c JOIN lspgate.commit_files cf ON cf.repo_id = c.repo_id AND cf.file_id = c.file_id
      WHERE cf.repo_id = $1 AND cf.sha = $2`,
    [repoId, input.sha],
  );
  await conn.query(
    `INSERT INTO lspgate.commits (repo_id, sha, index_version, files, symbols, chunks, embedder) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (repo_id, sha) DO UPDATE SET published_at = now(), index_version = $3, files = $4, symbols = $5, chunks = $6, embedder = $7`,
    [
      repoId,
      input.sha,
      input.indexVersion,
      input.files.size,
      symbols,
      Number(chunks.rows[0]!.n),
      embedder ? JSON.stringify({ checksum: embedder.checksum, identity: embedder.identity }) : null,
    ],
  );
}

/** Creates the schema on first use (one publisher at a time), else checks its version; the vector column's kind. */
async function ensureSchema(conn: IndexConnection, dim: number | undefined): Promise<string> {
  await conn.query(`SELECT pg_advisory_xact_lock(hashtext('lspgate.schema'))`);
  const exists = await conn.query<{ t: string | null }>(`SELECT to_regclass('lspgate.meta')::text AS t`);
  if (!exists.rows[0]?.t) {
    const column = await vectorColumnFor(conn, dim);
    for (const stmt of schemaDdl(column)) await conn.query(stmt);
  }
  let meta = new Map((await conn.query<{ key: string; value: string }>('SELECT key, value FROM lspgate.meta')).rows.map((r) => [r.key, r.value]));
  for (let v = Number(meta.get('schema_version')); PG_MIGRATIONS[v] && v < PG_SCHEMA_VERSION; v++) {
    for (const stmt of PG_MIGRATIONS[v]!) await conn.query(stmt);
    meta = new Map((await conn.query<{ key: string; value: string }>('SELECT key, value FROM lspgate.meta')).rows.map((r) => [r.key, r.value]));
  }
  if (meta.get('schema_version') !== String(PG_SCHEMA_VERSION)) {
    throw new LspgateError(
      'INDEX_MISMATCH',
      `the index's schema is version ${meta.get('schema_version') ?? 'unknown'}, this lspgate writes version ${PG_SCHEMA_VERSION}: publish into another database or schema`,
    );
  }
  const vectors = meta.get('vectors') ?? 'array';
  if (vectors.startsWith('pgvector:') && dim !== undefined && vectors !== `pgvector:${dim}`) return 'none';
  return vectors;
}

/** pgvector where the server has it and this role may create it (or it is there); the embedder's dimension fixes the column. */
async function vectorColumnFor(conn: IndexConnection, dim: number | undefined): Promise<VectorColumn> {
  if (dim === undefined) return { kind: 'array' };
  const avail = await conn.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (avail.rowCount === 0) return { kind: 'array' };
  await conn.query('SAVEPOINT vector_ext');
  try {
    await conn.query('CREATE EXTENSION IF NOT EXISTS vector');
    await conn.query('RELEASE SAVEPOINT vector_ext');
    return { kind: 'pgvector', dim };
  } catch {
    // not allowed to create it here: exact cosine over float4[] instead
    await conn.query('ROLLBACK TO SAVEPOINT vector_ext');
    return { kind: 'array' };
  }
}

async function repositoryId(conn: IndexConnection, name: string): Promise<string> {
  await conn.query('INSERT INTO lspgate.repositories (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
  const r = await conn.query<{ id: string }>('SELECT id FROM lspgate.repositories WHERE name = $1', [name]);
  return r.rows[0]!.id;
}

/** The seed's container_name: the enclosing symbol's qualified name. */
function containerOf(s: CatalogSymbol): string | null {
  const q = s.qualified_name;
  return q.endsWith(`.${s.name}`) ? q.slice(0, -(s.name.length + 1)) : null;
}

function vectorLiteral(v: Float32Array, column: string): string {
  const list = Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',');
  return column === 'array' ? `{${list}}` : `[${list}]`;
}

async function insertSymbols(conn: IndexConnection, repoId: string, rows: Row[]): Promise<void> {
  for (const part of batches(rows)) {
    await conn.query(
      `INSERT INTO lspgate.symbols (repo_id, file_id, ord, symbol_id, name, qualified_name, kind, line, "column", end_line, container_name, signature, doc, detail)
       SELECT $1, x.file_id, x.ord, x.d->>'symbol_id', x.d->>'name', x.d->>'qualified_name', x.d->>'kind', (x.d->>'line')::int,
              (x.d->>'selection_column')::int, (x.d->>'end_line')::int, x.container, coalesce(x.d->>'signature', ''), x.d->>'docstring', x.d
         FROM jsonb_to_recordset($2::jsonb) AS x(file_id bigint, ord int, container text, d jsonb)`,
      [repoId, JSON.stringify(part, jsonSafe)],
    );
  }
}

async function insertChunks(conn: IndexConnection, repoId: string, rows: Row[]): Promise<void> {
  for (const part of batches(rows)) {
    await conn.query(
      `INSERT INTO lspgate.chunks (repo_id, file_id, ord, chunk_id, kind, symbol, start_line, end_line, text, detail)
       SELECT $1, x.file_id, x.ord, x.d->>'id', x.d->>'chunk_kind', x.d->>'symbol_name', (x.d->>'start_line')::int, (x.d->>'end_line')::int,
              x.d->>'text', x.d - 'text'
         FROM jsonb_to_recordset($2::jsonb) AS x(file_id bigint, ord int, d jsonb)`,
      [repoId, JSON.stringify(part, jsonSafe)],
    );
  }
}

async function insertVectors(conn: IndexConnection, repoId: string, checksum: string, column: string, rows: Row[]): Promise<void> {
  const cast = column === 'array' ? 'real[]' : 'vector';
  for (const part of batches(rows, 200)) {
    await conn.query(
      `INSERT INTO lspgate.chunk_vectors (repo_id, file_id, ord, embedder, embedding)
       SELECT $1, x.file_id, x.ord, $2, x.v::${cast} FROM jsonb_to_recordset($3::jsonb) AS x(file_id bigint, ord int, v text)`,
      [repoId, checksum, JSON.stringify(part)],
    );
  }
}

async function insertEdges(conn: IndexConnection, repoId: string, rows: Row[]): Promise<void> {
  for (const part of batches(rows)) {
    await conn.query(
      `INSERT INTO lspgate.call_edges (repo_id, file_id, caller_symbol_id, callee_symbol_id, line)
       SELECT $1, x.file_id, x.caller, x.callee, x.line FROM jsonb_to_recordset($2::jsonb) AS x(file_id bigint, caller text, callee text, line int)
       ON CONFLICT DO NOTHING`,
      [repoId, JSON.stringify(part)],
    );
  }
}

/** PostgreSQL's text and jsonb hold no NUL character: a chunk's text with one keeps the rest. */
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.split('\u0000').join('') : value;
}

function* batches<T>(rows: T[], size = BATCH_ROWS): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
