/**
 * The published index's DDL in PostgreSQL (docs/architecture.md, "The published index", explains it
 * with its scale notes). Everything lives in the `lspgate` schema. A file's rows (its symbols, chunks,
 * vectors) are keyed by (repository, path, content hash, index version) and shared by every commit
 * that lists that path with those bytes: a commit is a list of file ids. The path is part of the key
 * because a symbol's id, its `file` and a Python module's name are made from it. Every large table is
 * partitioned by repository (hash of repo_id), so one repository's reads and a publish touch one
 * partition of each and its indexes.
 */

/**
 * Bumped when the DDL changes; a database at a version no migration below brings here is refused
 * (INDEX_MISMATCH) rather than half-read. 2: `files.idioms`.
 */
export const PG_SCHEMA_VERSION = 2;

/**
 * PG_MIGRATIONS[v] takes a published index at version v to v + 1 (the publisher runs them, in its
 * transaction). 1 → 2: each file's idiom counts, from which a directory's convention chunks are
 * summed — NULL in rows written before (the next publish of a commit listing them fills them).
 */
export const PG_MIGRATIONS: Record<number, string[]> = {
  1: ['ALTER TABLE lspgate.files ADD COLUMN IF NOT EXISTS idioms jsonb', "UPDATE lspgate.meta SET value = '2' WHERE key = 'schema_version'"],
};

/** Hash partitions per large table: enough to keep each partition's indexes small at 1,000 repositories. */
export const PARTITIONS = 8;

const PARTITIONED = ['files', 'commit_files', 'symbols', 'call_edges', 'chunks', 'chunk_vectors'];

/** The vector column: pgvector's type where the server has the extension, else float4[] (exact cosine, computed by the reader). */
export type VectorColumn = { kind: 'pgvector'; dim: number } | { kind: 'array' };

export function schemaDdl(vectors: VectorColumn): string[] {
  const embedding = vectors.kind === 'pgvector' ? `vector(${vectors.dim})` : 'real[]';
  const ddl = [
    'CREATE SCHEMA IF NOT EXISTS lspgate',
    'CREATE TABLE lspgate.meta (key text PRIMARY KEY, value text NOT NULL)',
    `CREATE TABLE lspgate.repositories (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE lspgate.commits (
      repo_id bigint NOT NULL REFERENCES lspgate.repositories(id) ON DELETE CASCADE,
      sha text NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      index_version int NOT NULL,
      files int NOT NULL, symbols int NOT NULL, chunks int NOT NULL,
      embedder jsonb,
      PRIMARY KEY (repo_id, sha))`,
    'CREATE INDEX commits_latest ON lspgate.commits (repo_id, published_at DESC)',
    'CREATE SEQUENCE lspgate.file_ids',
    `CREATE TABLE lspgate.files (
      repo_id bigint NOT NULL,
      id bigint NOT NULL DEFAULT nextval('lspgate.file_ids'),
      path text NOT NULL, hash text NOT NULL, index_version int NOT NULL,
      language text NOT NULL, server text NOT NULL, tier text, size int NOT NULL,
      content text,
      idioms jsonb,
      PRIMARY KEY (repo_id, id),
      UNIQUE (repo_id, path, hash, index_version)) PARTITION BY HASH (repo_id)`,
    `CREATE TABLE lspgate.commit_files (
      repo_id bigint NOT NULL, sha text NOT NULL, file_id bigint NOT NULL,
      PRIMARY KEY (repo_id, sha, file_id)) PARTITION BY HASH (repo_id)`,
    `CREATE TABLE lspgate.symbols (
      repo_id bigint NOT NULL, file_id bigint NOT NULL, ord int NOT NULL,
      symbol_id text NOT NULL, name text NOT NULL, qualified_name text NOT NULL, kind text NOT NULL,
      line int NOT NULL, "column" int NOT NULL, end_line int NOT NULL, container_name text,
      signature text NOT NULL, doc text,
      detail jsonb NOT NULL,
      PRIMARY KEY (repo_id, file_id, ord)) PARTITION BY HASH (repo_id)`,
    'CREATE INDEX symbols_name ON lspgate.symbols (repo_id, lower(name) text_pattern_ops)',
    'CREATE INDEX symbols_symbol_id ON lspgate.symbols (repo_id, symbol_id)',
    `CREATE TABLE lspgate.call_edges (
      repo_id bigint NOT NULL, file_id bigint NOT NULL,
      caller_symbol_id text NOT NULL, callee_symbol_id text NOT NULL, line int NOT NULL,
      PRIMARY KEY (repo_id, file_id, caller_symbol_id, callee_symbol_id, line)) PARTITION BY HASH (repo_id)`,
    'CREATE INDEX call_edges_callee ON lspgate.call_edges (repo_id, callee_symbol_id)',
    `CREATE TABLE lspgate.chunks (
      repo_id bigint NOT NULL, file_id bigint NOT NULL, ord int NOT NULL,
      chunk_id text NOT NULL, kind text NOT NULL, symbol text, start_line int NOT NULL, end_line int NOT NULL,
      text text NOT NULL, detail jsonb NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(symbol, '') || ' ' || text)) STORED,
      PRIMARY KEY (repo_id, file_id, ord)) PARTITION BY HASH (repo_id)`,
    'CREATE INDEX chunks_tsv ON lspgate.chunks USING gin (tsv)',
    `CREATE TABLE lspgate.chunk_vectors (
      repo_id bigint NOT NULL, file_id bigint NOT NULL, ord int NOT NULL, embedder text NOT NULL,
      embedding ${embedding} NOT NULL,
      PRIMARY KEY (repo_id, file_id, ord, embedder)) PARTITION BY HASH (repo_id)`,
  ];
  const kind = vectors.kind === 'pgvector' ? `pgvector:${vectors.dim}` : 'array';
  return [...ddl, ...partitions(), `INSERT INTO lspgate.meta VALUES ('schema_version', '${PG_SCHEMA_VERSION}'), ('vectors', '${kind}')`];
}

function partitions(): string[] {
  return PARTITIONED.flatMap((t) =>
    Array.from(
      { length: PARTITIONS },
      (_, r) => `CREATE TABLE lspgate.${t}_p${r} PARTITION OF lspgate.${t} FOR VALUES WITH (MODULUS ${PARTITIONS}, REMAINDER ${r})`,
    ),
  );
}

/**
 * What a database administrator runs once so that gateways read with a role that cannot write
 * (docs/architecture.md says the same): USAGE on the schema and SELECT on its tables, now and for
 * tables a later schema version adds, and read-only transactions by default as a second fence.
 */
export function readerGrants(role: string, owner: string): string[] {
  const r = quoteIdent(role);
  return [
    `GRANT USAGE ON SCHEMA lspgate TO ${r}`,
    `GRANT SELECT ON ALL TABLES IN SCHEMA lspgate TO ${r}`,
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${quoteIdent(owner)} IN SCHEMA lspgate GRANT SELECT ON TABLES TO ${r}`,
    `ALTER ROLE ${r} SET default_transaction_read_only = on`,
  ];
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
