/**
 * The on-disk vector index across real processes: the built `lspgate` one-shot CLI, two embedding
 * models served by the real fixture server (fixtures/embed-server, dims 16 and 32). A first process
 * embeds every chunk; a second process on the same cache dir embeds only its query; index_stats
 * reports the stored model, dim, vectors and bytes on disk; another model is refused with
 * INDEX_MISMATCH and the reindex hint (vector and default hybrid mode alike), and `--reindex`
 * rebuilds the index with the new model. Fourteen processes each start tsserver: a long test.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmbedServer } from '../helpers/embed-server.js';
import { assertBuilt, removeDir, REPO, runCli, tempDir } from '../helpers/spawn.js';

interface Server {
  url: string;
  proc: ChildProcess;
  inputs: () => Promise<number>;
}

const started: ChildProcess[] = [];
let root: string;
let cacheDir: string;
let a: Server;
let b: Server;

async function startServer(dim: number): Promise<Server> {
  const srv = await startEmbedServer('--dim', String(dim));
  started.push(srv.proc);
  return { url: srv.url, proc: srv.proc, inputs: async () => (await srv.stats()).inputs };
}

function embedEnv(s: Server, model: string, dim: number): Record<string, string> {
  return { LSPGATE_EMBED_URL: s.url, LSPGATE_EMBED_API: 'openai', LSPGATE_EMBED_MODEL: model, LSPGATE_EMBED_DIM: String(dim) };
}

async function lspgate(args: string[], env: Record<string, string>) {
  const r = await runCli([...args, '--root', root, '--json'], { cacheDir, env });
  return { ...r, json: r.code === 0 ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined };
}

beforeAll(async () => {
  assertBuilt();
  root = tempDir('lspgate-vecroot-');
  cacheDir = tempDir('lspgate-veccache-');
  cpSync(path.join(REPO, 'fixtures/ts-app'), root, { recursive: true });
  [a, b] = await Promise.all([startServer(16), startServer(32)]);
});

afterAll(async () => {
  await Promise.all(
    started.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          p.once('exit', () => resolve());
          p.kill('SIGTERM');
        }),
    ),
  );
  removeDir(root);
  removeDir(cacheDir);
});

describe('vector index on disk, across processes', () => {
  it('a second process reuses the stored vectors; another model is refused until --reindex', async () => {
    const envA = embedEnv(a, 'mini-a', 16);
    const first = await lspgate(['search_code', 'format a greeting', '--mode', 'vector'], envA);
    expect(first.code, first.stderr).toBe(0);
    const chunks = ((await lspgate(['index_stats'], envA)).json as { chunk_count: number }).chunk_count;
    expect(chunks).toBeGreaterThan(3);
    // Every chunk and the query.
    expect(await a.inputs()).toBe(chunks + 1);

    const second = await lspgate(['search_code', 'format a greeting', '--mode', 'vector'], envA);
    expect(second.code, second.stderr).toBe(0);
    expect(await a.inputs()).toBe(chunks + 2);
    expect((second.json as { hits: unknown[] }).hits).toEqual((first.json as { hits: unknown[] }).hits);

    const stats = (await lspgate(['index_stats'], envA)).json as Record<string, unknown>;
    expect(stats).toMatchObject({
      embedding_model: 'mini-a',
      embedding_dim: 16,
      vector_count: chunks,
      embedder_matches: true,
      schema_version: expect.any(String),
    });
    expect(stats.vector_index_bytes as number).toBe(chunks * 16 * 4);
    // one database holds the catalog, the chunks and the vectors
    expect(stats.index_size_bytes).toBe(stats.catalog_bytes);
    expect(stats.index_size_bytes as number).toBeGreaterThan(stats.vector_index_bytes as number);
    expect(stats.catalog_bytes as number).toBeGreaterThan(0);

    const envB = embedEnv(b, 'mini-b', 32);
    for (const mode of ['vector', 'hybrid']) {
      const refused = await lspgate(['search_code', 'format a greeting', '--mode', mode], envB);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('INDEX_MISMATCH');
      expect(refused.stderr).toContain('mini-a');
      expect(refused.stderr).toContain('reindex: true');
    }
    expect(await b.inputs()).toBe(0);
    expect((await lspgate(['index_stats'], envB)).json).toMatchObject({ embedding_model: 'mini-a', embedder_matches: false });
    // BM25 needs no vectors: it still answers.
    expect((await lspgate(['search_code', 'format a greeting', '--mode', 'bm25'], envB)).code).toBe(0);

    const rebuilt = await lspgate(['search_code', 'format a greeting', '--mode', 'vector', '--reindex'], envB);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(await b.inputs()).toBe(chunks + 1);
    expect((await lspgate(['index_stats'], envB)).json).toMatchObject({
      embedding_model: 'mini-b',
      embedding_dim: 32,
      vector_count: chunks,
      embedder_matches: true,
    });
    expect((await lspgate(['search_code', 'format a greeting', '--mode', 'hybrid'], envB)).code).toBe(0);
    expect(await b.inputs()).toBe(chunks + 2);
  }, 900_000);
});
