/**
 * search_code's vectors from the published index (`--index`): a throwaway cluster
 * (helpers/pg-cluster.ts), a committed copy of fixtures/ts-app published by the built CLI with the
 * fixture embedding server (fixtures/embed-server), then vector searches in other processes on fresh
 * caches with a read-only role. Under the same embedder the taken chunks' vectors go into the local
 * store as published: the server sees fewer inputs by exactly the number taken, and a vector written
 * into the published row of `clamp` is the one a query finds. Under another embedder (another model
 * name) every chunk is embedded here, the planted vector is not used, and `_meta.warnings` says so.
 * pgvector's column (cast to float4[] on read) needs the extension: skipped, with the reason, where
 * the server does not have it (Debian bookworm has no package).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readerGrants } from '../../src/catalog/published/schema.js';
import { type EmbedServer, startEmbedServer } from '../helpers/embed-server.js';
import { type PgCluster, pgSkip, publishableFixture, startCluster } from '../helpers/pg-cluster.js';
import { assertBuilt, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const OWNER_PW = 'owner-Pw-5d2b';
const READER_PW = 'reader-Pw-71e0';
const DIM = 16;
/** The fixture server puts a character in slot charCode % DIM: this query is the unit vector of slot 10. */
const QUERY = 'zzzzzzzz';
const SLOT = 'z'.charCodeAt(0) % DIM;

/** Where the server's extensions are: pgvector is there when `vector.control` is. */
function pgvectorMissing(): string | undefined {
  const dirs = existsSync('/usr/share/postgresql') ? readdirSync('/usr/share/postgresql').map((m) => `/usr/share/postgresql/${m}/extension`) : [];
  return dirs.some((d) => existsSync(path.join(d, 'vector.control')))
    ? undefined
    : 'the pgvector extension is not installed on this PostgreSQL (Debian bookworm has no package for it; trixie has postgresql-17-pgvector)';
}
const NO_PGVECTOR = pgvectorMissing();
if (NO_PGVECTOR && !pgSkip) console.warn(`PGVECTOR TEST SKIPPED: ${NO_PGVECTOR}`);

let cluster: PgCluster;
let srv: EmbedServer;
let root: string;
const dirs: string[] = [];
const started: ChildProcess[] = [];

function embedEnv(model: string): Record<string, string> {
  return { LSPGATE_EMBED_URL: srv.url, LSPGATE_EMBED_API: 'openai', LSPGATE_EMBED_MODEL: model, LSPGATE_EMBED_DIM: String(DIM) };
}

async function lspgate(args: string[], env: Record<string, string>, cache?: string) {
  const cacheDir = cache ?? tempDir('lspgate-pgveccache-');
  if (!cache) dirs.push(cacheDir);
  return runCli([...args, '--root', root], { cacheDir, env: { LSPGATE_LOG: 'info', ...env } });
}

interface VectorSearch {
  symbols: string[];
  warnings: string[];
  /** Inputs the embedding server was sent by this process. */
  embedded: number;
  output: string;
}

/** A search_code (vector unless `mode`) on a fresh cache unless `cache`, with `model` at the fixture server. */
async function vectorSearch(model: string, index?: string, opts: { mode?: string; cache?: string } = {}): Promise<VectorSearch> {
  const before = (await srv.stats()).inputs;
  const r = await lspgate(
    ['search_code', '--query', QUERY, '--mode', opts.mode ?? 'vector', '--limit', '3', '--json', ...(index ? ['--index', index] : [])],
    embedEnv(model),
    opts.cache,
  );
  expect(r.code, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { hits: { chunk: { symbol_name?: string } }[]; _meta: { warnings?: string[] } };
  return {
    symbols: json.hits.map((h) => h.chunk.symbol_name ?? ''),
    warnings: json._meta.warnings ?? [],
    embedded: (await srv.stats()).inputs - before,
    output: r.stdout + r.stderr,
  };
}

const ownerUrl = () => cluster.url('lspgate_owner', OWNER_PW);
const readerUrl = () => cluster.url('lspgate_reader', READER_PW);

/** Publishes HEAD with the fixture embedder (model `m`) and lets the reader read. */
async function publish(): Promise<void> {
  const r = await lspgate(['publish', '--to', ownerUrl(), '--json'], embedEnv('m'));
  expect(r.code, r.stderr).toBe(0);
  for (const stmt of readerGrants('lspgate_reader', 'lspgate_owner')) await cluster.admin(stmt);
}

/** Points the published vector of `clamp`'s chunk along the query's axis: only a taken vector can make it the nearest. */
async function plantClamp(): Promise<void> {
  const axis = Array.from({ length: DIM }, (_, i) => (i === SLOT ? 1 : 0));
  const column = (await cluster.admin(`SELECT value FROM lspgate.meta WHERE key = 'vectors'`)).rows[0].value as string;
  const literal = column === 'array' ? `ARRAY[${axis.join(',')}]::real[]` : `'[${axis.join(',')}]'::vector`;
  const r = await cluster.admin(
    `UPDATE lspgate.chunk_vectors v SET embedding = ${literal} FROM lspgate.chunks c
      WHERE c.repo_id = v.repo_id AND c.file_id = v.file_id AND c.ord = v.ord AND c.symbol = 'clamp'`,
  );
  expect(r.rowCount).toBeGreaterThan(0);
}

describe.skipIf(pgSkip)('search_code vectors from the published index', () => {
  beforeAll(async () => {
    assertBuilt();
    [cluster, srv] = await Promise.all([startCluster(), startEmbedServer('--dim', String(DIM))]);
    started.push(srv.proc);
    root = await publishableFixture(cluster, 'lspgate-pgvec-', { owner: OWNER_PW, reader: READER_PW });
    dirs.push(root);
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
    for (const d of dirs) removeDir(d);
  });

  it('takes the published vectors under the same embedder, and embeds them here under another', async () => {
    await publish();
    await plantClamp();
    const local = await vectorSearch('m');
    expect(local.symbols[0]).not.toBe('clamp');

    const taken = await vectorSearch('m', readerUrl());
    expect(taken.symbols[0]).toBe('clamp');
    const imported = Number(/vectors: (\d+) chunk\(s\) taken from the published index, (\d+) embedded here/.exec(taken.output)?.[1]);
    expect(imported).toBeGreaterThan(0);
    expect(taken.warnings.join('\n')).not.toMatch(/another embedder/);

    const other = await vectorSearch('other-model', readerUrl());
    // the same taken chunks and the same query: every vector taken is one input the server was not sent
    expect(taken.embedded + imported).toBe(other.embedded);
    expect(other.output).not.toMatch(/taken from the published index/);
    expect(other.symbols[0]).not.toBe('clamp');
    expect(other.warnings.filter((w) => w.includes("the published index's vectors are of another embedder"))).toHaveLength(1);
    expect(other.warnings.join('\n')).toMatch(/openai-compatible m, dim 16\) than this gateway's \(openai-compatible other-model, dim 16\)/);
    for (const out of [taken.output, other.output]) {
      expect(out).not.toContain(READER_PW);
      expect(out).not.toContain(OWNER_PW);
    }
  }, 240_000);

  it('keeps the taken vectors in the database until a later process searches by vector', async () => {
    await publish();
    await plantClamp();
    const cache = tempDir('lspgate-pgveccache-');
    dirs.push(cache);
    // the first process takes the published chunks and their vectors, and asks no vector
    const lexical = await vectorSearch('m', readerUrl(), { mode: 'bm25', cache });
    expect(lexical.embedded).toBe(0);
    const db = new DatabaseSync(path.join(cache, 'workspaces', readdirSync(path.join(cache, 'workspaces'))[0]!, 'index.db'));
    const waiting = Number((db.prepare('SELECT count(*) AS n FROM published_vectors').get() as { n: number }).n);
    db.close();
    expect(waiting).toBeGreaterThan(0);
    // a new process on the same cache takes no chunk again (their stamps are stored): the vectors
    // it seeds the store with are the ones the first left in the database
    const later = await vectorSearch('m', readerUrl(), { cache });
    expect(later.symbols[0]).toBe('clamp');
    expect(Number(/vectors: (\d+) chunk\(s\) taken from the published index/.exec(later.output)?.[1])).toBeGreaterThanOrEqual(waiting);
    const after = new DatabaseSync(path.join(cache, 'workspaces', readdirSync(path.join(cache, 'workspaces'))[0]!, 'index.db'));
    expect((after.prepare('SELECT count(*) AS n FROM published_vectors').get() as { n: number }).n).toBe(0);
    after.close();
  }, 240_000);

  it.skipIf(!!NO_PGVECTOR)(
    'reads vectors published in pgvector’s column',
    async () => {
      // a fresh database, so the first publish makes the schema with pgvector's column
      await cluster.admin('DROP SCHEMA IF EXISTS lspgate CASCADE');
      await publish();
      expect((await cluster.admin(`SELECT value FROM lspgate.meta WHERE key = 'vectors'`)).rows[0].value).toBe(`pgvector:${DIM}`);
      await plantClamp();
      const taken = await vectorSearch('m', readerUrl());
      expect(taken.output).toMatch(/vectors: \d+ chunk\(s\) taken from the published index/);
      expect(taken.symbols[0]).toBe('clamp');
    },
    240_000,
  );
});
