/**
 * An embedding endpoint that answers badly (fixtures/embed-server's hostile modes: a body far over
 * any real answer, HTML, a drip after the headers, Infinity values, wrong shapes) through the
 * spawned `lspgate mcp`: a hybrid search_code answers from BM25 with a warning naming the reason,
 * an explicit vector search fails with a coded error (never INTERNAL), the huge body is not read
 * to its end, and nothing invalid is stored — once the endpoint is fixed, hybrid answers with
 * finite scores. A vector index left on disk with non-finite vectors is found and rebuilt.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqlite } from '../../src/chunks/sqlite-handle.js';
import { type EmbedMode, type EmbedServer, startEmbedServer } from '../helpers/embed-server.js';
import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, tempDir } from '../helpers/spawn.js';

interface Answer {
  isError: boolean;
  text: string;
  mode?: string;
  hits: { score: { vector_distance: number; vector_rank: number } }[];
  warnings: string[];
}

const DOCS: Record<string, string> = {
  'docs/deploy.md': '# Deploying\n\nThe release robot copies the build to the staging host and restarts it.\n',
  'docs/cache.md': '# Caching\n\nAnswers are kept in a byte-bounded cache keyed by the request.\n',
  'docs/search.md': '# Searching\n\nChunks are ranked with BM25 and, with an embedder, by cosine distance.\n',
};
const HUGE = 256 * 1024 * 1024;

describe('a hostile embedding endpoint through lspgate mcp', () => {
  let base: string;
  let ws: string;
  let cacheDir: string;
  let srv: EmbedServer;
  let mcp: StdioConnection | undefined;

  const start = async () => {
    mcp = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', ws], {
      cacheDir,
      env: {
        LSPGATE_EMBED_URL: srv.url,
        LSPGATE_EMBED_API: 'openai',
        LSPGATE_EMBED_MODEL: 'fixture',
        LSPGATE_EMBED_DIM: '8',
        LSPGATE_EMBED_TIMEOUT_MS: '3000',
      },
    });
  };

  const search = async (args: Record<string, unknown>): Promise<Answer> => {
    const r = await mcp!.client.callTool(
      { name: 'search_code', arguments: { query: 'staging host release robot', output_format: 'json', ...args } },
      { timeout: 120_000 },
    );
    const s = (r.structuredContent ?? {}) as { mode?: string; hits?: Answer['hits']; _meta?: { warnings?: string[] } };
    return { isError: r.isError === true, text: textOf(r), mode: s.mode, hits: s.hits ?? [], warnings: s._meta?.warnings ?? [] };
  };

  beforeAll(async () => {
    assertBuilt();
    base = tempDir('lspgate-embed-hostile-');
    ws = path.join(base, 'ws');
    cacheDir = path.join(base, 'cache');
    for (const [rel, text] of Object.entries(DOCS)) {
      mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      writeFileSync(path.join(ws, rel), text);
    }
    srv = await startEmbedServer('--dim', '8', '--huge-bytes', String(HUGE));
    await start();
  });

  afterAll(async () => {
    await mcp?.client.close();
    srv?.proc.kill('SIGTERM');
    removeDir(base);
  });

  const hostile: [EmbedMode, RegExp, string][] = [
    ['not-json', /not JSON/, 'SERVER_FAILED'],
    ['non-finite', /non-finite/, 'SERVER_FAILED'],
    ['bad-shape', /not a list of numbers|index/, 'SERVER_FAILED'],
    ['huge', /over its limit of \d+ bytes/, 'SERVER_FAILED'],
    ['drip', /did not answer within 3000 ms/, 'TIMEOUT'],
  ];

  it.each(hostile)(
    '%s: hybrid answers from BM25 with the reason, vector search is a coded error',
    async (mode, reason, code) => {
      await srv.setMode(mode);
      const hybrid = await search({});
      expect(hybrid.isError, hybrid.text).toBe(false);
      expect(hybrid.mode).toBe('bm25');
      expect(hybrid.hits.length).toBeGreaterThan(0);
      expect(hybrid.warnings.join('\n')).toMatch(reason);
      expect(hybrid.warnings.join('\n')).toContain('answered with BM25 only');
      const vector = await search({ mode: 'vector' });
      expect(vector.isError).toBe(true);
      expect(vector.text).toContain(code);
      expect(vector.text).not.toContain('INTERNAL');
    },
    120_000,
  );

  it('the huge body was not read to its end', async () => {
    const s = await srv.stats();
    // two searches asked in huge mode; each stopped reading at the cap (plus socket buffers)
    expect(s.bytes_sent).toBeLessThan(HUGE / 4);
  });

  it('once the endpoint is fixed, hybrid answers with finite scores: nothing invalid was stored', async () => {
    await srv.setMode('ok');
    const fixed = await search({});
    expect(fixed.isError, fixed.text).toBe(false);
    expect(fixed.mode).toBe('hybrid');
    expect(fixed.warnings).toEqual([]);
    const ranked = fixed.hits.filter((h) => h.score.vector_rank > 0);
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.every((h) => Number.isFinite(h.score.vector_distance))).toBe(true);
    const vector = await search({ mode: 'vector' });
    expect(vector.isError, vector.text).toBe(false);
    expect(vector.hits.every((h) => Number.isFinite(h.score.vector_distance))).toBe(true);
  }, 120_000);

  it('a stored index holding non-finite vectors is found and rebuilt', async () => {
    await mcp!.client.close();
    mcp = undefined;
    // the index the previous process wrote: every stored vector made NaN
    const workspaces = path.join(cacheDir, 'workspaces');
    const file = readdirSync(workspaces)
      .map((id) => path.join(workspaces, id, 'index.db'))
      .find((f) => existsSync(f))!;
    const db = openSqlite(file);
    const dim = Number(db.prepare("SELECT value FROM manifest WHERE key = 'embedding_dim'").get()!.value);
    const nan = new Uint8Array(new Float32Array(dim).fill(Number.NaN).buffer);
    expect(Number(db.prepare('UPDATE vec_chunks SET embedding = ?').run(nan).changes)).toBeGreaterThan(0);
    db.close();
    await start();
    const r = await search({});
    expect(r.isError, r.text).toBe(false);
    expect(r.mode).toBe('hybrid');
    expect(r.warnings.join('\n')).toMatch(/non-finite.*rebuilt/);
    expect(r.hits.filter((h) => h.score.vector_rank > 0).every((h) => Number.isFinite(h.score.vector_distance))).toBe(true);
  }, 120_000);
});
