/**
 * The HTTP embedder against a real local embedding server process (fixtures/embed-server) speaking
 * both the OpenAI-compatible and the Ollama API: batching, retries after 503, a wrong key, a wrong
 * dimension, bad answers (HTML, Infinity, wrong shapes, a huge body, a drip), and the server being down (SERVER_FAILED; a hybrid search_code still answers from
 * BM25 with a warning, an explicit vector search fails with the code).
 */
import type { ChildProcess } from 'node:child_process';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { HttpEmbedder } from '../../src/chunks/http-embedder.js';
import { LspgateError } from '../../src/errors/errors.js';
import { type EmbedServer, startEmbedServer } from '../helpers/embed-server.js';
import { openFixture } from '../helpers/gateway.js';

const started: ChildProcess[] = [];
const fx = await openFixture('ts-app');

async function startServer(...args: string[]): Promise<EmbedServer> {
  const srv = await startEmbedServer(...args);
  started.push(srv.proc);
  return srv;
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

async function failure(p: Promise<unknown>): Promise<LspgateError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LspgateError) return e;
    throw e;
  }
  throw new Error('expected a coded failure');
}

afterAll(async () => {
  await Promise.all(started.map(stop));
});

const ENV_KEYS = ['LSPGATE_EMBED_URL', 'LSPGATE_EMBED_API', 'LSPGATE_EMBED_MODEL', 'LSPGATE_EMBED_DIM'];
afterEach(() => {
  for (const k of ENV_KEYS) delete process.env[k];
});

describe('HTTP embedder against a local server', () => {
  it.each(['openai', 'ollama'] as const)('%s API: batches the inputs, one vector per input in order', async (api) => {
    const srv = await startServer('--dim', '16');
    const emb = new HttpEmbedder({ url: srv.url, api, model: 'm', dim: 16, batchSize: 2 });
    const vecs = await emb.embed(['alpha', 'beta', 'alpha', 'gamma', 'delta']);
    expect(vecs).toHaveLength(5);
    expect([...vecs[0]!]).toEqual([...vecs[2]!]);
    expect([...vecs[0]!]).not.toEqual([...vecs[1]!]);
    expect(vecs.every((v) => v.length === 16)).toBe(true);
    expect((await srv.stats()).batches).toEqual([2, 2, 1]);
    expect(emb.identity()).toMatchObject({ model: 'm', dim: 16, provider: api === 'openai' ? 'openai-compatible' : 'ollama' });
  });

  it('retries 503 with backoff, and gives up with SERVER_FAILED after its retries', async () => {
    const srv = await startServer('--dim', '8', '--fail', '2');
    const ok = new HttpEmbedder({ url: srv.url, api: 'openai', model: 'm', dim: 8, retries: 2, backoffMs: 10 });
    expect(await ok.embed(['x'])).toHaveLength(1);
    const flaky = await startServer('--dim', '8', '--fail', '5');
    const e = await failure(new HttpEmbedder({ url: flaky.url, api: 'ollama', model: 'm', dim: 8, retries: 1, backoffMs: 10 }).embed(['x']));
    expect(e.code).toBe('SERVER_FAILED');
    expect(e.message).toContain('HTTP 503');
  });

  it('a wrong key and a wrong dimension are coded failures, not retried', async () => {
    const srv = await startServer('--dim', '8', '--key', 'secret');
    const bad = await failure(new HttpEmbedder({ url: srv.url, api: 'openai', model: 'm', dim: 8, apiKey: 'nope', backoffMs: 10 }).embed(['x']));
    expect(bad.code).toBe('SERVER_FAILED');
    expect(bad.message).toContain('HTTP 401');
    const dim = await failure(new HttpEmbedder({ url: srv.url, api: 'openai', model: 'm', dim: 32, apiKey: 'secret' }).embed(['x']));
    expect(dim.message).toContain('configured dim is 32');
    expect((await srv.stats()).requests).toBe(1);
  });

  it.each(['openai', 'ollama'] as const)('%s API: a bad answer is a coded failure naming its reason, never retried', async (api) => {
    const srv = await startServer('--dim', '8', '--huge-bytes', String(64 * 1024 * 1024));
    const emb = new HttpEmbedder({ url: srv.url, api, model: 'm', dim: 8, timeoutMs: 1000, backoffMs: 10 });
    const cases: [string, string, string][] = [
      ['not-json', 'SERVER_FAILED', 'not_json'],
      ['non-finite', 'SERVER_FAILED', 'non_finite'],
      ['bad-shape', 'SERVER_FAILED', 'bad_shape'],
      ['huge', 'SERVER_FAILED', 'too_large'],
      ['drip', 'TIMEOUT', ''],
    ];
    for (const [mode, code, reason] of cases) {
      await srv.setMode(mode as Parameters<typeof srv.setMode>[0]);
      const e = await failure(emb.embed(['alpha', 'beta']));
      expect([mode, e.code, e.details?.reason ?? '']).toEqual([mode, code, reason]);
    }
    const s = await srv.stats();
    expect(s.requests).toBe(cases.length);
    expect(s.bytes_sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('a server that is down: SERVER_FAILED; hybrid search_code answers from BM25 with a warning', async () => {
    const srv = await startServer('--dim', '8');
    await stop(srv.proc);
    const e = await failure(new HttpEmbedder({ url: srv.url, api: 'openai', model: 'm', dim: 8, retries: 1, backoffMs: 10 }).embed(['x']));
    expect(e.code).toBe('SERVER_FAILED');
    expect(e.message).toContain('unreachable');

    Object.assign(process.env, { LSPGATE_EMBED_URL: srv.url, LSPGATE_EMBED_API: 'ollama', LSPGATE_EMBED_MODEL: 'm', LSPGATE_EMBED_DIM: '8' });
    const r = (await fx.run('search_code', { query: 'pad a value on the left' })) as unknown as {
      mode: string;
      hits: { chunk: { symbol_name?: string }; score: { vector_rank: number } }[];
      _meta: { warnings?: string[] };
    };
    // Asked as hybrid (an embedder is configured), answered by BM25: the mode says which.
    expect(r.mode).toBe('bm25');
    expect(r.hits[0]!.chunk.symbol_name).toBe('padLeft');
    expect(r.hits[0]!.score.vector_rank).toBe(0);
    expect(r._meta.warnings?.join('\n')).toContain('answered with BM25 only');
    const vec = await fx.runError('search_code', { query: 'pad a value', mode: 'vector' });
    expect(vec.code).toBe('SERVER_FAILED');

    const live = await startServer('--dim', '8');
    process.env.LSPGATE_EMBED_URL = live.url;
    const h = (await fx.run('search_code', { query: 'pad a value on the left', limit: 5 })) as unknown as {
      mode: string;
      hits: { score: { vector_rank: number; hybrid_rank: number } }[];
    };
    expect(h.mode).toBe('hybrid');
    expect(h.hits.some((x) => x.score.vector_rank > 0)).toBe(true);
    expect(h.hits[0]!.score.hybrid_rank).toBe(1);
    expect((await live.stats()).requests).toBeGreaterThan(1);
  });
});
