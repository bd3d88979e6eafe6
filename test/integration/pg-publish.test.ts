/**
 * The publisher's transaction and the vectors, in-process on a throwaway cluster
 * (helpers/pg-cluster.ts): a publish that fails half-way leaves the previous commit as it was;
 * files are shared between commits by (path, hash); vectors are stored in pgvector's column where
 * the server has the extension (skipped here, saying why, where it has not) and else in float4[]
 * with exact cosine in SQL (nearest.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectIndex, type IndexConnection } from '../../src/catalog/published/connect.js';
import { nearestChunks } from '../../src/catalog/published/nearest.js';
import { type FileBody, publishCommit, type PublishInput } from '../../src/catalog/published/writer.js';
import type { Chunk } from '../../src/chunks/types.js';
import type { FileEntry } from '../../src/core/catalog.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';
import { ADMIN, ADMIN_PASSWORD, type PgCluster, pgSkip, startCluster } from '../helpers/pg-cluster.js';

let cluster: PgCluster;

function entry(file: string, hash: string, names: string[]): FileEntry {
  return {
    hash,
    size: 10,
    mtimeMs: 0,
    language: 'typescript',
    server: 'syntax',
    tier: 'syntax',
    symbols: names.map((n, i) => catalogSymbol(file, 'typescript', n, 'function', i + 1, i + 1)),
  };
}

function chunk(file: string, name: string): Chunk {
  return {
    id: `${file}:${name}`,
    file,
    start_line: 1,
    end_line: 1,
    language: 'typescript',
    is_test: false,
    symbol_name: name,
    chunk_kind: 'symbol',
    commit_hash: '',
    content_sha256: '',
    text: `function ${name}() {}`,
  };
}

/** Three files; each file's one chunk gets a vector pointing along its own axis. */
function input(sha: string, files: Record<string, string>, load?: (path: string) => Promise<FileBody>): PublishInput {
  const axis = (path: string) => Float32Array.from([0, 1, 2, 3], (i) => (i === Object.keys(files).indexOf(path) ? 1 : 0.01));
  return {
    repo: 'example.com/org/repo',
    sha,
    indexVersion: 3,
    files: new Map(Object.entries(files).map(([path, hash]) => [path, entry(path, hash, [`${hash}Fn`])])),
    load: load ?? (async (path) => ({ content: `// ${path}`, chunks: [chunk(path, `${files[path]}Fn`)], vectors: [axis(path)] })),
    idioms: (path) => ({ [`calls:${path}`]: 1 }),
    embedder: { checksum: 'test-embedder', dim: 4, identity: { provider: 'test', model: 'axes', dim: 4 } },
  };
}

async function counts(conn: IndexConnection) {
  const r = await conn.query<{ files: number; commits: number; symbols: number; listed: number }>(
    `SELECT (SELECT count(*)::int FROM lspgate.files) AS files, (SELECT count(*)::int FROM lspgate.commits) AS commits,
            (SELECT count(*)::int FROM lspgate.symbols) AS symbols, (SELECT count(*)::int FROM lspgate.commit_files) AS listed`,
  );
  return r.rows[0]!;
}

describe.skipIf(pgSkip)('publishing into PostgreSQL', () => {
  let conn: IndexConnection;
  beforeAll(async () => {
    cluster = await startCluster();
    conn = await connectIndex(cluster.url(ADMIN, ADMIN_PASSWORD), { readOnly: false });
  }, 120_000);

  afterAll(async () => {
    await conn?.close();
    await cluster?.stop();
  });

  it('shares unchanged files between commits and leaves the last state when a publish fails half-way', async () => {
    const first = await publishCommit(conn, input('c1', { 'a.ts': 'alpha', 'b.ts': 'beta', 'c.ts': 'gamma' }));
    expect(first).toMatchObject({ files: 3, new_files: 3, symbols: 3, chunks: 3, vectors: 3, vector_column: 'array' });
    const second = await publishCommit(conn, input('c2', { 'a.ts': 'alpha', 'b.ts': 'beta2', 'c.ts': 'gamma' }));
    expect(second).toMatchObject({ files: 3, new_files: 1, new_symbols: 1 });
    const before = await counts(conn);
    expect(before).toEqual({ files: 4, commits: 2, symbols: 4, listed: 6 });
    // the third commit's second new file cannot be loaded: nothing of the third commit stays
    let loaded = 0;
    const failing = input('c3', { 'a.ts': 'alpha3', 'b.ts': 'beta3', 'c.ts': 'gamma' }, async (path) => {
      if (++loaded === 2) throw new Error('embedder went away');
      return { content: path, chunks: [] };
    });
    await expect(publishCommit(conn, failing)).rejects.toThrow('embedder went away');
    expect(await counts(conn)).toEqual(before);
    expect((await conn.query(`SELECT sha FROM lspgate.commits ORDER BY sha`)).rows.map((r) => r.sha)).toEqual(['c1', 'c2']);
  });

  it("brings a schema 1 index to 2 and fills the listed files' idiom counts", async () => {
    // an index as schema 1 wrote it: no idioms column
    await conn.query('ALTER TABLE lspgate.files DROP COLUMN idioms');
    await conn.query(`UPDATE lspgate.meta SET value = '1' WHERE key = 'schema_version'`);
    const r = await publishCommit(conn, input('c4', { 'a.ts': 'alpha', 'b.ts': 'beta2', 'c.ts': 'gamma' }));
    expect(r).toMatchObject({ files: 3, new_files: 0 });
    expect((await conn.query(`SELECT value FROM lspgate.meta WHERE key = 'schema_version'`)).rows[0]!.value).toBe('2');
    const rows = await conn.query<{ path: string; idioms: unknown }>(
      `SELECT f.path, f.idioms FROM lspgate.files f JOIN lspgate.commit_files cf ON cf.repo_id = f.repo_id AND cf.file_id = f.id
        WHERE cf.sha = 'c4' ORDER BY f.path`,
    );
    expect(rows.rows).toEqual(['a.ts', 'b.ts', 'c.ts'].map((path) => ({ path, idioms: { counts: { [`calls:${path}`]: 1 } } })));
    // files no commit of this publish lists keep NULL: unknown, never read as "no idioms"
    expect(Number((await conn.query(`SELECT count(*) AS n FROM lspgate.files WHERE idioms IS NULL`)).rows[0]!.n)).toBe(1);
  });

  it('finds the nearest chunks by exact cosine over float4[] when pgvector is absent', async () => {
    const near = await nearestChunks(conn, {
      repository: 'example.com/org/repo',
      commit: 'c2',
      embedder: 'test-embedder',
      query: Float32Array.from([0, 0, 1, 0]),
      k: 2,
    });
    expect(near[0]).toMatchObject({ chunk_id: 'c.ts:gammaFn', file: 'c.ts' });
    expect(near[0]!.distance).toBeLessThan(0.01);
    expect(near[1]!.distance).toBeGreaterThan(0.9);
  });

  it('stores vectors in pgvector where the server has it', async (ctx) => {
    const missing = await cluster.pgvector();
    if (missing) {
      console.warn(`PGVECTOR TEST SKIPPED: ${missing}`);
      ctx.skip();
      return;
    }
    await cluster.admin('CREATE DATABASE vec');
    const v = await connectIndex(cluster.url(ADMIN, ADMIN_PASSWORD, 'vec'), { readOnly: false });
    try {
      const r = await publishCommit(v, input('c1', { 'a.ts': 'alpha', 'b.ts': 'beta', 'c.ts': 'gamma' }));
      expect(r.vector_column).toBe('pgvector:4');
      const near = await nearestChunks(v, {
        repository: 'example.com/org/repo',
        commit: 'c1',
        embedder: 'test-embedder',
        query: Float32Array.from([0, 1, 0, 0]),
        k: 1,
      });
      expect(near[0]).toMatchObject({ chunk_id: 'b.ts:betaFn' });
    } finally {
      await v.close();
    }
  });
});
